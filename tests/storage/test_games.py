import random

import pytest

from bot.engine import from_dict, preset, record, replay, to_dict
from bot.engine.playout import play_out
from bot.storage import (
    KEEP,
    ChannelTaken,
    GameNotFound,
    StaleVersion,
    Storage,
    StorageError,
    WrongStatus,
    live,
)

from .play import deal, finish, finish_then, moves_in, step

RULES = preset("standard").to_dict()


async def test_a_lobby_is_created_changed_started_and_listed(storage):
    lobby = await storage.games.create(1, 2, "10", RULES, ["10"], lobby_message_id=3)
    assert (lobby.status, lobby.seats, lobby.host_id, lobby.state) == ("lobby", ("10",), "10", None)
    assert lobby.lobby_message_id == 3 and lobby.version == 0
    assert lobby.created_at == lobby.updated_at

    lobby = await storage.games.update(lobby.id, seats=["10", "11"], deadline=99.5)
    assert lobby.seats == ("10", "11") and lobby.deadline == 99.5
    with pytest.raises(TypeError, match="status"):
        await storage.games.update(lobby.id, status="finished")

    game = deal(2)
    started = await storage.games.start(lobby.id, to_dict(game), table_message_id=4)
    assert started.status == "active" and started.seats == game.seats
    assert started.table_message_id == 4 and started.lobby_message_id == 3
    assert from_dict(started.state) == game
    with pytest.raises(WrongStatus, match="active, not lobby"):
        await storage.games.start(lobby.id, to_dict(game))

    other = await storage.games.create(1, 5, "12", RULES)
    assert [g.id for g in await storage.games.live()] == [lobby.id, other.id]
    assert await storage.games.cancel(other.id) is True
    assert await storage.games.cancel(other.id) is False
    assert [g.id for g in await storage.games.live()] == [lobby.id]
    assert (await storage.games.get(other.id)).status == "cancelled"
    assert await storage.games.get(12345) is None
    with pytest.raises(GameNotFound):
        await storage.games.cancel(12345)


async def test_a_live_game_survives_a_restart_and_plays_on_to_the_same_end(database):
    rng = random.Random(7)
    game = deal(3, seed=42)
    storage = await Storage.open(database)
    row = await storage.games.create(1, 2, game.seats[0], RULES, state=to_dict(game))
    saved = []
    for version in range(1, 21):
        game, move = step(game, rng)
        saved.append(move)
        await storage.games.save_move(row.id, to_dict(game), move, version, deadline=version * 10.0)
    await storage.close()

    storage = await Storage.open(database)
    try:
        [loaded] = await storage.games.live()
        assert await storage.games.moves(row.id) == saved
        assert (loaded.version, loaded.deadline, loaded.status) == (20, 200.0, "active")
        restored = from_dict(loaded.state)
        assert restored == game
        assert to_dict(restored) == to_dict(game)

        # The restored copy and the uninterrupted one, given the same moves, end the same.
        rng_a, rng_b = random.Random(3), random.Random(3)
        version = loaded.version
        while game.result is None:
            game, _ = step(game, rng_a)
            restored, move = step(restored, rng_b)
            version += 1
            await storage.games.save_move(row.id, to_dict(restored), move, version)
        assert restored == game and restored.result == game.result
        [loaded] = await storage.games.live()
        assert from_dict(loaded.state) == game and loaded.version == moves_in(loaded.state)
        assert replay(record(from_dict(loaded.state))).result == game.result
    finally:
        await storage.close()


async def test_a_move_saved_against_a_stale_version_is_refused_and_changes_nothing(storage):
    rng = random.Random(1)
    game = deal(2)
    row = await storage.games.create(1, 2, "1000", RULES, state=to_dict(game))
    game, move = step(game, rng)
    await storage.games.save_move(row.id, to_dict(game), move, 1)
    later, move2 = step(game, rng)
    for version in (1, 3, 0):
        with pytest.raises(StaleVersion, match="at move 1"):
            await storage.games.save_move(row.id, to_dict(later), move2, version)
    assert await storage.games.moves(row.id) == [move]
    assert from_dict((await storage.games.get(row.id)).state) == game


async def test_moves_are_refused_for_unknown_or_ended_games(storage):
    game = deal(2)
    row = await storage.games.create(1, 2, "1000", RULES, state=to_dict(game))
    after, move = step(game, random.Random(1))
    with pytest.raises(GameNotFound):
        await storage.games.save_move(999, to_dict(after), move, 1)
    await storage.games.cancel(row.id)
    with pytest.raises(WrongStatus, match="cancelled"):
        await storage.games.save_move(row.id, to_dict(after), move, 1)
    with pytest.raises(WrongStatus):
        await storage.games.update(row.id, deadline=None)
    assert await storage.games.moves(row.id) == []


async def test_a_move_keeps_the_message_ids_and_the_deadline_unless_given(storage):
    rng = random.Random(2)
    game = deal(2)
    row = await storage.games.create(1, 2, "1000", RULES, state=to_dict(game))
    await storage.games.update(row.id, table_message_id=5, ping_message_id=6, deadline=7.0)
    game, move = step(game, rng)
    await storage.games.save_move(row.id, to_dict(game), move, 1)
    got = await storage.games.get(row.id)
    assert (got.table_message_id, got.ping_message_id, got.deadline) == (5, 6, 7.0)
    game, move = step(game, rng)
    await storage.games.save_move(row.id, to_dict(game), move, 2, deadline=8.0)
    got = await storage.games.get(row.id)
    assert (got.table_message_id, got.ping_message_id, got.deadline) == (5, 6, 8.0)
    game, move = step(game, rng)
    await storage.games.save_move(row.id, to_dict(game), move, 3, deadline=KEEP)
    got = await storage.games.get(row.id)
    assert (got.table_message_id, got.ping_message_id, got.deadline) == (5, 6, 8.0)
    game, move = step(game, rng)
    await storage.games.save_move(row.id, to_dict(game), move, 4, deadline=None)
    got = await storage.games.get(row.id)
    assert (got.table_message_id, got.ping_message_id, got.deadline) == (5, 6, None)
    assert got.updated_at >= got.created_at


async def test_lobby_settings_round_trip(storage):
    lobby = await storage.games.create(1, 2, "10", RULES, ["10"])
    assert lobby.max_players == 4 and lobby.match is None
    match = {"games": 3, "scoring": "cards", "number": 1, "results": []}
    got = await storage.games.update(lobby.id, max_players=2, match=match)
    assert got.max_players == 2 and got.match == match
    assert (await storage.games.update(lobby.id, match=None)).match is None


async def test_a_matchs_next_game_is_saved_with_the_finish_or_not_at_all(storage):
    first = deal(2, seed=3)
    rng = random.Random(3)
    while not first.over:
        first, _ = step(first, rng)
    row = await storage.games.create(7, 70, "p0", first.rules.to_dict(), state=to_dict(first))
    nxt = to_dict(deal(2, seed=4))

    # The next game's state cannot be written: the finish is rolled back with it.
    broken = {**nxt, "session": {"bad": object()}}
    with pytest.raises(TypeError):
        await finish_then(storage, row.id, first, broken, deadline=5.0)
    assert (await storage.games.get(row.id)).status == "active"
    assert await storage.history.get(row.id) is None
    assert [g.id for g in await storage.games.live()] == [row.id]

    new_id = await finish_then(
        storage, row.id, first, nxt, deadline=5.0, options={"turn_seconds": 30}
    )
    assert (await storage.games.get(row.id)).status == "finished"
    assert await storage.history.get(row.id) is not None
    made = await storage.games.get(new_id)
    assert (made.status, made.guild_id, made.channel_id, made.host_id) == ("active", 7, 70, "p0")
    assert (made.deadline, made.options, made.state) == (5.0, {"turn_seconds": 30}, nxt)
    # Finishing again (a restart replaying the end) changes nothing and makes no third game.
    assert await finish_then(storage, row.id, first, nxt) is None
    assert [g.id for g in await storage.games.live()] == [new_id]


# --- one live game per channel --------------------------------------------------------------


async def count_games(storage) -> int:
    return (await storage.fetchone("SELECT count(*) FROM games"))[0]


async def test_a_second_live_game_in_a_channel_is_refused(storage):
    lobby = await storage.games.create(1, 2, "10", RULES, ["10"])
    with pytest.raises(ChannelTaken, match="channel 2") as caught:
        await storage.games.create(1, 2, "11", RULES, ["11"])
    assert isinstance(caught.value, StorageError)
    assert (caught.value.channel_id, caught.value.game_id) == (2, lobby.id)
    with pytest.raises(ChannelTaken):  # nor a game under way
        await storage.games.create(1, 2, "1000", RULES, state=to_dict(deal(2)))
    other = await storage.games.create(1, 3, "11", RULES, ["11"])  # another channel is free
    assert [g.id for g in await storage.games.live()] == [lobby.id, other.id]
    assert await count_games(storage) == 2

    started = await storage.games.start(lobby.id, to_dict(deal(2)))
    with pytest.raises(ChannelTaken) as caught:  # an active game holds its channel too
        await storage.games.create(1, 2, "11", RULES, ["11"])
    assert caught.value.game_id == started.id


async def test_a_finished_or_cancelled_game_does_not_hold_its_channel(storage):
    lobby = await storage.games.create(1, 2, "10", RULES, ["10"])
    assert await storage.games.cancel(lobby.id)
    again = await storage.games.create(1, 2, "10", RULES, ["10"])
    assert again.status == "lobby"

    game = play_out(deal(2, seed=5), random.Random(5))
    row = await storage.games.create(1, 3, game.seats[0], RULES, state=to_dict(game))
    assert await finish(storage, row.id, game)
    after = await storage.games.create(1, 3, "10", RULES, ["10"])
    assert [g.id for g in await storage.games.live()] == [again.id, after.id]


# --- a lobby opens in one transaction -------------------------------------------------------


async def test_a_lobby_is_created_with_its_settings_in_one_go(storage):
    match = {"games": 3, "scoring": "wins", "number": 1, "results": []}
    options = {"turn_seconds": 30, "pings": False, "lobby_seconds": 600}
    lobby = await storage.games.create(
        1, 2, "10", RULES, ["10", "11"], lobby_message_id=3, deadline=1234.5, max_players=3,
        match=match, options=options,
    )  # fmt: skip
    for got in (lobby, await storage.games.get(lobby.id)):
        assert (got.deadline, got.max_players, got.match, got.options) == (
            1234.5,
            3,
            match,
            options,
        )
        assert (got.status, got.seats, got.lobby_message_id) == ("lobby", ("10", "11"), 3)
    # Left out, they are the defaults: no deadline, four seats, a single game, no options.
    plain = await storage.games.create(1, 4, "10", RULES)
    assert (plain.deadline, plain.max_players, plain.match, plain.options) == (None, 4, None, {})


async def test_a_lobby_that_fails_to_save_leaves_no_row(storage, monkeypatch):
    async def broken(db, game_id):
        raise RuntimeError("the disk said no, after the insert")

    with monkeypatch.context() as patch:
        patch.setattr(live, "written", broken)  # the read of the row just inserted
        with pytest.raises(RuntimeError, match="disk"):
            await storage.games.create(1, 2, "10", RULES, ["10"], deadline=5.0, max_players=3)
    assert await count_games(storage) == 0
    # A settings value that cannot be stored fails inside the transaction too.
    with pytest.raises(TypeError):
        await storage.games.create(1, 2, "10", RULES, ["10"], options={"bad": object()})
    assert await count_games(storage) == 0
    # And a lobby refused because its channel is taken leaves nothing either.
    first = await storage.games.create(1, 2, "10", RULES, ["10"])
    with pytest.raises(ChannelTaken):
        await storage.games.create(1, 2, "11", RULES, ["11"], match={"games": 2}, deadline=9.0)
    assert await count_games(storage) == 1
    assert await storage.games.get(first.id) == first
