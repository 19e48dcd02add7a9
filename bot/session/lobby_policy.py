"""What a server's settings let a host ask for, decided here and not at the Discord edge: a
new lobby's AI seats and ruleset, a rematch's seats, a bot added later, a tournament's AI
entrants. Each answer is the thing allowed or a `Refusal` the edge only renders."""

from __future__ import annotations

import enum
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.domain.seats import is_ai


class Refusal(enum.Enum):
    """Why a request is refused; the value is its catalog key."""

    NO_AI = "reply.no_ai"  # the server's settings allow no AI seats
    TOO_MANY_BOTS = "reply.too_many_bots"  # at least one seat is a person's
    PRESET_FIXED = "reply.preset_fixed"  # the server plays its own preset only


@dataclass(frozen=True)
class NewLobby:
    """A lobby /steal new may open: the preset asked for (None: the server's) and its AI
    seats (their difficulties)."""

    preset: str | None
    bots: list[str]


def new_lobby(
    values: Mapping[str, Any], preset: str | None, max_players: int, bots: int, level: str
) -> NewLobby | Refusal:
    """/steal new: the server's settings (`values`) decide what the host may ask for."""
    if bots and not values["ai_allowed"]:
        return Refusal.NO_AI
    if bots >= max_players:
        return Refusal.TOO_MANY_BOTS
    if preset not in (None, values["preset"]) and not values["host_picks_preset"]:
        return Refusal.PRESET_FIXED
    return NewLobby(preset, [level] * bots)


def rematch_seats(values: Mapping[str, Any], seats: Sequence[str]) -> list[str]:
    """A rematch's seats: the finished game's, without its AI seats if AI is not allowed now."""
    if values["ai_allowed"]:
        return list(seats)
    return [s for s in seats if not is_ai(s)]


def ai_refused(allowed: bool) -> Refusal | None:
    """Add bot in a lobby, AI entrants in a tournament: refused where AI is not allowed."""
    return None if allowed else Refusal.NO_AI
