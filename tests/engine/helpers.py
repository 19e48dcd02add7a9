"""Shortcuts the tests share about the engine's values; the bot itself never needs them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from bot.engine import View


def my_turn(v: View) -> bool:
    """Whether the view's seat is the one to act."""
    return v.turn == v.seat


def record_moves(record: Mapping[str, Any]) -> list[Any]:
    """Every move of a finished game's record, playoffs' after the game's: its move log."""
    return [*record["moves"], *(m for p in record["playoffs"] for m in p["moves"])]
