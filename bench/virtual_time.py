"""An asyncio event loop on virtual time: whenever it would wait for its next timer, the clock
jumps to it instead. Our own work then takes no virtual time at all, and a minute of 5,000
games is over as soon as the CPU has done that minute's work.

Work handed to threads (run_in_executor, asyncio.to_thread, aiosqlite's connection thread and
the bot's bounded pool, bot/work.py) is waited for in real time, the clock standing still: a
thread's result arrives at the virtual instant it was asked for, as if it took no time either.

    with asyncio.Runner(loop_factory=VirtualLoop) as runner:
        runner.run(main())
"""

from __future__ import annotations

import asyncio
import functools
import selectors
from collections.abc import Callable
from concurrent.futures import Executor
from typing import Any, TypeVar, TypeVarTuple

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

START = 1_000_000.0  # the virtual clock's reading at start (any value: it is monotonic)


class _Selector(selectors.DefaultSelector):
    def __init__(self, loop: VirtualLoop) -> None:
        super().__init__()
        self.loop = loop

    def select(self, timeout: float | None = None) -> list[tuple[selectors.SelectorKey, int]]:
        events = super().select(0)
        if events or timeout == 0:
            return events
        if self.loop.threads:  # a thread's answer is on its way: wait for it, time stands still
            return super().select(None)
        if timeout is not None:
            self.loop.now += timeout  # nothing to do until the next timer: jump to it
            return []
        return super().select(None)


class VirtualLoop(asyncio.SelectorEventLoop):
    def __init__(self) -> None:
        self.now = START
        self.threads = 0  # work in threads not answered yet
        super().__init__(selector=_Selector(self))
        track_aiosqlite()
        track_pool()

    def time(self) -> float:
        return self.now

    def wall(self) -> float:
        """A wall clock on the virtual time (what discord.utils.utcnow would say)."""
        return 1_800_000_000.0 + (self.now - START)

    def run_in_executor(
        self, executor: Executor | None, func: Callable[[*Ts], T], *args: *Ts
    ) -> asyncio.Future[T]:
        future = super().run_in_executor(executor, func, *args)
        self.asked(future)
        return future

    def asked(self, future: asyncio.Future[Any]) -> None:
        self.threads += 1
        future.add_done_callback(self._answered)

    def _answered(self, _: object) -> None:
        self.threads -= 1


def track_aiosqlite() -> None:
    """aiosqlite's connection thread answers through futures of its own: count them too."""
    try:
        from aiosqlite import core
    except ImportError:
        return
    if getattr(core.Connection, "_virtual_time", False):
        return

    def tracked(method: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(method)
        async def run(self: Any, *args: Any, **kwargs: Any) -> Any:
            loop = asyncio.get_running_loop()
            if not isinstance(loop, VirtualLoop):
                return await method(self, *args, **kwargs)
            loop.threads += 1
            try:
                return await method(self, *args, **kwargs)
            finally:
                loop.threads -= 1

        return run

    core.Connection._execute = tracked(core.Connection._execute)  # type: ignore[method-assign]
    core.Connection._connect = tracked(core.Connection._connect)  # type: ignore[method-assign]
    core.Connection._virtual_time = True  # type: ignore[attr-defined]


def track_pool() -> None:
    """The bot's bounded pool (bot/work.py) submits to its executor itself, so its pictures were
    not counted: the clock ran on while one was drawn, and a table's staleness then depended
    on how busy the CPU was."""
    from bot import work

    if getattr(work.Fair, "_virtual_time", False):
        return
    run_in_pool = work.Fair.run

    @functools.wraps(run_in_pool)
    async def run(self: Any, *args: Any) -> Any:
        loop = asyncio.get_running_loop()
        if not isinstance(loop, VirtualLoop):
            return await run_in_pool(self, *args)
        loop.threads += 1
        try:
            return await run_in_pool(self, *args)
        finally:
            loop.threads -= 1

    work.Fair.run = run  # type: ignore[method-assign,assignment]
    work.Fair._virtual_time = True  # type: ignore[attr-defined]
