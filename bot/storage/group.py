"""Group commit for moves: one writer task commits every move that is waiting in a single
transaction, so a hundred simultaneous clicks cost one commit (one fsync on PostgreSQL, one
write lock on SQLite), not a hundred. A save returns only once its transaction committed."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable
from contextlib import AbstractAsyncContextManager
from dataclasses import dataclass, field
from typing import Any

from .errors import SaveInterrupted

# A transaction: BEGIN on entry, COMMIT on exit, ROLLBACK if the block raised. It yields the
# connection the writes take (SQLAlchemy's, or on SQLite the driver's: sqlite_moves.py).
Begin = Callable[[], AbstractAsyncContextManager[Any]]
# Writes one item inside the batch's transaction; raises to refuse that item alone (having
# changed nothing: a refusal is a precondition checked by its first statement).
Write = Callable[[Any, Any], Awaitable[None]]
# Writes a whole batch in a few statements; False if some item would be refused (what it
# wrote is then rolled back, and the batch is written item by item to find which).
WriteMany = Callable[[Any, list[Any]], Awaitable[bool]]
MAX_BATCH = 500  # moves per transaction, so one commit never grows without bound


class Mixed(Exception):
    """A batch holds an item to refuse: roll the batch's fast write back."""


@dataclass(eq=False)
class Item:
    payload: Any
    done: asyncio.Future[None] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )


class GroupCommit:
    def __init__(
        self,
        begin: Begin,
        write: Write,
        write_many: WriteMany | None = None,
        alone: Begin | None = None,
    ) -> None:
        self.begin = begin
        # For a batch of one, if `write` is one statement (atomic by itself): no BEGIN, COMMIT.
        self.alone = alone or begin
        self.write = write
        self.write_many = write_many
        self.pending: list[Item] = []
        self.task: asyncio.Task[None] | None = None  # only when a leader was cancelled
        self.leading = False
        self.batches = 0  # transactions committed (the tests and the bench read it)

    async def submit(self, payload: Any) -> None:
        """Write `payload` in the next batch; return once it is committed, or raise its
        refusal. Cancelled while waiting: dropped if its batch has not begun; else the batch
        ends first (its write is then saved or not, as the database says), then it cancels."""
        item = Item(payload)
        self.pending.append(item)
        if self.leading:  # a save under way commits this one in its next batch
            await self._follow(item)
            return
        # This save leads: it commits batches, in its own task, until none is waiting (no
        # background task that could outlive the storage).
        self.leading = True
        try:
            await self._drain()
        except asyncio.CancelledError:
            if item in self.pending:
                self.pending.remove(item)
            elif item.done.done() and not item.done.cancelled():
                item.done.exception()  # its own batch's SaveInterrupted: this save is cancelled
            raise
        finally:
            self.leading = False
            if self.pending:  # cancelled while others wait: a task takes over
                self.task = asyncio.create_task(self._lead())
        item.done.result()  # raises this save's refusal, if any

    async def _lead(self) -> None:
        self.leading = True
        try:
            await self._drain()
        finally:
            self.leading = False

    async def _follow(self, item: Item) -> None:
        try:
            await asyncio.shield(item.done)
        except asyncio.CancelledError:
            if item in self.pending:
                self.pending.remove(item)
                raise
            with contextlib.suppress(Exception):
                await item.done
            raise

    async def close(self) -> None:
        if self.task is not None:
            with contextlib.suppress(Exception):
                await self.task

    async def _drain(self) -> None:
        while self.pending:
            # One turn of the event loop first: the clicks being handled right now join this
            # batch instead of waiting for the next.
            await asyncio.sleep(0)
            if not self.pending:  # all cancelled meanwhile
                break
            batch, self.pending = self.pending[:MAX_BATCH], self.pending[MAX_BATCH:]
            try:
                try:
                    refused = await self._commit(batch)
                except Exception:
                    # The whole transaction failed: each on its own, so one bad item fails
                    # alone.
                    for item in batch:
                        await self._alone(item)
                    continue
            except asyncio.CancelledError:
                # This save, leading, was cancelled mid-batch (a shutdown): nobody else would
                # ever settle the batch, and its followers waited for ever.
                for item in batch:
                    if not item.done.done():
                        item.done.set_exception(SaveInterrupted())
                raise
            for item, error in zip(batch, refused, strict=True):
                if item.done.done():
                    continue
                if error is None:
                    item.done.set_result(None)
                else:
                    item.done.set_exception(error)

    async def _commit(self, batch: list[Item]) -> list[BaseException | None]:
        if self.write_many is not None and len(batch) > 1:
            try:
                async with self.begin() as db:
                    if not await self.write_many(db, [item.payload for item in batch]):
                        raise Mixed()
            except Mixed:
                pass  # some item is refused: one by one below, to tell which
            else:
                self.batches += 1
                return [None] * len(batch)
        refused: list[BaseException | None] = []
        async with (self.alone if len(batch) == 1 else self.begin)() as db:
            for item in batch:
                try:
                    await self.write(db, item.payload)
                    refused.append(None)
                except Exception as exc:  # refused before it changed anything
                    refused.append(exc)
        self.batches += 1
        return refused

    async def _alone(self, item: Item) -> None:
        try:
            async with self.alone() as db:
                await self.write(db, item.payload)
        except Exception as exc:
            if not item.done.done():
                item.done.set_exception(exc)
            return
        if not item.done.done():
            item.done.set_result(None)
