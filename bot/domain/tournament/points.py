"""A tournament's arithmetic: the points of a place, the tables a field makes and how many
rounds it needs."""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

MIN_TABLE, MAX_TABLE = 2, 4


@dataclass(frozen=True)
class TableResult:
    """One finished tournament table. A player who forfeited or was dropped mid-game has the
    last place (the places say so)."""

    entrants: tuple[str, ...]  # in seat order
    places: tuple[int, ...]  # 0 = first, as bot.session.results.standing gives; ties share
    cards: tuple[int, ...]  # cards taken by each, for tiebreaks

    def __post_init__(self) -> None:
        if not len(self.entrants) == len(self.places) == len(self.cards):
            raise ValueError("a table result has one place and one card count per entrant")
        if len(set(self.entrants)) != len(self.entrants):
            raise ValueError("an entrant sits at a table once")


# Points by place, 0 = first. Every table gives out 3 points a player on average (so a table
# of 2 is worth as much as a table of 4) and a bye gives that average.
POINTS: dict[int, tuple[int, ...]] = {2: (6, 0), 3: (6, 3, 0), 4: (6, 4, 2, 0)}
BYE_POINTS: int = 3  # the points of a second of three: a table's average


def points(place: int, players: int) -> int:
    """The points for finishing `place` (0 = first) alone at a table of `players`."""
    if players not in POINTS:
        raise ValueError(f"tables seat {MIN_TABLE} to {MAX_TABLE} players")
    if not 0 <= place < players:
        raise ValueError(f"a table of {players} has places 0 to {players - 1}")
    return POINTS[players][place]


def table_points(result: TableResult) -> tuple[Fraction, ...]:
    """Each entrant's points at one table. Players who share a place share the points of the
    places they cover: two tied first at a table of 3 get (6 + 3) / 2 each."""
    n = len(result.places)
    out = []
    for place in result.places:
        ahead = sum(1 for p in result.places if p < place)
        tied = sum(1 for p in result.places if p == place)
        covered = range(ahead, ahead + tied)
        out.append(Fraction(sum(points(i, n) for i in covered), tied))
    return tuple(out)


def table_sizes(n: int, size: int) -> tuple[int, ...]:
    """`n` entrants into as few tables of at most `size` as can be, as even as possible
    (largest first), none below 2. With tables of 2 and an odd `n` one entrant is left over
    (the sizes add up to n - 1): that one has a bye; so has a lone entrant (n = 1, no table)."""
    if not MIN_TABLE <= size <= MAX_TABLE:
        raise ValueError(f"tables seat {MIN_TABLE} to {MAX_TABLE} players")
    if n < 0:
        raise ValueError("no negative counts")
    if size == 2:
        return (2,) * (n // 2)
    if n < 2:
        return ()
    count = -(-n // size)
    small, extra = divmod(n, count)
    return (small + 1,) * extra + (small,) * (count - extra)


def _log_ceil(n: int, base: int) -> int:
    """The least r with base ** r >= n."""
    r, reach = 0, 1
    while reach < n:
        r, reach = r + 1, reach * base
    return r


def swiss_rounds_advised(n: int, size: int) -> int:
    """Rounds for a Swiss tournament of `n` at tables of `size`: enough for one player to
    win every table on the way to the top (log base size of n, rounded up), plus one more
    at tables of 3 or 4 (a win there is only a share of the table); at least 1."""
    if n < 2:
        return 1
    base = _log_ceil(n, size)
    return max(1, base + (1 if size > 2 and n > size else 0))


def knockout_rounds(n: int, size: int) -> int:
    """Rounds of a knockout of `n` at tables of `size` if nobody drops out: each table sends
    its winner on, and a bye goes on too."""
    rounds = 0
    while n > 1:
        tables = table_sizes(n, size)
        n = len(tables) + (n - sum(tables))
        rounds += 1
    return rounds
