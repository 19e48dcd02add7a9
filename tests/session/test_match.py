from bot.domain.match import Match, standings
from bot.engine import PRESETS

from .conftest import CHANNEL, GUILD, RULES, play_turn
from .helpers import table_in


async def play_game(s, game_id):
    for _ in range(500):
        played = await play_turn(s, game_id)
        if played.ended:
            return played
    raise AssertionError("the game did not end")


async def test_a_three_game_match_rotates_the_dealer_and_keeps_score(make, storage):
    seeds = iter(range(100, 200))
    s = make(seed_source=lambda: next(seeds))
    await s.open_lobby(GUILD, CHANNEL, "a", RULES, games=3, scoring="cards")
    await s.join(CHANNEL, "b")
    await s.join(CHANNEL, "c")
    table = await s.start(CHANNEL, "a")
    dealers = [table.game.dealer]
    game_id = table.game_id
    for number in (1, 2, 3):
        played = await play_game(s, game_id)
        if number < 3:
            nxt = played.next
            assert nxt is not None and nxt.match.number == number + 1
            assert len(nxt.match.results) == number and nxt.seats == table.seats
            assert table_in(s, CHANNEL) is nxt
            dealers.append(nxt.game.dealer)
            game_id = nxt.game_id
        else:
            assert played.next is None
    assert dealers == [dealers[0], (dealers[0] + 1) % 3, (dealers[0] + 2) % 3]
    finished = await storage.history.by_guild(GUILD)
    assert len(finished) == 3  # each game counts in the stats on its own
    last = s.tables.get(game_id)
    assert last is None and CHANNEL not in s.channels


async def test_the_final_game_knows_the_match_winner(make):
    seeds = iter(range(300, 400))
    s = make(seed_source=lambda: next(seeds))
    await s.open_lobby(GUILD, CHANNEL, "a", PRESETS["standard"], games=2, scoring="wins")
    await s.join(CHANNEL, "b")
    table = await s.start(CHANNEL, "a")
    second = (await play_game(s, table.game_id)).next
    await play_game(s, second.game_id)
    match = second.match
    assert len(match.results) == 2 and match.winners
    top = standings(match, 2)[0]
    assert top.seat in match.winners


async def test_a_match_survives_a_restart_between_moves(make):
    s1 = make()
    await s1.open_lobby(GUILD, CHANNEL, "a", RULES, games=2, scoring="wins")
    await s1.join(CHANNEL, "b")
    await s1.close()
    s2 = make()
    await s2.restore()
    assert s2.lobby_in(CHANNEL).match.games == 2
    table = await s2.start(CHANNEL, "a")
    await play_turn(s2, table.game_id)
    await s2.close()
    s3 = make()
    await s3.restore()
    again = await s3.load(table.game_id)
    assert again.match == Match(games=2, scoring="wins", number=1, results=())
    second = (await play_game(s3, table.game_id)).next
    assert second is not None and second.match.number == 2


async def test_a_rematch_lobby_seats_everyone_with_the_clicker_as_host(make):
    s = make()
    lobby = await s.open_lobby(GUILD, CHANNEL, "b", RULES, seats=["a", "b", "c"])
    assert lobby.seats == ["b", "a", "c"] and lobby.host_id == "b"
    await s.leave(CHANNEL, "c")
    assert lobby.seats == ["b", "a"]
