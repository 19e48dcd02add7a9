"""Tournament faults of issue 32 in storage, on both backends: a row whose settings cannot be
read is set aside, never fatal; a join racing the start; a person forgotten during the
sign-up, or while seated at a table whose game has not started."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import asyncpg
import pytest
from sqlalchemy import Insert, text, update

from bot.storage import StillPlaying, StillSeated
from bot.storage.schema import tournaments
from tests.support import backends

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
    with caplog.at_level(logging.ERROR, logger="bot.storage.tournament"):
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


class Pausing:
    """A transaction's connection that pauses before its INSERT into `table`."""

    def __init__(self, db, table: str, paused: asyncio.Event, go: asyncio.Event) -> None:
        self.db, self.table, self.paused, self.go = db, table, paused, go

    def __getattr__(self, name: str):
        return getattr(self.db, name)

    async def execute(self, statement, *args, **kw):
        if isinstance(statement, Insert) and statement.table.name == self.table:
            self.paused.set()
            await self.go.wait()
        return await self.db.execute(statement, *args, **kw)


async def either(event: asyncio.Event, task: asyncio.Task) -> None:
    """Until `event` is set; raises what `task` raised if it ends first."""
    waiting = asyncio.ensure_future(event.wait())
    await asyncio.wait([waiting, task], return_when=asyncio.FIRST_COMPLETED)
    if not waiting.done():
        waiting.cancel()
        task.result()
        raise AssertionError(f"{task} ended first")


class Paused:
    """Pauses one task's transaction before its INSERT into `table` (watch), and tells when
    another task is waiting for its own transaction or for a row lock (on PostgreSQL, as the
    server says: no clock involved)."""

    def __init__(self, storage) -> None:
        self.storage = storage
        self.real = storage.connection.transaction
        self.pause: dict[asyncio.Task, tuple[str, asyncio.Event, asyncio.Event]] = {}
        self.asked: dict[asyncio.Task, asyncio.Event] = {}
        self.pids: dict[asyncio.Task, int] = {}
        storage.connection.transaction = self.transaction

    @contextlib.asynccontextmanager
    async def transaction(self):
        task = asyncio.current_task()
        if task in self.asked:
            self.asked[task].set()
        async with self.real() as db:
            if self.storage.dialect == "postgresql":
                self.pids[task] = (await db.execute(text("SELECT pg_backend_pid()"))).scalar()
            if task not in self.pause:
                yield db
                return
            yield Pausing(db, *self.pause[task])

    async def waiting(self, task: asyncio.Task) -> bool:
        """Until `task` is done (True) or waits (False): for the SQLite writer, or on a
        PostgreSQL lock."""
        await either(self.asked[task], task)
        if self.storage.dialect != "postgresql":
            return False  # SQLite: its transaction waits for the writer, held by the paused one
        con = await asyncpg.connect(backends.dsn(backends.server_url()))
        try:
            for _ in range(12000):  # a bound for a busy machine, not a timing
                if task.done():
                    return True
                pid = self.pids.get(task)
                if pid is not None:
                    kind = await con.fetchval(
                        "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", pid
                    )
                    if kind == "Lock":
                        return False
                await asyncio.sleep(0.005)  # the server's state, looked at again
            raise AssertionError("the start neither finished nor waited")
        finally:
            await con.close()


async def test_a_join_racing_the_start_comes_in_before_it_or_not_at_all(storage):
    """A join checks the sign-up is open, then writes the entrant; the start closes the
    sign-up. If the start commits between the two, the join must not then write: the
    entrant would be in a running tournament that its start (seeding, rounds) never saw.
    Here the join is paused between the two while the start runs."""
    cup = await new(storage)
    for who in (ANN, BOB):
        await storage.tournaments.join(cup.id, who, 0.0)
    gate = Paused(storage)
    paused, go = asyncio.Event(), asyncio.Event()
    joining = asyncio.create_task(storage.tournaments.join(cup.id, CAT, 0.0))
    gate.pause[joining] = ("tournament_entrants", paused, go)
    await either(paused, joining)  # the join saw the sign-up open
    starting = asyncio.create_task(storage.tournaments.start(cup.id, rounds=2))
    gate.asked[starting] = asyncio.Event()
    started_first = await gate.waiting(starting)
    go.set()
    joined, started = await asyncio.gather(joining, starting)
    entrants = {x.entrant for x in await storage.tournaments.entrants(cup.id)}
    assert started and joined == (CAT in entrants)
    assert not (started_first and joined), "the join came in after the start"


async def test_a_person_forgotten_during_the_sign_up_is_signed_up_no_more(storage):
    """Their entry goes, as a leave's does during the sign-up; a tournament under way keeps
    their row as a former entrant's (their results stand)."""
    cup = await new(storage)
    running = await new(storage, channel=6, name="Running")
    for tid in (cup.id, running.id):
        for who in (ANN, BOB, CAT):
            await storage.tournaments.join(tid, who, 0.0)
    await storage.tournaments.start(running.id)
    await storage.forgetting.forget(BOB, GUILD)
    assert [x.entrant for x in await storage.tournaments.entrants(cup.id)] == [ANN, CAT]
    kept = await storage.tournaments.entrants(running.id)
    assert [(x.entrant, x.dropped) for x in kept] == [
        (ANN, False), ("former:1", True), (CAT, False)
    ]  # fmt: skip
    await storage.forgetting.forget(ANN, GUILD)  # the host: the tournament stays, hers no more
    assert [x.entrant for x in await storage.tournaments.entrants(cup.id)] == [CAT]
    assert (await storage.tournaments.get(cup.id)).host_id == "former:0"


async def test_nobody_is_forgotten_while_seated_at_a_table_whose_game_has_not_started(storage):
    """Such a seat would open as a phantom former player's: refused, changing nothing, until
    the table is settled (here: its tournament cancelled; or its game played and over)."""
    cup = await new(storage)
    for who in (ANN, BOB, CAT):
        await storage.tournaments.join(cup.id, who, 0.0)
    await storage.tournaments.start(cup.id)
    await storage.tournaments.seat_round(cup.id, 1, [[ANN, BOB]], [CAT])
    with pytest.raises(StillSeated) as seated:
        await storage.forgetting.forget(BOB)
    assert seated.value.tournament_ids == [cup.id] and isinstance(seated.value, StillPlaying)
    with pytest.raises(StillSeated):
        await storage.forgetting.forget(BOB, GUILD)
    assert (await storage.tournaments.tables(cup.id, 1))[1].entrants == (ANN, BOB)
    await storage.forgetting.forget(BOB, OTHER)  # another server: nothing of this one
    await storage.forgetting.forget(CAT)  # on a bye: not at a table
    assert await storage.tournaments.end(cup.id, "cancelled")
    await storage.forgetting.forget(BOB)
    assert (await storage.tournaments.tables(cup.id, 1))[1].entrants == (ANN, "former:2")
