"""Tournament faults of issue 32 in storage, on both backends: a row whose settings cannot be
read is set aside, never fatal; a join racing the start; a person forgotten during the
sign-up, or while seated at a table whose game has not started."""

from __future__ import annotations

import logging

import pytest
from sqlalchemy import update

from bot.storage.schema import tournaments

ANN, BOB, CAT = "100000000000000001", "100000000000000002", "100000000000000003"
GUILD, OTHER = 11, 12


async def new(storage, guild=GUILD, channel=5, name="Cup", **kw):
    defaults = {"format": "swiss", "table_size": 2, "rounds": 2, "preset": "standard", "seed": 7}
    return await storage.tournaments.create(guild, channel, name, ANN, **{**defaults, **kw})


async def spoil(storage, tournament_id: int, settings: str) -> None:
    async with storage.transaction() as db:
        await db.execute(
            update(tournaments).where(tournaments.c.id == tournament_id).values(settings=settings)
        )


@pytest.mark.parametrize("text", ["{not json", "[1, 2]", ""])
async def test_a_tournament_whose_settings_cannot_be_read_is_set_aside(storage, caplog, text):
    """Open, it is cancelled (nothing of it can run) with settings that read, logged once
    with its id; its server's other tournaments and the other servers' are read as ever."""
    bad = await new(storage, name="Bad")
    here = await new(storage, channel=6, name="Here")
    there = await new(storage, guild=OTHER, name="There")
    done = await new(storage, channel=7, name="Done")
    await storage.tournaments.end(done.id, "finished", champion=BOB)
    await spoil(storage, bad.id, text)
    await spoil(storage, done.id, text)
    with caplog.at_level(logging.ERROR, logger="bot.storage.tournaments"):
        assert [r.id for r in await storage.tournaments.open()] == [here.id, there.id]
        assert [r.id for r in await storage.tournaments.open()] == [here.id, there.id]
        listed = await storage.tournaments.by_guild(GUILD)
    assert [(r.id, r.status) for r in listed] == [
        (done.id, "finished"), (here.id, "signup"), (bad.id, "cancelled")
    ]  # fmt: skip
    aside = await storage.tournaments.get(bad.id)
    assert aside.settings["unreadable"] is True and aside.name == "Bad"
    gone = [r.getMessage() for r in caplog.records]
    assert len(gone) == 2 and all("cannot be read" in m and "set aside" in m for m in gone)
    assert any(f"tournament {bad.id}:" in m for m in gone)
    # The cancelled one's end is still to be posted; the finished one's is not posted again.
    assert [r.id for r in await storage.tournaments.unannounced_ends(0.0)] == [bad.id]
    await storage.tournaments.update_settings(bad.id, announced={"ended": True})
    assert await storage.tournaments.join(here.id, BOB, 0.0)
