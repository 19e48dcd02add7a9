"""AI entrants: "bot:<level>:<n>", the `n`th entrant of a difficulty (a member is their id)."""

from __future__ import annotations

import re

from bot.ai import DIFFICULTIES

_AI = re.compile(rf"bot:({'|'.join(DIFFICULTIES)}):([1-9][0-9]*)")


def ai_entrant(level: str, n: int) -> str:
    """The id of the `n`th AI entrant (n = 1, 2, ...) of difficulty `level`."""
    if level not in DIFFICULTIES:
        raise ValueError(f"unknown difficulty {level!r}; choose one of {', '.join(DIFFICULTIES)}")
    if n < 1:
        raise ValueError("AI entrants are numbered from 1")
    return f"bot:{level}:{n}"


def is_ai_entrant(entrant: str) -> bool:
    return _AI.fullmatch(entrant) is not None


def ai_level(entrant: str) -> str:
    """The difficulty of an AI entrant."""
    m = _AI.fullmatch(entrant)
    if m is None:
        raise ValueError(f"{entrant!r} is not an AI entrant")
    return m.group(1)
