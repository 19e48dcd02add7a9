from bot.engine import legal_moves, new_game, play, to_dict
from bot.session import LobbyFull

from .conftest import CHANNEL, GUILD, RULES, play_turn, table_for, wait_for


async def test_restart_and_continue(make, storage):
    s1 = make()
    table = await table_for(s1, ("a", "b", "c"))
    game_id = table.game_id
    for _ in range(4):
        await play_turn(s1, game_id)
    before = table.game
    await s1.close()

    s2 = make()
    assert await s2.restore() == [game_id]
    restored = await s2.load(game_id)  # read on its first use (restore is lazy)
    assert restored.game == before and restored.version == 4 and restored.host_id == "a"
    for _ in range(500):
        if (await play_turn(s2, game_id)).ended:
            break
    assert (await storage.history.get(game_id)) is not None
    assert (await storage.games.get(game_id)).status == "finished"


async def test_restore_lobby_and_expired_deadline(make, storage):
    s1 = make(turn_seconds=60)
    table = await table_for(s1)
    await s1.open_lobby(GUILD, CHANNEL + 1, "x", RULES)
    await s1.close()
    await storage.games.update(table.game_id, deadline=s1.clock() - 1)

    s2 = make(turn_seconds=60, away_delay=5, restore_grace=0)  # no grace: it fires at once
    ids = await s2.restore()
    assert len(ids) == 2 and table.game_id in ids
    restored = s2.table(table.game_id)
    await wait_for(lambda: restored.version == 1)  # the expired deadline fired at once
    assert (await storage.games.moves(table.game_id))[0]["auto"] is True
    await s2.join(CHANNEL + 1, "y")
    assert s2.lobby_in(CHANNEL + 1).seats == ["x", "y"]


async def test_restore_finishes_a_game_that_is_over(make, storage, notes):
    game = new_game(RULES, ["a", "b"], seed=7)
    while not game.over:
        game, _ = play(game, legal_moves(game)[0])
    row = await storage.games.create(GUILD, CHANNEL, "a", RULES.to_dict(), state=to_dict(game))
    s = make()
    assert await s.restore() == []
    assert (await storage.history.get(row.id)) is not None
    assert ("game_over", row.id) in [(k, g) for k, g, _ in notes.calls]
    await s.open_lobby(GUILD, CHANNEL, "a", RULES)  # the channel is free


async def test_a_forfeit_survives_a_restart_before_the_next_move(make):
    s1 = make(away_delay=3600)  # the forfeited seat's move would come much later
    table = await table_for(s1, ("a", "b"))
    seat = table.turn
    await s1.forfeit(table.game_id, table.seats[seat])
    await s1.close()

    s2 = make(away_delay=3600)
    await s2.restore()
    assert (await s2.load(table.game_id)).forfeited == {seat}


async def test_a_lobby_keeps_its_seat_limit_across_a_restart(make):
    s1 = make()
    lobby = await s1.open_lobby(GUILD, CHANNEL, "a", RULES, max_players=2)
    await s1.close()

    s2 = make()
    await s2.restore()
    assert s2.lobby_in(CHANNEL).max_players == 2
    await s2.join(CHANNEL, "b")
    try:
        await s2.join(CHANNEL, "c")
    except LobbyFull:
        pass
    else:
        raise AssertionError("a third player joined a 2-player lobby")
    assert s2.lobby_in(CHANNEL).game_id == lobby.game_id
