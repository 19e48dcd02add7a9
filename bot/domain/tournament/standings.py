"""The standings: points, then opponents' points, then cards taken; and who is still in a
knockout."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass
from fractions import Fraction

from .points import BYE_POINTS, TableResult, table_points
from .records import Entrant


@dataclass(frozen=True)
class Row:
    """One line of the standings."""

    rank: int  # 1-based; equal keys (points, opponents, cards) share a rank
    entrant: str
    points: float
    opponents: float  # tiebreak 1: per table played, the mean points of its other players; summed
    cards: int  # tiebreak 2: cards taken over all rounds
    played: int
    byes: int
    dropped: bool


@dataclass
class Tally:
    """One entrant's totals so far (seating reads them too)."""

    points: Fraction = Fraction(0)
    cards: int = 0
    played: int = 0
    byes: int = 0


def tallies(
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    bye_points: int,
) -> dict[str, Tally]:
    """Every entrant's totals: their tables' points and cards, and their byes."""
    tally = {e.id: Tally() for e in entrants}
    for played in rounds:
        for table in played:
            for who, got, cards in zip(
                table.entrants, table_points(table), table.cards, strict=True
            ):
                t = tally.setdefault(who, Tally())
                t.points += got
                t.cards += cards
                t.played += 1
    for sat_out in byes:
        for who in sat_out:
            t = tally.setdefault(who, Tally())
            t.points += bye_points
            t.byes += 1
    return tally


def _opponents(
    tally: dict[str, Tally], rounds: Sequence[Sequence[TableResult]]
) -> dict[str, Fraction]:
    out = {who: Fraction(0) for who in tally}
    for played in rounds:
        for table in played:
            total = sum((tally[w].points for w in table.entrants), Fraction(0))
            others = len(table.entrants) - 1
            for who in table.entrants:
                out[who] += (total - tally[who].points) / others
    return out


def seeding_order(entrants: Sequence[Entrant]) -> dict[str, tuple[float, int]]:
    """Seeding order: the higher rating first, then the earlier sign-up."""
    return {e.id: (-e.rating, i) for i, e in enumerate(entrants)}


def standings(
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    dropped: Collection[str],
) -> list[Row]:
    """Every entrant, best first: by points, then opponents' points, then cards taken; rows
    equal on all three share a rank (and are listed by seeding: rating, then sign-up). Dropped
    entrants keep their place in the table."""
    tally = tallies(entrants, rounds, byes, BYE_POINTS)
    opp = _opponents(tally, rounds)
    seeding = seeding_order(entrants)
    last = len(entrants)

    def key(who: str) -> tuple[Fraction, Fraction, int]:
        return (-tally[who].points, -opp[who], -tally[who].cards)

    order = sorted(tally, key=lambda w: (key(w), seeding.get(w, (0.0, last)), w))
    rows: list[Row] = []
    for i, who in enumerate(order):
        rank = rows[-1].rank if rows and key(order[i - 1]) == key(who) else i + 1
        t = tally[who]
        rows.append(
            Row(
                rank=rank,
                entrant=who,
                points=float(t.points),
                opponents=float(opp[who]),
                cards=t.cards,
                played=t.played,
                byes=t.byes,
                dropped=who in dropped,
            )
        )
    return rows


def advancing(
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    dropped: Collection[str],
) -> list[str]:
    """Who is still in a knockout: everyone before round 1; then each table's winner of the
    latest round (a tie for first broken by cards taken there, then by seeding) and its byes.
    A dropped winner is replaced by the next best at the table still in."""
    if not rounds:
        return [e.id for e in entrants if e.id not in dropped]
    seeding = seeding_order(entrants)
    last = len(entrants)
    out: list[str] = []
    for table in rounds[-1]:
        still = [
            (place, -cards, seeding.get(who, (0.0, last)), who)
            for who, place, cards in zip(table.entrants, table.places, table.cards, strict=True)
            if who not in dropped
        ]
        if still:
            out.append(min(still)[3])
    sat_out = byes[len(rounds) - 1] if len(byes) >= len(rounds) else ()
    out.extend(w for w in sat_out if w not in dropped and w not in out)
    return out
