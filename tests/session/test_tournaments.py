"""Tournaments through the session layer: rounds of real games in their threads, played to a
champion, with restarts between rounds and mid-round (nobody seated twice), a drop-out, a bye,
a cancel and a knockout."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections import Counter
from collections.abc import Callable
from pathlib import Path

import pytest

from bot.domain.tournament import ai_entrant
from bot.session import SessionError, Sessions
from bot.session import events as ev
from bot.storage import Storage

from .conftest import GUILD, wait_for, with_options

CHANNEL = 77
HOST = "900"
PEOPLE = ["901", "902", "903", "904"]


@pytest.fixture
async def storage(tmp_path: Path):
    s = await Storage.open(tmp_path / "t.db", durable=False)
    yield s
    await s.close()


class Threads:
    """The adapter's part, faked: a new thread id per table; `failing` rounds raise."""

    def __init__(self) -> None:
        self.made: list[tuple[int, int, int]] = []
        self.failing: set[int] = set()
        self.refused = 0  # how many were asked for in a failing round

    async def __call__(self, row, round: int, table_no: int, entrants) -> int:
        if round in self.failing:
            self.refused += 1
            raise ConnectionError("Discord is down")
        self.made.append((row.id, round, table_no))
        return 5000 + len(self.made)


class World:
    """Sessions over one storage, rebuilt as a restart would; on `clock` (the real one if
    None)."""

    def __init__(self, storage: Storage, clock: Callable[[], float] | None = None) -> None:
        self.storage = storage
        self.clock = clock or time.time
        self.threads = Threads()
        self.said: list[ev.TournamentEvent] = []
        self.s = self.build()

    def build(self) -> Sessions:
        s = Sessions(
            self.storage, retry_seconds=30.0, clock=self.clock,
            options=with_options({"bot_delay": 0.0, "away_delay": 0.0, "turn_seconds": None,
                                  "seed_source": lambda: 4242}),
        )  # fmt: skip
        s.tournaments.threads = self.threads
        s.tournaments.announce = self.heard
        return s

    async def heard(self, event: ev.TournamentEvent) -> None:
        self.said.append(event)
        await self.s.tournaments.announced(event.tournament_id, event.key)

    async def restart(self) -> None:
        await self.s.close()
        self.s = self.build()
        await self.s.restore()

    async def drive(self, tid: int, until: str = "finished", rounds: int | None = None) -> None:
        """Play the people's turns (the AI plays its own) until the tournament is `until`
        or has reached round `rounds` with that round's tables all open."""
        loop = asyncio.get_running_loop()
        end = loop.time() + 30
        while True:
            row = await self.storage.tournaments.get(tid)
            if row.status == until or (rounds is not None and row.round >= rounds):
                return
            assert loop.time() < end, f"stuck in round {row.round} ({row.status})"
            for game_id in list(self.s.tables):
                table = self.s.table_of(game_id)
                if table is None:
                    continue
                if not table.loaded:
                    await self.s.load(game_id)
                if table.game.over or table.turn is None:
                    continue
                user = table.seats[table.turn]
                if user in PEOPLE:
                    hand = await self.s.hand(game_id, user)
                    with contextlib.suppress(SessionError):  # the table moved meanwhile
                        await self.s.play(game_id, user, hand.legal[0], hand.version)
            await asyncio.sleep(0.001)


@pytest.fixture
async def world(storage):
    w = World(storage)
    yield w
    await w.s.close()


@pytest.fixture
async def timed_world(storage, clock):
    """A world on the virtual clock (tests/support/clock.py); `drive` polls on loop timers,
    so it is not for this one."""
    w = World(storage, clock.now)
    yield w
    await w.s.close()


async def new(w: World, **kw):
    kw.setdefault("table_size", 4)
    return await w.s.tournaments.create(GUILD, CHANNEL, HOST, "Winter Cup", **kw)


async def seated_once(storage: Storage, tid: int) -> list[list[tuple[str, ...]]]:
    """Each round's tables; asserts nobody sits twice in a round and each table has one
    game, in a thread of its own, and no game outside the tables was made."""
    tables = await storage.tournaments.tables(tid)
    rounds: dict[int, list] = {}
    for t in tables:
        rounds.setdefault(t.round, []).append(t)
    games = [t.game_id for t in tables if t.table_no]
    assert None not in games and len(set(games)) == len(games)
    assert len({t.thread_id for t in tables if t.table_no}) == len(games)
    made = await storage.fetchall("SELECT id FROM games")
    assert len(made) == len(games)  # no game started twice for a table
    out = []
    for n in sorted(rounds):
        who = Counter(e for t in rounds[n] for e in t.entrants)
        assert max(who.values()) == 1, f"round {n} seats {who.most_common(1)} twice"
        out.append([t.entrants for t in rounds[n] if t.table_no])
    return out


async def test_a_swiss_of_16_with_restarts_between_rounds_and_mid_round(world, storage):
    cup = await new(world, rounds=3, turn_seconds=None)
    for person in PEOPLE:
        world.s.names_in(GUILD)[person] = f"P{person}"
        await world.s.tournaments.join(cup.id, person, GUILD)
    assert await world.s.tournaments.fill_with_ai(cup.id, GUILD, 12, "easy") == 12
    with pytest.raises(SessionError):
        await world.s.tournaments.join(cup.id, PEOPLE[0], GUILD)  # once
    world.threads.failing = {2}  # round 2's threads cannot be made: stuck between rounds
    await world.s.tournaments.start(cup.id)
    await world.drive(cup.id, rounds=2)
    # Round 2 seated; its first table's thread refused, and the step waits 30 s to try again.
    await wait_for(lambda: world.threads.refused >= 1)
    row = await storage.tournaments.get(cup.id)
    assert row.round == 2 and all(
        t.game_id is None for t in await world.s.tournaments.tables(cup.id, 2) if t.table_no
    )
    assert [type(e).__name__ for e in world.said] == ["RoundStarted", "RoundOver"]

    world.threads.failing = set()
    await world.restart()  # between rounds: round 2 is seated once and opened now
    await world.drive(cup.id, rounds=3)
    await world.s.tournaments.settle()
    # Mid-round: round 3's tables are open, the people's still playing.
    playing = [t for t in await storage.tournaments.tables(cup.id, 3) if t.status == "playing"]
    assert playing
    await world.restart()
    await world.drive(cup.id)

    rounds = await seated_once(storage, cup.id)
    assert [len(r) for r in rounds] == [4, 4, 4]
    standings = await world.s.tournaments.standings(cup.id)
    assert len(standings) == 16 and [r.played for r in standings] == [3] * 16
    assert standings[0].rank == 1 and standings[0].points >= standings[-1].points
    final = await storage.tournaments.get(cup.id)
    assert final.status == "finished" and final.settings["champion"] == standings[0].entrant
    kinds = [(type(e).__name__, getattr(e, "round", None)) for e in world.said]
    assert kinds == [
        ("RoundStarted", 1), ("RoundOver", 1), ("RoundStarted", 2), ("RoundOver", 2),
        ("RoundStarted", 3), ("RoundOver", 3), ("TournamentOver", None),
    ]  # fmt: skip
    # Ordinary games: each in its thread, recorded with its result and its tournament.
    game = await storage.games.get(
        rounds and (await storage.tournaments.tables(cup.id, 1))[0].game_id
    )
    assert game.status == "finished" and game.options["tournament"] == cup.id
    assert await storage.history.get(game.id) is not None


async def test_a_drop_out_and_a_bye(world, storage):
    cup = await new(world, table_size=2, rounds=2, turn_seconds=None)
    await world.s.tournaments.join(cup.id, PEOPLE[0], GUILD)
    await world.s.tournaments.fill_with_ai(cup.id, GUILD, 4, "easy")  # five: one bye a round
    await world.s.tournaments.start(cup.id)
    await world.drive(cup.id, rounds=1)
    await world.s.tournaments.settle()
    [bye] = [t for t in await storage.tournaments.tables(cup.id, 1) if t.table_no == 0]
    assert len(bye.entrants) == 1
    await world.s.tournaments.leave(cup.id, PEOPLE[0], GUILD)  # dropped from later rounds
    await world.drive(cup.id)
    rounds = await seated_once(storage, cup.id)
    assert PEOPLE[0] not in {e for t in rounds[1] for e in t}
    rows = {r.entrant: r for r in await world.s.tournaments.standings(cup.id)}
    assert rows[PEOPLE[0]].dropped and sum(r.byes for r in rows.values()) >= 1
    assert (await storage.tournaments.get(cup.id)).settings["champion"] != PEOPLE[0]


async def test_a_knockout_of_8(world, storage):
    cup = await new(world, format="knockout", table_size=2)
    await world.s.tournaments.fill_with_ai(cup.id, GUILD, 8, "easy")
    row = await world.s.tournaments.start(cup.id)
    assert row.rounds == 3
    await world.drive(cup.id)
    rounds = await seated_once(storage, cup.id)
    assert [len(r) for r in rounds] == [4, 2, 1]
    finals = (await storage.tournaments.tables(cup.id, 3))[0]
    winner = (
        finals.entrants[finals.result["places"].index(0)]
        if finals.result["places"].count(0) == 1
        else None
    )
    champion = (await storage.tournaments.get(cup.id)).settings["champion"]
    assert champion in finals.entrants and (winner is None or champion == winner)
    assert {e for e in rounds[1][0] + rounds[1][1]} >= set(finals.entrants)


async def test_a_cancel_ends_its_games_and_no_round_follows(world, storage):
    cup = await new(world, rounds=2, turn_seconds=None)
    for person in PEOPLE:
        await world.s.tournaments.join(cup.id, person, GUILD)
    await world.s.tournaments.start(cup.id)
    await world.drive(cup.id, rounds=1)
    await world.s.tournaments.settle()
    [table] = await storage.tournaments.tables(cup.id, 1)
    assert table.status == "playing"
    await world.s.tournaments.cancel(cup.id, GUILD, HOST)
    await world.s.tournaments.settle()
    assert (await storage.games.get(table.game_id)).status == "cancelled"
    assert world.s.table_of(table.game_id) is None
    assert (await storage.tournaments.get(cup.id)).status == "cancelled"
    assert (await storage.tournaments.get(cup.id)).round == 1
    assert isinstance(world.said[-1], ev.TournamentOver) and world.said[-1].cancelled
    with pytest.raises(SessionError):
        await world.s.tournaments.cancel(cup.id, GUILD, HOST)


async def test_the_sign_up_deadline_starts_it_or_cancels_it(timed_world, storage, clock):
    world = timed_world
    now = clock.now()
    few = await new(world, signup_ends=now + 3600)
    many = await world.s.tournaments.create(GUILD, CHANNEL + 1, HOST, "Spring", table_size=2,
                                            starts_at=now + 3600)  # fmt: skip
    await world.s.tournaments.join(few.id, PEOPLE[0], GUILD)
    await world.s.tournaments.fill_with_ai(many.id, GUILD, 2, "easy")
    timers = [world.s.tournaments.timers_[few.id], world.s.tournaments.timers_[many.id]]
    await clock.advance(3599)
    assert not any(t.done() for t in timers)  # not before their time
    assert [(await storage.tournaments.get(t.id)).status for t in (few, many)] == ["signup"] * 2
    await clock.advance(1)
    # Each start time's own task, waited for to its end: it started the cup or cancelled it.
    await wait_for(lambda: all(t.done() for t in timers))
    settling = asyncio.create_task(world.s.tournaments.settle())
    await wait_for(settling.done)  # bounded: a step waiting to retry would wait for an advance
    assert (await storage.tournaments.get(few.id)).status == "cancelled"
    assert (await storage.tournaments.get(many.id)).status in ("running", "finished")
    assert ai_entrant("easy", 1) in {e.entrant for e in await storage.tournaments.entrants(many.id)}


async def test_an_end_a_restart_cut_off_is_posted_once_after_it(world, storage):
    cup = await new(world, table_size=2, rounds=1)
    await world.s.tournaments.fill_with_ai(cup.id, GUILD, 2, "easy")

    async def down(event):
        if isinstance(event, ev.TournamentOver):
            raise ConnectionError("Discord is down")
        await world.heard(event)

    world.s.tournaments.announce = down
    await world.s.tournaments.start(cup.id)
    await world.drive(cup.id)
    await world.s.tournaments.settle()
    assert not any(isinstance(e, ev.TournamentOver) for e in world.said)
    await world.restart()
    await world.restart()  # posted and marked: not again
    ends = [e for e in world.said if isinstance(e, ev.TournamentOver)]
    champion = (await storage.tournaments.get(cup.id)).settings["champion"]
    assert [(e.champion, e.cancelled) for e in ends] == [(champion, False)]


async def test_check_in_seats_only_who_checked_in_across_a_restart(world, storage):
    """With check-in, its window opens 15 minutes before the start; joining in it checks in
    too; AI entrants count as checked in; at the start the others are not seated."""
    ops = world.s.tournaments
    now = ops.clock()
    cup = await new(world, table_size=2, rounds=1, check_in=True, starts_at=now + 3600)
    for p in PEOPLE[:3]:
        await ops.join(cup.id, p, GUILD)
    await ops.fill_with_ai(cup.id, GUILD, 1, "easy")
    with pytest.raises(SessionError) as early:
        await ops.check_in(cup.id, PEOPLE[0], GUILD)
    assert early.value.key == "tour.error.check_in_later"
    assert (await ops.info(cup.id)).check_in_opens is not None
    ops.clock = lambda: now + 3600 - 600  # 10 minutes before the start: open
    assert (await ops.info(cup.id)).check_in_opens is None
    await ops.check_in(cup.id, PEOPLE[0], GUILD)
    with pytest.raises(SessionError) as twice:
        await ops.check_in(cup.id, PEOPLE[0], GUILD)
    assert twice.value.key == "tour.error.checked_in_already"
    with pytest.raises(SessionError) as stranger:
        await ops.check_in(cup.id, "999", GUILD)
    assert stranger.value.key == "tour.error.not_joined"
    await ops.join(cup.id, PEOPLE[3], GUILD)  # joining in the window checks in
    await world.restart()  # nothing lost
    ops = world.s.tournaments
    assert (await ops.info(cup.id)).checked == 3  # 901, 904 and the AI entrant
    await ops.start(cup.id)
    await ops.settle()
    seated = {e for t in await storage.tournaments.tables(cup.id, 1) for e in t.entrants}
    assert seated == {PEOPLE[0], PEOPLE[3], ai_entrant("easy", 1)}
    plan, _ = await ops.plan(cup.id, 1)
    assert set(plan.absent) == {PEOPLE[1], PEOPLE[2]} and not plan.left
    left = {e.entrant for e in await storage.tournaments.entrants(cup.id)}
    assert not left & {PEOPLE[1], PEOPLE[2]}  # not in the standings either


async def test_check_in_with_too_few_checked_in_does_not_start(world, storage):
    ops = world.s.tournaments
    cup = await new(world, table_size=2, check_in=True)  # no start time: open at once
    for p in PEOPLE[:3]:
        await ops.join(cup.id, p, GUILD)  # open: joining checks in
    other = await ops.create(GUILD, CHANNEL + 1, HOST, "Late", table_size=2, check_in=True,
                             starts_at=ops.clock() + 3600)  # fmt: skip
    for p in PEOPLE[:2]:
        await ops.join(other.id, p, GUILD)  # before the window: not checked in
    with pytest.raises(SessionError) as few:
        await ops.start(other.id)
    assert few.value.key == "tour.error.too_few"
    assert (await storage.tournaments.get(other.id)).status == "signup"
    assert (await ops.info(cup.id)).checked == 3
