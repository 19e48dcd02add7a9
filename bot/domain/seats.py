"""Who sits in a seat: a Discord member (their user id) or an AI opponent ("ai:medium:2").

AI seat ids can never be user ids (those are digits only), so one string says both who plays
and how they are shown. Pure: used by the session layer, storage and rendering alike.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from bot.ai import DIFFICULTIES

_AI = re.compile(rf"ai:({'|'.join(DIFFICULTIES)}):([1-9])")


def is_ai(seat_id: str) -> bool:
    return _AI.fullmatch(seat_id) is not None


def difficulty(seat_id: str) -> str:
    m = _AI.fullmatch(seat_id)
    if m is None:
        raise ValueError(f"{seat_id!r} is not an AI seat")
    return m.group(1)


def new_ai(level: str, seats: Iterable[str]) -> str:
    """A fresh id for another AI of this difficulty at a table seated `seats`."""
    if level not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {level!r}; choose one of {', '.join(DIFFICULTIES)}")
    taken = {int(m.group(2)) for s in seats if (m := _AI.fullmatch(s)) and m.group(1) == level}
    return f"ai:{level}:{min(set(range(1, 10)) - taken)}"


def humans(seats: Iterable[str]) -> list[str]:
    return [s for s in seats if not is_ai(s)]
