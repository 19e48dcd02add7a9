import random
from itertools import count

import pytest
from sqlalchemy.exc import IntegrityError

from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.storage import GameNotFound, OutboxItem, Storage

from .play import deal, finish, finish_then

RULES = preset("standard").to_dict()


def played(seats=("a", "b"), seed=1):
    return play_out(new_game(preset("standard"), list(seats), seed=seed), random.Random(seed))


async def active(storage, game, channel=2):
    return await storage.games.create(1, channel, game.seats[0], RULES, state=to_dict(game))


async def fail_outbox_inserts(storage) -> None:
    """From now on, writing to the outbox fails, as a full disk would."""
    async with storage.transaction() as db:
        if storage.dialect == "sqlite":
            await db.exec_driver_sql(
                "CREATE TRIGGER outbox_fails BEFORE INSERT ON outbox"
                " BEGIN SELECT RAISE(ABORT, 'no room for the outbox'); END"
            )
            return
        await db.exec_driver_sql(
            "CREATE FUNCTION outbox_full() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN"
            " RAISE EXCEPTION 'no room for the outbox' USING ERRCODE = 'integrity_constraint_"
            "violation'; END $$"
        )
        await db.exec_driver_sql(
            "CREATE TRIGGER outbox_fails BEFORE INSERT ON outbox"
            " FOR EACH ROW EXECUTE FUNCTION outbox_full()"
        )


async def outbox_works_again(storage) -> None:
    async with storage.transaction() as db:
        await db.exec_driver_sql(
            "DROP TRIGGER outbox_fails" + ("" if storage.dialect == "sqlite" else " ON outbox")
        )


async def outbox_rows(storage) -> int:
    return (await storage.fetchone("SELECT count(*) FROM outbox"))[0]


async def test_outbox_items_are_added_listed_oldest_first_and_done(storage):
    ticks = count(100)
    storage.clock = lambda: float(next(ticks))
    lobby = await storage.games.create(1, 2, "10", RULES, ["10"])
    other = await storage.games.create(1, 3, "11", RULES, ["11"])
    assert await storage.outbox.pending() == []
    first = await storage.outbox.add(lobby.id, "end_screen", {"message": 5, "lines": ["x"]})
    second = await storage.outbox.add(other.id, "cancelled", {"message": 6})
    third = await storage.outbox.add(lobby.id, "admin_ended", {})
    assert await storage.outbox.pending() == [
        OutboxItem(first, lobby.id, "end_screen", {"message": 5, "lines": ["x"]}, 102.0),
        OutboxItem(second, other.id, "cancelled", {"message": 6}, 103.0),
        OutboxItem(third, lobby.id, "admin_ended", {}, 104.0),
    ]
    await storage.outbox.done(second)
    await storage.outbox.done(second)  # twice is harmless
    assert [i.id for i in await storage.outbox.pending()] == [first, third]
    await storage.outbox.done(third)
    # Ids are never reused, so a late done() for an old item cannot remove a new one.
    fourth = await storage.outbox.add(lobby.id, "end_screen", {})
    assert fourth > third
    await storage.outbox.done(third)
    assert [i.id for i in await storage.outbox.pending()] == [first, fourth]


async def test_an_outbox_item_needs_a_game_a_kind_and_a_json_payload(storage):
    lobby = await storage.games.create(1, 2, "10", RULES, ["10"])
    with pytest.raises(GameNotFound):
        await storage.outbox.add(999, "end_screen", {})
    with pytest.raises(ValueError, match="kind"):
        await storage.outbox.add(lobby.id, "", {})
    with pytest.raises(TypeError, match="mapping"):
        await storage.outbox.add(lobby.id, "end_screen", ["not", "a", "dict"])
    with pytest.raises(TypeError):
        await storage.outbox.add(lobby.id, "end_screen", {"bad": object()})
    assert await outbox_rows(storage) == 0


async def test_the_outbox_survives_a_restart(database):
    game = played()
    storage = await Storage.open(database)
    row = await active(storage, game)
    assert await finish(storage, row.id, game, owed=[("end_screen", {"message": 7})])
    added = await storage.outbox.add(row.id, "admin_ended", {"by": "42"})
    before = await storage.outbox.pending()
    await storage.close()

    storage = await Storage.open(database)
    try:
        after = await storage.outbox.pending()
        assert after == before
        assert [(i.game_id, i.kind, i.payload) for i in after] == [
            (row.id, "end_screen", {"message": 7}),
            (row.id, "admin_ended", {"by": "42"}),
        ]
        await storage.outbox.done(added)
    finally:
        await storage.close()
    async with await Storage.open(database) as storage:
        assert [i.kind for i in await storage.outbox.pending()] == ["end_screen"]


async def test_a_finish_and_the_messages_it_owes_are_saved_together_or_not_at_all(storage):
    game = played()
    row = await active(storage, game)
    owed = [("end_screen", {"message": 7}), ("ping_cleanup", {"message": 8})]
    await fail_outbox_inserts(storage)
    with pytest.raises(IntegrityError, match="no room"):
        await finish(storage, row.id, game, names={"a": "Ann"}, owed=owed)
    # Nothing of the finish was kept: still active, no history, no stats, nothing owed.
    assert (await storage.games.get(row.id)).status == "active"
    assert await storage.history.get(row.id) is None
    assert await storage.stats.get(1, "a") is None
    assert await outbox_rows(storage) == 0

    await outbox_works_again(storage)
    assert await finish(storage, row.id, game, names={"a": "Ann"}, owed=owed)
    assert (await storage.games.get(row.id)).status == "finished"
    assert await storage.history.get(row.id) is not None
    assert [(i.game_id, i.kind, i.payload) for i in await storage.outbox.pending()] == [
        (row.id, "end_screen", {"message": 7}),
        (row.id, "ping_cleanup", {"message": 8}),
    ]
    # Finishing again changes nothing, and owes nothing more.
    assert not await finish(storage, row.id, game, owed=owed)
    assert await outbox_rows(storage) == 2


async def test_a_payload_that_cannot_be_stored_stops_the_finish_before_it_starts(storage):
    game = played()
    row = await active(storage, game)
    with pytest.raises(TypeError):
        await finish(storage, row.id, game, owed=[("end_screen", {"bad": object()})])
    assert (await storage.games.get(row.id)).status == "active"
    assert await storage.history.get(row.id) is None


async def test_a_matchs_next_game_and_the_messages_owed_are_saved_with_the_finish(storage):
    game = played(seed=3)
    row = await active(storage, game)
    nxt = to_dict(deal(2, seed=4))
    owed = [("end_screen", {"message": 7})]
    # The next game cannot be written: the finish and what it owes are rolled back with it.
    with pytest.raises(TypeError):
        await finish_then(storage, row.id, game, {**nxt, "session": {"bad": object()}}, owed=owed)
    assert await outbox_rows(storage) == 0
    assert (await storage.games.get(row.id)).status == "active"
    # The outbox failing rolls back the finish and the next game.
    await fail_outbox_inserts(storage)
    with pytest.raises(IntegrityError):
        await finish_then(storage, row.id, game, nxt, owed=owed)
    assert [g.id for g in await storage.games.live()] == [row.id]
    assert (await storage.fetchone("SELECT count(*) FROM games"))[0] == 1

    await outbox_works_again(storage)
    new_id = await finish_then(storage, row.id, game, nxt, owed=owed)
    [item] = await storage.outbox.pending()
    assert (item.game_id, item.kind) == (row.id, "end_screen")  # owed for the finished game
    assert [g.id for g in await storage.games.live()] == [new_id]
    assert await finish_then(storage, row.id, game, nxt, owed=owed) is None
    assert await outbox_rows(storage) == 1


async def test_a_cancel_and_the_notice_it_owes_are_saved_together_and_once(storage):
    lobby = await storage.games.create(1, 2, "10", RULES, ["10"])
    owed = [("cancelled", {"message": 3, "reason": "expired"})]
    await fail_outbox_inserts(storage)
    with pytest.raises(IntegrityError):
        await storage.games.cancel(lobby.id, owed=owed)
    assert (await storage.games.get(lobby.id)).status == "lobby"

    await outbox_works_again(storage)
    assert await storage.games.cancel(lobby.id, owed=owed) is True
    assert await storage.games.cancel(lobby.id, owed=owed) is False  # ended already: no more
    [item] = await storage.outbox.pending()
    assert (item.game_id, item.kind, item.payload) == (lobby.id, *owed[0])
    assert (await storage.games.get(lobby.id)).status == "cancelled"
