"""One REST budget for the whole bot: every request made with the bot's token waits here for
its share of Discord's global rate limit (50 a second for a bot, across all its processes),
most urgent first. Interaction endpoints (answers to clicks and commands, their follow-ups)
are not bound by that limit and pass at once.

A token bucket per process. Each process takes the share of the total its shards are of
SHARD_COUNT (`share`), so the processes of one deployment together stay within it without
talking to each other; DISCORD_GLOBAL_RATE raises the total for a bot Discord has given more.
The bucket holds a tenth of a second's share and refills at the rest, so no one-second window
ever sees more than the share, even when a burst follows a quiet spell.

Callers say how urgent a request is with `priority(...)` (a context variable: the presenter's
worker sets it around its calls). What a game owes first (end screens, closings), then
anything untagged, then turn pings, then table edits. Within one priority the budget goes
round the servers whose requests wait (`serving(...)`: the presenter's worker names its game's
server), each server's in the order they came, so one busy server cannot starve quiet ones:
a quiet server's edit waits one turn of the servers, not behind all of the busy one's. A
table edit waits for its turn before it is drawn (`turn`), so what it sends is the table as
it is then: a change made while it waited is in the same edit, never queued behind it.

discord.py's own handling of per-route buckets and 429s stays behind this, as the last line.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextvars import ContextVar
from enum import IntEnum
from typing import Any

from discord.http import HTTPClient, Route

from bot import metrics

log = logging.getLogger(__name__)
GLOBAL_RATE = 50.0  # requests a second: Discord's global rate limit for a bot
BURST = 0.1  # of a second's share: what the bucket holds
EPSILON = 1e-6  # a token refilled to within rounding of whole is whole


class Priority(IntEnum):
    """Lower goes first."""

    OWED = 0  # what a game owes its channel: end screen, closing, notices
    OTHER = 1  # untagged: commands sync, fetches
    PING = 2  # the turn ping
    TABLE = 3  # a table edit


PRIORITY: ContextVar[Priority] = ContextVar("rest_priority", default=Priority.OTHER)
# The server a request is for: its turn among the servers waiting (None: untagged, one more).
SERVER: ContextVar[int | None] = ContextVar("rest_server", default=None)
# A token taken ahead by `turn`, for the next request made in its block.
_PREPAID: ContextVar[list[bool] | None] = ContextVar("rest_prepaid", default=None)


@contextlib.contextmanager
def priority(level: Priority) -> Iterator[None]:
    """The requests made inside wait at `level`."""
    token = PRIORITY.set(level)
    try:
        yield
    finally:
        PRIORITY.reset(token)


@contextlib.contextmanager
def serving(server: int | None) -> Iterator[None]:
    """The requests made inside take the turns of `server` (a guild id)."""
    token = SERVER.set(server)
    try:
        yield
    finally:
        SERVER.reset(token)


def share(total: float, owned: int, count: int) -> float:
    """This process's requests a second: its shards' part of the bot's total."""
    return total * owned / count


def exempt(route: Route, application_id: int | None) -> bool:
    """Interaction endpoints: the callback, and the interaction's webhook (the application's
    id with the interaction's token). They are not bound by the global rate limit."""
    if route.path.startswith("/interactions/"):
        return True
    return (
        route.webhook_token is not None
        and application_id is not None
        and str(route.webhook_id) == str(application_id)
    )


class Governor:
    """The token bucket and the requests waiting for it: by priority, then round the servers,
    then age."""

    def __init__(self, rate: float) -> None:
        if rate <= 0:
            raise ValueError("the REST budget must be more than 0 requests a second")
        self.limit = rate  # at most this many in any one second
        self.capacity = max(1.0, rate * BURST)
        self.rate = max(rate - self.capacity, rate / 2)
        self.tokens = self.capacity
        self.updated: float | None = None  # loop time of the last refill
        # Per priority, each server's waiting requests; a dict keeps the servers' turn order:
        # the one served goes to the back.
        self.queues: dict[Priority, dict[int | None, deque[asyncio.Future[None]]]] = {
            level: {} for level in Priority
        }
        self.counts = dict.fromkeys(Priority, 0)  # waiting, per priority
        self._wake: asyncio.TimerHandle | None = None
        metrics.BUDGET.set(rate)

    # ----- the bucket

    def _now(self) -> float:
        return asyncio.get_running_loop().time()

    def _refill(self) -> None:
        now = self._now()
        if self.updated is not None:
            self.tokens = min(self.capacity, self.tokens + (now - self.updated) * self.rate)
        self.updated = now

    async def acquire(self, level: Priority) -> None:
        """Wait for a token: at once if nobody more urgent or older waits and one is left."""
        self._refill()
        if not self.waiting() and self.tokens >= 1 - EPSILON:
            self.tokens -= 1
            metrics.WAITED.labels(level.name.lower()).observe(0.0)
            return
        loop = asyncio.get_running_loop()
        future: asyncio.Future[None] = loop.create_future()
        server = SERVER.get()
        self.queues[level].setdefault(server, deque()).append(future)
        self._count(level, 1)
        started = loop.time()
        self._schedule()
        try:
            await future
        except asyncio.CancelledError:
            if future.cancelled():  # still queued: leave the queue
                self._drop(level, server, future)
            else:
                self.tokens += 1  # granted as it was cancelled: give it back
            raise
        finally:
            self._count(level, -1)
            metrics.WAITED.labels(level.name.lower()).observe(loop.time() - started)

    def waiting(self) -> bool:
        return any(self.queues.values())

    def _drop(self, level: Priority, server: int | None, future: asyncio.Future[None]) -> None:
        queue = self.queues[level].get(server)
        if queue is not None and future in queue:
            queue.remove(future)
            if not queue:
                del self.queues[level][server]

    def _next(self) -> asyncio.Future[None] | None:
        """The most urgent priority's next server in turn: its oldest request."""
        for level in Priority:
            servers = self.queues[level]
            if servers:
                server = next(iter(servers))
                queue = servers.pop(server)
                future = queue.popleft()
                if queue:
                    servers[server] = queue  # to the back of the turn
                return future
        return None

    def _count(self, level: Priority, change: int) -> None:
        self.counts[level] += change
        metrics.WAITING.labels(level.name.lower()).set(self.counts[level])

    def _schedule(self) -> None:
        if self._wake is not None or not self.waiting():
            return
        wait = max(1e-6, (1 - self.tokens) / self.rate)  # never a wait the clock cannot show
        self._wake = asyncio.get_running_loop().call_later(wait, self._grant)

    def _grant(self) -> None:
        if self._wake is not None:
            self._wake.cancel()
            self._wake = None
        self._refill()
        while self.tokens >= 1 - EPSILON and (future := self._next()) is not None:
            if future.done():  # cancelled while it waited, its task not told yet
                continue
            self.tokens -= 1
            future.set_result(None)
        self._schedule()

    # ----- in front of discord.py

    def wrap(
        self, request: Callable[..., Awaitable[Any]], application_id: Callable[[], int | None]
    ) -> Callable[..., Awaitable[Any]]:
        """`HTTPClient.request`, with every bot-token route waiting for the budget first."""

        async def governed(route: Route, **kwargs: Any) -> Any:
            if not exempt(route, application_id()):
                prepaid = _PREPAID.get()
                if prepaid is not None and prepaid[0]:
                    prepaid[0] = False  # the token `turn` took for this block
                else:
                    await self.acquire(PRIORITY.get())
            return await request(route, **kwargs)

        return governed

    @contextlib.asynccontextmanager
    async def reserve(self, level: Priority) -> AsyncIterator[None]:
        """Wait for a token first; the block's first request spends it (or it is given back)."""
        await self.acquire(level)
        holder = [True]
        token = _PREPAID.set(holder)
        try:
            with priority(level):
                yield
        finally:
            _PREPAID.reset(token)
            if holder[0]:  # not spent: the next one waiting may have it
                self.tokens = min(self.capacity, self.tokens + 1)
                if self.waiting():
                    asyncio.get_running_loop().call_soon(self._grant)


def install(
    http: HTTPClient, rate: float, application_id: Callable[[], int | None] = lambda: None
) -> Governor:
    """Put a governor in front of `http.request` (on the instance: discord.py is unchanged)."""
    governor = Governor(rate)
    http.request = governor.wrap(http.request, application_id)  # type: ignore[method-assign,assignment]
    http.governor = governor  # type: ignore[attr-defined]
    return governor


def of(client: object) -> Governor | None:
    """The governor in front of `client`'s HTTP requests, if it has one (SimCord's and the
    benches' stand-ins may not)."""
    governor = getattr(getattr(client, "http", None), "governor", None)
    return governor if isinstance(governor, Governor) else None


@contextlib.asynccontextmanager
async def turn(
    client: object, level: Priority, table: int | None = None, *, exempt: bool = False
) -> AsyncIterator[None]:
    """The block's requests go at `level`; with a governor, the first waits before the block
    starts, so what the block draws and sends is current when it goes (`exempt`: it goes
    through an interaction endpoint, so it waits for nothing). `table`: a game whose table
    this block shows (its staleness is measured)."""
    governor = of(client)
    block = governor.reserve(level) if governor is not None and not exempt else _tagged(level)
    async with block:
        since = metrics.TABLES.drawing(table) if table is not None else None
        try:
            yield
        except BaseException:
            if table is not None and since is not None:
                metrics.TABLES.since.setdefault(table, since)  # still not shown
            raise
        if table is not None:
            metrics.TABLES.shown(table, since)


@contextlib.asynccontextmanager
async def _tagged(level: Priority) -> AsyncIterator[None]:
    with priority(level):
        yield
