"""The pool that draws pictures and runs the AI (bot/work.py): bounded, and fair between
servers, so one server's burst never stalls another's click."""

from __future__ import annotations

import asyncio
import threading
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

from bot import work
from tests.support.clock import until

JOB = 0.05  # seconds a job holds its thread
LONGEST = 10  # seconds: only a failing test waits that long


@pytest.fixture
def fair():
    executor = ThreadPoolExecutor(max_workers=2)
    yield work.Fair(executor, threads=2, share=1)
    executor.shutdown(wait=True)


class Watch:
    """Jobs that hold a thread, JOB seconds or (the keys in `held`) until `release`, and note
    how many ran at once. Held jobs make a test's order of events its own, not the clock's."""

    def __init__(self, held: tuple[str, ...] = ()) -> None:
        self.lock = threading.Lock()
        self.now: dict[str, int] = {}
        self.most: dict[str, int] = {}
        self.most_in_all = 0
        self.finished: list[str] = []
        self.held, self.gate = held, threading.Event()

    def job(self, key: str) -> str:
        with self.lock:
            self.now[key] = self.now.get(key, 0) + 1
            self.most[key] = max(self.most.get(key, 0), self.now[key])
            self.most_in_all = max(self.most_in_all, sum(self.now.values()))
        if key in self.held:
            self.gate.wait(LONGEST)
        else:
            time.sleep(JOB)
        with self.lock:
            self.now[key] -= 1
            self.finished.append(key)
        return key

    def release(self) -> None:
        self.gate.set()


async def test_a_burst_of_one_server_does_not_stall_another(fair):
    watch = Watch(held=("busy",))  # the busy server's jobs hold their thread until released
    burst = [asyncio.create_task(fair.run("busy", watch.job, "busy")) for _ in range(20)]
    try:
        await until(lambda: watch.now.get("busy") == 1)  # the burst has started and queued
        assert len(fair.waiting["busy"]) == 19

        # The quiet server's job ends while every busy job still waits or holds its thread:
        # a free thread was kept for it.
        assert await asyncio.wait_for(fair.run("quiet", watch.job, "quiet"), LONGEST) == "quiet"
        assert watch.finished == ["quiet"]
    finally:
        watch.release()
    assert await asyncio.gather(*burst) == ["busy"] * 20
    assert watch.most == {"busy": 1, "quiet": 1}  # a server's share: one of the two threads
    assert watch.most_in_all == 2 and fair.busy == 0 and not fair.waiting


async def test_waiting_servers_take_turns_and_nothing_runs_beyond_the_bound(fair):
    watch = Watch()
    keys = ["a"] * 6 + ["b"] * 6 + ["c"] * 6
    jobs = [asyncio.create_task(fair.run(k, watch.job, k)) for k in keys]
    await asyncio.gather(*jobs)
    assert watch.most_in_all == 2
    # Round robin: every server had one job done among the first four.
    assert set(watch.finished[:4]) == {"a", "b", "c"}


async def test_a_job_cancelled_while_it_waits_gives_its_turn_away(fair):
    watch = Watch(held=("a", "b"))  # nothing ends before the cancel
    first = asyncio.create_task(fair.run("a", watch.job, "a"))
    other = asyncio.create_task(fair.run("b", watch.job, "b"))
    waiting = asyncio.create_task(fair.run("a", watch.job, "a"))
    await until(lambda: "a" in fair.waiting)  # both threads taken, the second "a" queued
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
    watch.release()
    await asyncio.gather(first, other)
    assert sorted(watch.finished) == ["a", "b"]
    assert fair.busy == 0 and not fair.waiting and not fair.running


async def test_the_process_pool_is_bounded_and_one_per_loop():
    assert work.THREADS >= 2 and 1 <= work.SHARE < work.THREADS
    assert work.pool() is work.pool()
    assert await work.run(1, sum, (1, 2, 3)) == 6


async def test_a_caller_that_stops_waiting_keeps_the_thread_counted_until_the_job_ends(fair):
    watch = Watch(held=("a",))
    running = asyncio.create_task(fair.run("a", watch.job, "a"))
    await until(lambda: watch.now.get("a") == 1)  # the job runs in its thread
    running.cancel()  # the click went away; its job still runs in its thread
    with pytest.raises(asyncio.CancelledError):
        await running
    assert fair.busy == 1 and watch.finished == []
    watch.release()
    await until(lambda: fair.busy == 0)
    assert watch.finished == ["a"]
