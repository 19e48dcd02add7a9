"""The end of a tournament: whether it is over, and its champion."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from .points import TableResult
from .records import Entrant, Format
from .standings import advancing, standings


def is_over(
    fmt: Format,
    planned_rounds: int,
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    dropped: Collection[str],
) -> bool:
    """Swiss: the planned rounds are played, or fewer than two entrants are left. Knockout:
    one entrant (or nobody) is left."""
    if fmt == "knockout":
        return len(advancing(entrants, rounds, byes, dropped)) <= 1
    active = sum(1 for e in entrants if e.id not in dropped)
    return len(rounds) >= planned_rounds or active < 2


def champion(
    fmt: Format,
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    dropped: Collection[str],
    planned_rounds: int | None = None,
) -> str | None:
    """The winner once the tournament is over (None before, or if nobody is left). Knockout:
    the last one standing. Swiss: the top of the standings who has not dropped out (the
    first row on a shared rank 1: seeding decides). Swiss needs `planned_rounds` to know it
    is over; without it, the standings' top after any round played is returned."""
    if fmt == "knockout":
        left = advancing(entrants, rounds, byes, dropped)
        return left[0] if len(left) == 1 else None
    if not rounds and not byes:
        active = [e.id for e in entrants if e.id not in dropped]
        return active[0] if len(active) == 1 else None
    if planned_rounds is not None and not is_over(
        fmt, planned_rounds, entrants, rounds, byes, dropped
    ):
        return None
    rows = standings(entrants, rounds, byes, dropped)
    staying = [r for r in rows if not r.dropped]
    return staying[0].entrant if staying else None
