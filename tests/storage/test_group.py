"""Group commit (bot/storage/group.py) when the save leading a batch is cancelled mid-commit,
as a shutdown cancels the turn timers playing moves: the batch's other saves are told their
write is uncertain, never left waiting (they hung the shutdown)."""

from __future__ import annotations

import asyncio
from contextlib import asynccontextmanager

import pytest

from bot.storage.errors import SaveInterrupted
from bot.storage.group import GroupCommit


async def test_a_follower_is_told_when_the_leader_is_cancelled_mid_batch():
    committing = asyncio.Event()
    never = asyncio.Event()

    @asynccontextmanager
    async def begin():
        committing.set()
        await never.wait()  # the commit is under way when the leader is cancelled
        yield None

    async def write(db, payload):
        pass

    group = GroupCommit(begin, write)
    leader = asyncio.create_task(group.submit("first"))
    follower = asyncio.create_task(group.submit("second"))
    await committing.wait()
    assert not group.pending  # one batch holds both, its commit under way
    leader.cancel()
    with pytest.raises(asyncio.CancelledError):
        await leader
    try:
        for _ in range(3):
            await asyncio.sleep(0)
        assert follower.done()
        with pytest.raises(SaveInterrupted):
            follower.result()
    finally:
        for _ in range(2):  # before the fix it swallowed the first cancel and waited on
            follower.cancel()
            await asyncio.sleep(0)
