"""The threads that draw pictures and run the AI for clicks: a bounded pool per process, shared
fairly between servers, so one server's burst (forty hints, a replay stepped through at full
speed) queues behind its own work and never stalls another server's clicks.

    png = await work.run(guild_id, render_card, card)

At most THREADS jobs run at once, and at most SHARE of them for one server while others wait;
waiting jobs start in turn, the server served longest ago first, each server's in order.
The event loop never blocks on it: a job waits for a thread as a plain future.
"""

from __future__ import annotations

import asyncio
import os
import weakref
from collections import deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

T = TypeVar("T")

# Pillow and the AI hold the GIL most of the time: more threads than cores only queue there.
THREADS = max(2, min(4, os.cpu_count() or 2))
SHARE = THREADS - 1  # one server may use all threads but one: another always finds one free


class Fair:
    """The pool's bookkeeping on one event loop: threads in use, by server, and who waits."""

    def __init__(self, executor: ThreadPoolExecutor, threads: int, share: int) -> None:
        self.executor = executor
        self.threads, self.share = threads, max(1, min(share, threads))
        self.busy = 0
        self.running: dict[object, int] = {}
        self.waiting: dict[object, deque[asyncio.Future[None]]] = {}
        # When each server running or waiting last got a thread: the longest served least
        # goes first; one with nothing running or waiting is forgotten (first in line again).
        self.served: dict[object, int] = {}
        self.turns = 0

    async def run(self, key: object, fn: Callable[..., T], *args: object) -> T:
        """`fn(*args)` in one of the pool's threads, when `key` (a server) has its turn."""
        await self._acquire(key)
        loop = asyncio.get_running_loop()
        try:
            job = self.executor.submit(fn, *args)
        except BaseException:
            self._release(key)
            raise

        # The thread is given back when the job ends, not when its caller stops waiting (a
        # cancelled click): the bound counts the threads really in use.
        def done(_: object) -> None:
            if not loop.is_closed():  # a loop gone (shut down) has nothing to give back
                loop.call_soon_threadsafe(self._release, key)

        job.add_done_callback(done)
        return await asyncio.wrap_future(job)

    def _free_for(self, key: object) -> bool:
        return self.busy < self.threads and self.running.get(key, 0) < self.share

    def _take(self, key: object) -> None:
        self.busy += 1
        self.running[key] = self.running.get(key, 0) + 1
        self.turns += 1
        self.served[key] = self.turns

    async def _acquire(self, key: object) -> None:
        if key not in self.waiting and self._free_for(key):
            self._take(key)
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self.waiting.setdefault(key, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release(key)  # its turn came as it was cancelled: pass it on
            else:
                queue = self.waiting.get(key)
                if queue is not None and turn in queue:
                    queue.remove(turn)
                    if not queue:
                        del self.waiting[key]
                        self._forget(key)
            raise

    def _forget(self, key: object) -> None:
        if key not in self.running and key not in self.waiting:
            self.served.pop(key, None)

    def _release(self, key: object) -> None:
        self.busy -= 1
        self.running[key] -= 1
        if not self.running[key]:
            del self.running[key]
            self._forget(key)
        self._start_waiting()

    def _start_waiting(self) -> None:
        """Hand free threads to the servers waiting: the one served longest ago first."""
        while self.busy < self.threads:
            free = [k for k in self.waiting if self._free_for(k)]
            if not free:
                return
            key = min(free, key=lambda k: self.served.get(k, 0))
            queue = self.waiting[key]
            turn = queue.popleft()
            if not queue:
                del self.waiting[key]
            if not turn.done():
                self._take(key)
                turn.set_result(None)
            else:
                self._forget(key)


_EXECUTOR = ThreadPoolExecutor(max_workers=THREADS, thread_name_prefix="work")
_POOLS: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, Fair] = weakref.WeakKeyDictionary()


def pool() -> Fair:
    """The running loop's pool (the bot has one loop; each test has its own)."""
    loop = asyncio.get_running_loop()
    found = _POOLS.get(loop)
    if found is None:
        found = _POOLS[loop] = Fair(_EXECUTOR, THREADS, SHARE)
    return found


async def run(key: object, fn: Callable[..., T], *args: object) -> T:
    """`fn(*args)` in the process's pool, as `key`'s (a server id) share of it."""
    return await pool().run(key, fn, *args)
