"""What the session's parts share: made once by Sessions and handed to each part, so a part's
constructor takes only what is its own."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.storage import Storage

from . import events as ev
from .anchors import Anchors
from .live import Live
from .timers import TurnTimers


@dataclass(frozen=True)
class Parts:
    live: Live  # the registry of lobbies and tables (Sessions itself)
    storage: Storage
    timers: TurnTimers
    notify: ev.Listener  # the games' events, as Sessions passes them on
    clock: Callable[[], float]
    seed_source: Callable[[], int]
    # Whether a guild's games are this process's (bot/shards.py); None: no server (shard 0).
    owns: Callable[[int | None], bool]
    retry_seconds: float  # the first wait before a background job storage failed is retried
    anchors: Anchors  # games shown through interaction tokens alone: whether one lives
