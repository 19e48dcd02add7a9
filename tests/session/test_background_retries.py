"""Issue 24: the database failing under the session's background jobs, on both backends.
Finishing a game, expiring a lobby, a turn timer and closing a withdrawn lobby each try again,
waiting longer each time, until storage is back."""

import asyncio
import logging
from collections.abc import Callable

import pytest

from bot.session import AlreadyRunning, NoGame, retry
from bot.storage import Storage

from ..support.clock import VirtualClock
from .conftest import CHANNEL, GUILD, RULES, play_turn, table_for, wait_for
from .helpers import table_in

RETRY = 5  # retry_seconds: a background job's first wait, doubled each time after


@pytest.fixture
async def storage(database):
    s = await Storage.open(database)
    yield s
    await s.close()


async def play_game(s, game_id):
    for _ in range(500):
        played = await play_turn(s, game_id)
        if played.ended:
            return played
    raise AssertionError("the game did not end")


def spy_waits(monkeypatch) -> list[float]:
    """The waits retry.py's jobs ask for, in order. Each is asked for in the step that arms
    its timer (at the clock's now), so one seen is one a clock.advance can pass."""
    real, waits = retry.wait, []

    def wait(failures: int, first: float) -> float:
        waits.append(real(failures, first))
        return waits[-1]

    monkeypatch.setattr(retry, "wait", wait)
    return waits


async def next_try(clock: VirtualClock, waits: list[float], n: int) -> None:
    """The n-th wait (from 1) passes, once armed: advanced before, it would end later."""
    await wait_for(lambda: len(waits) >= n)
    await clock.advance(waits[n - 1])


async def tries_until(clock: VirtualClock, waits: list[float], done: Callable[[], bool]) -> None:
    """Each wait passes once armed, until `done()`. For an Outage: on PostgreSQL a second
    outage right after one may kill no connection (none made since), so one try fewer fails."""
    n = 0
    while True:
        await wait_for(lambda n=n: done() or len(waits) > n)
        if done():
            return
        n += 1
        await clock.advance(waits[n - 1])


# ----- item 2: a game whose end could not be recorded


async def test_a_game_whose_end_failed_is_recorded_once_storage_is_back(
    clock, make, storage, outage, notes, monkeypatch
):
    s = make(retry_seconds=RETRY, clock=clock.now)
    waits = spy_waits(monkeypatch)
    table = await table_for(s)
    outage.during("finish", times=3)
    await play_game(s, table.game_id)
    assert s.channels[CHANNEL] == table.game_id  # still going: its row is active
    with pytest.raises(AlreadyRunning):
        await s.open_lobby(GUILD, CHANNEL, "c", RULES)
    await tries_until(clock, waits, lambda: "game_over" in notes.kinds())
    assert waits[0] == RETRY and outage.failed["finish"] == 3
    row = await storage.games.get(table.game_id)
    assert row.status == "finished" and await storage.history.get(table.game_id) is not None
    assert (await storage.stats.get(GUILD, "a")).games == 1
    assert CHANNEL not in s.channels and not s.tables
    await s.open_lobby(GUILD, CHANNEL, "c", RULES)  # the channel is free


async def test_a_game_whose_end_keeps_failing_can_be_cancelled(clock, make, storage, monkeypatch):
    s = make(retry_seconds=RETRY, clock=clock.now)
    waits = spy_waits(monkeypatch)
    table = await table_for(s)
    calls = []

    async def down(*args, **kwargs):
        calls.append(1)
        raise ConnectionRefusedError("the database is down")

    monkeypatch.setattr(storage.games, "finish", down)
    await play_game(s, table.game_id)
    for n in (1, 2, 3):  # a few tries in the background
        await next_try(clock, waits, n)
    await wait_for(lambda: len(waits) == 4)  # the third failed too: waiting again
    assert len(calls) == 4
    assert s.live_in(CHANNEL) is table
    assert await s.cancel(CHANNEL, "a", admin=True) == table.game_id
    assert (await storage.games.get(table.game_id)).status == "cancelled"
    assert CHANNEL not in s.channels and not s.matches.jobs
    await s.open_lobby(GUILD, CHANNEL, "c", RULES)


async def test_nothing_played_meanwhile_stops_a_game_being_recorded(
    clock, make, storage, monkeypatch
):
    s = make(retry_seconds=RETRY, clock=clock.now)
    waits = spy_waits(monkeypatch)
    table = await table_for(s)
    real = storage.games.finish

    async def down(*args, **kwargs):
        raise ConnectionRefusedError("the database is down")

    monkeypatch.setattr(storage.games, "finish", down)
    await play_game(s, table.game_id)
    table.away = {0}  # as if the bot had been playing for "a"
    assert not await s.back(table.game_id, "a")
    with pytest.raises(NoGame):
        await s.forfeit(table.game_id, "b")
    assert s.matches.jobs  # still trying
    monkeypatch.setattr(storage.games, "finish", real)
    await next_try(clock, waits, 1)
    await wait_for(lambda: not s.tables, timeout=5)
    assert (await storage.games.get(table.game_id)).status == "finished"


async def test_a_finish_that_fails_is_logged_once(clock, make, storage, monkeypatch, caplog):
    s = make(retry_seconds=RETRY, clock=clock.now)
    waits = spy_waits(monkeypatch)
    table = await table_for(s)
    real, calls = storage.games.finish, []

    async def flaky(*args, **kwargs):
        calls.append(1)
        if len(calls) <= 4:
            raise ConnectionRefusedError("the database is down")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage.games, "finish", flaky)
    with caplog.at_level(logging.INFO, logger="bot.session.retry"):
        await play_game(s, table.game_id)
        for n in (1, 2, 3, 4):  # three more failures, then it works
            await next_try(clock, waits, n)
        await wait_for(lambda: not s.tables, timeout=5)
    assert waits == [5, 10, 20, 40] and len(calls) == 5
    failures = [r for r in caplog.records if r.levelno >= logging.WARNING and "failed" in r.message]
    assert len(failures) == 1 and f"game {table.game_id}" in failures[0].message
    assert any("worked after 4 failures" in r.getMessage() for r in caplog.records), [
        r.getMessage() for r in caplog.records
    ]


# ----- item 3: a lobby whose expiry failed


async def test_a_lobby_whose_expiry_failed_expires_once_storage_is_back(
    clock, make, storage, outage, notes, monkeypatch
):
    s = make(lobby_seconds=600, retry_seconds=RETRY, clock=clock.now)
    waits = spy_waits(monkeypatch)
    outage.during("cancel", times=2)
    lobby = await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    await clock.advance(599)
    assert outage.failed["cancel"] == 0  # not tried before its deadline
    await clock.advance(1)
    await tries_until(clock, waits, lambda: "lobby_expired" in notes.kinds())
    assert waits == [RETRY, 2 * RETRY] and outage.failed["cancel"] == 2  # two real failures
    assert (await storage.games.get(lobby.game_id)).status == "cancelled"
    assert s.live_in(CHANNEL) is None and s.count_in(GUILD) == 0
    await s.open_lobby(GUILD, CHANNEL + 1, "h", RULES)  # the host may open another


async def test_a_lobby_started_while_its_expiry_failed_is_left_alone(
    clock, make, storage, monkeypatch, notes
):
    s = make(lobby_seconds=600, retry_seconds=RETRY, clock=clock.now)
    waits = spy_waits(monkeypatch)
    real = storage.games.cancel
    gate, waiting = asyncio.Event(), asyncio.Event()

    async def slow(*args, **kwargs):
        waiting.set()
        await gate.wait()
        raise ConnectionRefusedError("the database is down")

    monkeypatch.setattr(storage.games, "cancel", slow)
    expiry = (await s.open_lobby(GUILD, CHANNEL, "h", RULES)).timer
    assert expiry is not None
    await s.join(CHANNEL, "p")
    await clock.advance(600)
    await wait_for(waiting.is_set)  # the expiry waits on storage, holding the lobbies' lock
    gate.set()
    table = await s.start(CHANNEL, "h")  # after the failed expiry: the lobby was still open
    monkeypatch.setattr(storage.games, "cancel", real)
    await next_try(clock, waits, 1)
    await wait_for(expiry.done)  # the expiry's next try finds no lobby, and stops
    assert table_in(s, CHANNEL) is table and "lobby_expired" not in notes.kinds()
    assert (await storage.games.get(table.game_id)).status == "active"


# ----- the turn timer


async def test_a_timer_whose_move_fails_tries_again_later_and_longer(
    clock, make, storage, monkeypatch
):
    s = make(turn_seconds=30, retry_seconds=RETRY, clock=clock.now)
    table = await table_for(s)
    real, tries = storage.games.save_move, []
    waits = spy_waits(monkeypatch)

    async def down(*args, **kwargs):
        tries.append(1)
        if len(tries) <= 4:
            raise ConnectionRefusedError("the database is down")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage.games, "save_move", down)
    await clock.advance(30)
    for n in (1, 2, 3, 4):
        await wait_for(lambda n=n: table.failures == n)  # failed, and armed again
        assert len(tries) == n and table.deadline == clock.now() + waits[-1]
        await clock.advance(waits[-1] - 1)
        # Not tried before its wait is over: still the call armed, not its task.
        assert len(tries) == n and isinstance(table.timer, asyncio.TimerHandle)
        await clock.advance(1)
    await wait_for(lambda: table.version >= 1, timeout=5)
    assert waits == [5, 10, 20, 40]  # longer each time
    assert len(tries) == 5 and table.failures == 0


# ----- item 8: a lobby nobody saw


async def test_a_withdrawn_lobby_frees_its_channel_and_its_host(
    clock, make, storage, outage, monkeypatch
):
    s = make(retry_seconds=RETRY, clock=clock.now)
    waits = spy_waits(monkeypatch)
    lobby = await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    outage.during("cancel")
    await s.withdraw(lobby.game_id)
    assert s.live_in(CHANNEL) is None
    # Its closing saved in the background:
    await tries_until(clock, waits, lambda: not s.lobby_ops.jobs)
    assert (await storage.games.get(lobby.game_id)).status == "cancelled"
    again = await s.open_lobby(GUILD, CHANNEL, "h", RULES)
    assert again.game_id != lobby.game_id
