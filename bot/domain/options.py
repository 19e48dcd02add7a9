"""The bot-wide defaults, in one place: built once (from the environment by bot.config, or by
a test or bench) and passed down to the session layer, the presenter and the servers' settings,
which start from them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True, kw_only=True)
class Options:
    turn_seconds: float | None = 120  # TURN_SECONDS: the turn timer's default; None: untimed
    lobby_seconds: float | None = 600  # how long an open lobby waits; None: for ever
    away_delay: float = 1.0  # how soon the bot plays for an away or forfeited seat
    bot_delay: float = 1.5  # AI_MOVE_SECONDS: how long an AI opponent waits before it plays
    seed_source: Callable[[], int] | None = None  # tests pass one, to deal the same cards
    cooldowns: bool = True  # per-member command cooldowns (adapter.interactions.per_member)
    edit_gap: float = 1.0  # seconds between a game's table edits (adapter.presenter)


DEFAULTS = Options()
