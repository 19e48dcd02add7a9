"""Virtual time for the tests below SimCord: the running loop's clock stands still until the
test moves it on, as SimCord's `advance_time` does for the whole bot.

Every timer of the code under test (`loop.call_later`, `asyncio.sleep`, a retry's wait) comes
due by the loop's `time()`. With that replaced, a 30 s turn passes in one `advance(30)` and
never by itself, so a test neither sleeps through real turns nor races a busy machine. I/O
stays real (aiosqlite works on its own thread), so what a timer sets off is waited for with
`until(cond)`, which needs no loop timer.

Not an autojump clock (looptime, aiotools, bench/virtual_time.py): those move time on whenever
the loop would wait, and it waits for every database call. bench/virtual_time.py stands still
for aiosqlite's thread, but not for asyncpg's socket, and these tests run on PostgreSQL too: a
turn timer would fire in the middle of a move.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable

START = 1000.0


class VirtualClock:
    def __init__(self, loop: asyncio.AbstractEventLoop, start: float = START) -> None:
        self.loop = loop
        self._now = start

    def now(self) -> float:
        """The loop's time, and the sessions' clock (hand it in as `clock=`)."""
        return self._now

    def install(self) -> None:
        # An attribute of the instance: the loop's own methods call self.time().
        self.loop.time = self.now  # type: ignore[method-assign]

    def uninstall(self) -> None:
        del self.loop.time

    async def advance(self, seconds: float) -> None:
        """Move time on by `seconds`: every timer due by then runs, with what it scheduled at
        once; one it schedules for later waits for the next advance."""
        assert seconds >= 0
        self._now += seconds
        for _ in range(3):  # the due timers, then the tasks they made, a step each
            await asyncio.sleep(0)


async def until(cond: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait until `cond()` holds, for work on other threads (the database). Polled on a worker
    thread's 1 ms sleep, not a loop timer (a virtual clock never fires one by itself); the
    real-time bound only turns a hang into a failure."""
    end = time.monotonic() + seconds
    while not cond():
        if time.monotonic() > end:
            raise AssertionError("timed out waiting")
        await asyncio.to_thread(time.sleep, 0.001)
