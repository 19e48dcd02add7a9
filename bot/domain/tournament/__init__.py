"""Tournaments: who sits at which table each round, the points, the standings and the champion.

Pure: no I/O, no asyncio, no Discord. Every function is deterministic from its arguments (the
`seed` breaks what the rules leave equal). The rules in words are in docs/tournaments.md;
keep the two in step.

An entrant is a member id (digits, as str) or an AI entrant "bot:<level>:<n>" (`ai_entrant`).
`rounds` is every finished round so far, oldest first, each the results of all its tables;
`byes[i]` are the entrants who sat round i + 1 out. `dropped` entrants left (or were removed):
they keep their points and are never seated again.
"""

from __future__ import annotations

import random
import re
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from fractions import Fraction
from typing import Literal

from bot.ai import DIFFICULTIES

Format = Literal["swiss", "knockout"]
FORMATS: tuple[Format, ...] = ("swiss", "knockout")
Status = Literal["signup", "running", "finished", "cancelled"]
MIN_TABLE, MAX_TABLE = 2, 4

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


@dataclass(frozen=True)
class Entrant:
    id: str
    rating: float = 0.0  # seeding strength (openskill ordinal), higher is stronger


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


@dataclass(frozen=True)
class RoundPlan:
    number: int  # 1-based
    tables: tuple[tuple[str, ...], ...]  # each 2..size entrants
    byes: tuple[str, ...]  # entrants sitting this round out (get BYE_POINTS in Swiss)
    left: tuple[str, ...] = ()  # seated the round before, dropped out since (as shown)
    absent: tuple[str, ...] = ()  # round 1 with check-in: signed up, did not check in


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


@dataclass(frozen=True)
class TournamentInfo:
    """A tournament as the screens show it (storage reads it, the ui renders it)."""

    id: int
    guild_id: int
    channel_id: int
    name: str  # user-supplied: escape when shown
    host_id: int
    format: Format
    table_size: int  # 2..4
    rounds: int  # planned (swiss) or knockout_rounds
    preset: str
    turn_seconds: int | None
    signup_ends: datetime | None
    starts_at: datetime | None
    check_in: bool
    counted: bool  # whether its games count for the leaderboard
    status: Status
    round: int  # current round, 0 before the first
    entrants: tuple[Entrant, ...]
    checked: int = 0  # with check-in: how many have checked in (AI entrants count)
    check_in_opens: datetime | None = None  # with check-in: None once it is open
    paused: str | None = None  # its round waits for a manager: why ("gone", "denied")


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


# --- standings ---------------------------------------------------------------------------


@dataclass
class _Tally:
    points: Fraction = Fraction(0)
    cards: int = 0
    played: int = 0
    byes: int = 0


def _tallies(
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    bye_points: int,
) -> dict[str, _Tally]:
    tally = {e.id: _Tally() for e in entrants}
    for played in rounds:
        for table in played:
            for who, got, cards in zip(
                table.entrants, table_points(table), table.cards, strict=True
            ):
                t = tally.setdefault(who, _Tally())
                t.points += got
                t.cards += cards
                t.played += 1
    for sat_out in byes:
        for who in sat_out:
            t = tally.setdefault(who, _Tally())
            t.points += bye_points
            t.byes += 1
    return tally


def _opponents(
    tally: dict[str, _Tally], rounds: Sequence[Sequence[TableResult]]
) -> dict[str, Fraction]:
    out = {who: Fraction(0) for who in tally}
    for played in rounds:
        for table in played:
            total = sum((tally[w].points for w in table.entrants), Fraction(0))
            others = len(table.entrants) - 1
            for who in table.entrants:
                out[who] += (total - tally[who].points) / others
    return out


def _signup_order(entrants: Sequence[Entrant]) -> dict[str, tuple[float, int]]:
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
    tally = _tallies(entrants, rounds, byes, BYE_POINTS)
    opp = _opponents(tally, rounds)
    seeding = _signup_order(entrants)
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


# --- seating -------------------------------------------------------------------------------


def _met(rounds: Sequence[Sequence[TableResult]]) -> dict[str, set[str]]:
    met: dict[str, set[str]] = {}
    for played in rounds:
        for table in played:
            for who in table.entrants:
                met.setdefault(who, set()).update(w for w in table.entrants if w != who)
    return met


def repeat_pairs(tables: Iterable[Sequence[str]], rounds: Sequence[Sequence[TableResult]]) -> int:
    """How many pairs of tablemates in `tables` have sat at a table together before."""
    met = _met(rounds)
    return sum(_conflicts(t, met) for t in tables)


def _conflicts(table: Sequence[str], met: dict[str, set[str]]) -> int:
    return sum(1 for i, a in enumerate(table) for b in table[i + 1 :] if b in met.get(a, ()))


def _rng(seed: int, number: int, what: str) -> random.Random:
    return random.Random(f"{what}:{seed}:{number}")


def _pick_byes(
    pool: Sequence[str], count: int, bye_count: dict[str, int], rank: dict[str, int]
) -> list[str]:
    """`count` byes: among those with the fewest byes so far, the lowest ranked."""
    if count <= 0:
        return []
    order = sorted(pool, key=lambda w: (bye_count.get(w, 0), -rank[w]))
    return order[:count]


def _greedy(
    order: Sequence[str], sizes: Sequence[int], met: dict[str, set[str]]
) -> list[list[str]]:
    """Tables filled in order: each takes the first unseated entrant, then the next ones
    down the order who met nobody at it yet (or, failing that, met the fewest)."""
    left = list(order)
    tables: list[list[str]] = []
    for size in sizes:
        table = [left.pop(0)]
        while len(table) < size:
            best, best_cost = 0, None
            for i, who in enumerate(left):
                seen = met.get(who, ())
                cost = sum(1 for t in table if t in seen)
                if best_cost is None or cost < best_cost:
                    best, best_cost = i, cost
                    if cost == 0:
                        break
            table.append(left.pop(best))
        tables.append(table)
    return tables


_NONE: frozenset[str] = frozenset()


def _improve(tables: list[list[str]], met: dict[str, set[str]], passes: int = 4) -> int:
    """Swap entrants between tables while a swap cuts the repeat pairs; nearer tables (in
    standing) are tried first. Changes `tables`; returns the repeats left."""

    def counts(table: list[str]) -> list[int]:  # each member's tablemates met before
        return [sum(1 for x in table if x in met.get(w, _NONE)) for w in table]

    own = [counts(t) for t in tables]
    cost = [sum(c) // 2 for c in own]
    for _ in range(passes):
        improved = False
        for ti in range(len(tables)):
            if cost[ti] == 0:
                continue
            here = tables[ti]
            others = sorted(range(len(tables)), key=lambda u: (abs(u - ti), u))
            for ai in range(len(here)):
                a = here[ai]
                a_here = own[ti][ai]
                if a_here == 0:
                    continue
                seen_a = met.get(a, _NONE)
                done = False
                for ui in others:
                    if ui == ti:
                        continue
                    there = tables[ui]
                    a_in_there = sum(1 for x in there if x in seen_a)
                    for bi, b in enumerate(there):
                        seen_b = met.get(b, _NONE)
                        a_there = a_in_there - (b in seen_a)
                        b_here = sum(1 for x in here if x != a and x in seen_b)
                        if a_there + b_here < a_here + own[ui][bi]:
                            here[ai], there[bi] = b, a
                            own[ti], own[ui] = counts(here), counts(there)
                            cost[ti], cost[ui] = sum(own[ti]) // 2, sum(own[ui]) // 2
                            improved = done = True
                            break
                    if done:
                        break
                if cost[ti] == 0:
                    break
        if not improved or sum(cost) == 0:
            break
    return sum(cost)


def _plain(order: Sequence[str], sizes: Sequence[int]) -> list[list[str]]:
    tables, at = [], 0
    for size in sizes:
        tables.append(list(order[at : at + size]))
        at += size
    return tables


RESTARTS = 6  # extra greedy tries with a shaken order when repeats are left (at least)
WORK = 2048  # ... and more for small fields: about WORK / entrants tries, at most MAX_RESTARTS
MAX_RESTARTS = 64
# Tries in a row that found nothing better: the repeats left look unavoidable, so stop (in
# fields over STALL_FROM entrants, where a try costs more; small ones use all their tries).
STALL, STALL_FROM = 12, 32


def restarts(n: int) -> int:
    """How many shaken tries a round of `n` entrants gets when repeats are left: many for a
    small field (each try is quick there, and repeats are likelier), a few for a big one."""
    return max(RESTARTS, min(MAX_RESTARTS, WORK // max(n, 1)))


def seat_swiss(
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    dropped: Collection[str],
    size: int,
    seed: int,
) -> RoundPlan:
    """The next Swiss round. Entrants in order of the standings (points, then rating; the
    seed breaks what is left) fill the tables from the top, each table taking the next
    entrants who have not sat with anyone at it yet; then entrants are swapped between
    tables (nearest first) while that cuts the pairs who meet again, and if some still do, the
    same from orders shaken a little (`restarts`), keeping the seating with the fewest.
    Byes only when the count cannot make tables (tables of 2 with an odd count, or one
    entrant): the lowest ranked of those with the fewest byes so far sits out. Dropped
    entrants are not seated."""
    number = len(rounds) + 1
    rng = _rng(seed, number, "swiss")
    tally = _tallies(entrants, rounds, byes, BYE_POINTS)
    rating = {e.id: e.rating for e in entrants}
    active = [e.id for e in entrants if e.id not in dropped]
    shuffle = {who: rng.random() for who in active}
    order = sorted(active, key=lambda w: (-tally[w].points, -rating[w], shuffle[w]))
    rank = {w: i for i, w in enumerate(order)}
    sizes = table_sizes(len(order), size)
    sat_out = _pick_byes(order, len(order) - sum(sizes), {w: tally[w].byes for w in order}, rank)
    order = [w for w in order if w not in sat_out]
    met = _met(rounds)

    best = _plain(order, sizes)
    best_cost = _improve(best, met)
    tries, stalled = restarts(len(order)), 0
    for attempt in range(tries + 1):
        if best_cost == 0 or (stalled >= STALL and len(order) > STALL_FROM):
            break
        start = order if attempt == 0 else _shaken(order, rng, attempt / tries)
        tables = _greedy(start, sizes, met)
        cost = _improve(tables, met)
        stalled = 0 if cost < best_cost else stalled + 1
        if cost < best_cost or (attempt == 0 and cost <= best_cost):
            best, best_cost = tables, cost
    return RoundPlan(
        number=number,
        tables=tuple(tuple(t) for t in best),
        byes=tuple(sat_out),
    )


def _shaken(order: Sequence[str], rng: random.Random, strength: float) -> list[str]:
    """The order with entrants swapped at random with one a little further down: a nearby
    start for another try, further off as `strength` (0 to 1) grows."""
    out = list(order)
    reach = 1 + round(strength * 6)
    for i in range(len(out) - 1):
        if rng.random() < 0.2 + 0.4 * strength:
            j = min(len(out) - 1, i + rng.randint(1, reach))
            out[i], out[j] = out[j], out[i]
    return out


def _advancing(
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
    seeding = _signup_order(entrants)
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


def seat_knockout(
    entrants: Sequence[Entrant],
    rounds: Sequence[Sequence[TableResult]],
    byes: Sequence[Sequence[str]],
    dropped: Collection[str],
    size: int,
    seed: int,
) -> RoundPlan | None:
    """The next knockout round, or None when one entrant (the champion) or nobody is left.
    Those still in are seeded by rating (then sign-up) and dealt to the tables like cards,
    forth and back, so the strongest sit apart; every round is seeded again. With tables of 2
    and an odd count, the best seeded of those with the fewest byes goes on without playing."""
    pool = _advancing(entrants, rounds, byes, dropped)
    if len(pool) <= 1:
        return None
    number = len(rounds) + 1
    seeding = _signup_order(entrants)
    last = len(entrants)
    tally = _tallies(entrants, rounds, byes, BYE_POINTS)
    order = sorted(pool, key=lambda w: (seeding.get(w, (0.0, last)), w))
    sizes = table_sizes(len(order), size)
    spare = len(order) - sum(sizes)
    sat_out = sorted(order, key=lambda w: (tally[w].byes, order.index(w)))[:spare]
    order = [w for w in order if w not in sat_out]
    tables: list[list[str]] = [[] for _ in sizes]
    forth = list(range(len(sizes)))
    lap = 0
    at = 0
    while at < len(order):
        for t in forth if lap % 2 == 0 else forth[::-1]:
            if len(tables[t]) < sizes[t] and at < len(order):
                tables[t].append(order[at])
                at += 1
        lap += 1
    return RoundPlan(number=number, tables=tuple(tuple(t) for t in tables), byes=tuple(sat_out))


# --- the end ------------------------------------------------------------------------------


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
        return len(_advancing(entrants, rounds, byes, dropped)) <= 1
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
        left = _advancing(entrants, rounds, byes, dropped)
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
