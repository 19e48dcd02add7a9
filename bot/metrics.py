"""The bot's Prometheus metrics: defined once here, recorded where things happen, served by
bot/health.py on METRICS_PORT (docs/operations.md#metrics-and-health).

A low layer of its own (prometheus-client only), so the REST governor, the composition root and
the health server all record into the same registry. `REGISTRY` is the bot's own, not
prometheus-client's global one: a test reads it without another library's figures in it.
"""

from __future__ import annotations

import asyncio
import re
import time
from collections.abc import Callable
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram

REGISTRY = CollectorRegistry(auto_describe=True)
FAST = (0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0)  # seconds: clicks, renders, AI
SLOW = (0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 20.0, 30.0, 60.0, 120.0, 300.0)  # waits, staleness

LIVE_GAMES = Gauge("steal_live_games", "Games being played, per shard", ["shard"],
                   registry=REGISTRY)  # fmt: skip
LOBBIES = Gauge("steal_lobbies", "Open lobbies, per shard", ["shard"], registry=REGISTRY)
MOVES = Counter("steal_moves", "Moves played (by a player, or for a seat: AI, timer, away)",
                ["by"], registry=REGISTRY)  # fmt: skip
CLICK = Histogram("steal_click_seconds", "From a click or command reaching the bot to its answer",
                  buckets=FAST, registry=REGISTRY)  # fmt: skip
REQUESTS = Counter(
    "steal_discord_requests",
    "Discord REST requests made: kind global (bound by the global rate limit) or interaction",
    ["kind", "route"],
    registry=REGISTRY,
)
RATE_LIMITED = Counter("steal_discord_429", "429 answers from Discord, by route and scope",
                       ["route", "scope"], registry=REGISTRY)  # fmt: skip
INVALID = Counter(
    "steal_discord_invalid_requests",
    "Requests Discord counts against the invalid request limit (401, 403, 429 but shared)",
    ["status"],
    registry=REGISTRY,
)
WAITING = Gauge("steal_rest_waiting", "Requests waiting for the REST budget, by priority",
                ["priority"], registry=REGISTRY)  # fmt: skip
WAITED = Histogram("steal_rest_wait_seconds", "How long a request waited for the REST budget",
                   ["priority"], buckets=SLOW, registry=REGISTRY)  # fmt: skip
BUDGET = Gauge("steal_rest_budget_per_second", "This process's share of the global rate limit",
               registry=REGISTRY)  # fmt: skip
STALENESS = Histogram(
    "steal_table_staleness_seconds",
    "From a game's change to its table message showing it",
    buckets=SLOW,
    registry=REGISTRY,
)
RENDER = Histogram("steal_render_seconds", "Drawing a table message, its picture included",
                   buckets=FAST, registry=REGISTRY)  # fmt: skip
AI = Histogram("steal_ai_seconds", "An AI seat working out its move", buckets=FAST,
               registry=REGISTRY)  # fmt: skip
DB_ERRORS = Counter("steal_db_errors", "Database statements that failed", ["error"],
                    registry=REGISTRY)  # fmt: skip
DB_RETRIES = Counter("steal_db_retries", "Transactions worked out again and retried",
                     registry=REGISTRY)  # fmt: skip

# A snowflake or a token in a URL path: routes are counted by their shape, not per message.
_ID = re.compile(r"/\d{15,21}(?=/|$)")
_TOKEN = re.compile(r"^(/(?:webhooks|interactions)/\{id\})/[^/]+")


def route_of(method: str, path: str) -> str:
    """`PATCH /channels/{id}/messages/{id}`: the route's shape, ids and tokens left out (a
    token is never a label)."""
    path = path.split("?", 1)[0]
    if path.startswith("/api/v"):
        path = "/" + path.split("/", 3)[3] if path.count("/") >= 3 else path
    path = _ID.sub("/{id}", path)
    path = _TOKEN.sub(r"\1/{token}", path)
    return f"{method} {path}"


class Staleness:
    """Per game, when its table first changed since it was last shown. `changed` at a move;
    `drawing` as the table is taken to be drawn (what changes after that is for the next
    edit); `shown` once that edit landed: the change's age is observed."""

    def __init__(self, clock: Callable[[], float] | None = None) -> None:
        self.clock = clock or (lambda: asyncio.get_running_loop().time())
        self.since: dict[int, float] = {}
        self.listeners: list[Callable[[int, float], None]] = []  # the bench's own figures

    def changed(self, game_id: int) -> None:
        self.since.setdefault(game_id, self.clock())

    def drawing(self, game_id: int) -> float | None:
        return self.since.pop(game_id, None)

    def shown(self, game_id: int, since: float | None) -> None:
        if since is None:
            return
        age = self.clock() - since
        STALENESS.observe(age)
        for listener in self.listeners:
            listener(game_id, age)

    def forget(self, game_id: int) -> None:
        self.since.pop(game_id, None)


TABLES = Staleness()  # every table of this process


class Instruments(Protocol):
    """What the parts report as they work, for the figures above. The composition root
    (bot/app.py) hands one to each part that reports; the parts know nothing of Prometheus."""

    def on_click(self, task: asyncio.Task[Any]) -> None:
        """A click or command is being answered by `task` (its latency: until it is done)."""

    def on_render(self, seconds: float) -> None:
        """A table message was drawn, its picture included."""

    def on_think(self, seconds: float) -> None:
        """An AI seat worked out its move."""

    def on_retry(self) -> None:
        """A finish whose ratings changed meanwhile is worked out again."""


class Quiet:
    """Instruments that record nothing: the default of every part."""

    def on_click(self, task: asyncio.Task[Any]) -> None:
        pass

    def on_render(self, seconds: float) -> None:
        pass

    def on_think(self, seconds: float) -> None:
        pass

    def on_retry(self) -> None:
        pass


class Recorded:
    """Instruments that record into this module's metrics (the bot's)."""

    def on_click(self, task: asyncio.Task[Any]) -> None:
        started = time.perf_counter()
        task.add_done_callback(lambda _: CLICK.observe(time.perf_counter() - started))

    def on_render(self, seconds: float) -> None:
        RENDER.observe(seconds)

    def on_think(self, seconds: float) -> None:
        AI.observe(seconds)

    def on_retry(self) -> None:
        DB_RETRIES.inc()


QUIET = Quiet()
