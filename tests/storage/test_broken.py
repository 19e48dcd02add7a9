"""Issue 24 in storage: a row that cannot be read is set aside (status broken, revision 9)
instead of failing every read of the live games; a new state is written only over the state it
was worked out at."""

import sqlite3

import pytest
from sqlalchemy import select, update

from bot.engine import preset, to_dict
from bot.storage import ChannelTaken, StaleVersion, Storage
from bot.storage.schema import games

from .play import deal

RULES = preset("standard").to_dict()


async def status_of(storage, game_id):
    (row,) = await storage.fetchall(select(games.c.status).where(games.c.id == game_id))
    return row.status


async def spoil(storage, game_id, **columns):
    async with storage.transaction() as db:
        await db.execute(update(games).where(games.c.id == game_id).values(**columns))


async def test_an_unreadable_row_is_set_aside_by_the_start_up_read(storage):
    bad = await storage.games.create(1, 10, "a", RULES, ["a"])
    good = await storage.games.create(1, 11, "b", RULES, ["b"])
    await spoil(storage, bad.id, seats="[not json")

    assert [h.id for h in await storage.games.heads()] == [good.id]
    assert await status_of(storage, bad.id) == "broken"
    assert await storage.games.broken(1) == [(bad.id, 10)] and await storage.games.broken(2) == []
    assert [h.id for h in await storage.games.heads()] == [good.id]  # and after every restart
    # Its channel is free: a new lobby may open there.
    again = await storage.games.create(1, 10, "c", RULES, ["c"])
    assert again.status == "lobby"


async def test_rows_leave_out_and_set_aside_what_does_not_read(storage):
    bad = await storage.games.create(1, 10, "a", RULES, ["a"])
    good = await storage.games.create(1, 11, "b", RULES, ["b"])
    await spoil(storage, bad.id, options="{")
    assert [r.id for r in await storage.games.rows([bad.id, good.id])] == [good.id]
    assert await status_of(storage, bad.id) == "broken"


async def test_a_broken_game_is_ended_by_cancel(storage):
    row = await storage.games.create(1, 10, "a", RULES, ["a"])
    assert await storage.games.set_aside([row.id]) == [row.id]
    assert await storage.games.set_aside([row.id]) == []  # logged once: only a live row
    assert await storage.games.cancel(row.id)
    assert await status_of(storage, row.id) == "cancelled"
    assert await storage.games.broken(1) == []


async def test_a_new_state_is_written_only_at_the_version_it_was_worked_out_at(storage):
    game = deal(2)
    lobby = await storage.games.create(1, 10, "a", RULES, list(game.seats))
    await storage.games.start(lobby.id, to_dict(game))
    with pytest.raises(TypeError, match="version"):
        await storage.games.update(lobby.id, state=to_dict(game))
    with pytest.raises(StaleVersion):
        await storage.games.update(lobby.id, state={**to_dict(game), "x": 1}, version=3)
    assert "x" not in (await storage.games.get(lobby.id)).state  # nothing changed
    updated = await storage.games.update(lobby.id, state={**to_dict(game), "x": 1}, version=0)
    assert updated.state["x"] == 1


async def test_revision_9_keeps_the_one_live_game_a_channel_rule(storage):
    await storage.games.create(1, 10, "a", RULES, ["a"])
    with pytest.raises(ChannelTaken):
        await storage.games.create(1, 10, "b", RULES, ["b"])


@pytest.mark.fresh_schema
async def test_revision_9_leaves_a_sqlite_file_sound(db_path):
    async with await Storage.open(db_path) as storage:
        row = await storage.games.create(1, 10, "a", RULES, ["a"])
        await storage.games.set_aside([row.id])
    con = sqlite3.connect(db_path)
    try:
        assert con.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert con.execute("PRAGMA foreign_key_check").fetchall() == []
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            con.execute("UPDATE games SET status = 'lost'")
    finally:
        con.close()
