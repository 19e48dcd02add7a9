"""Who sits at which table: the next Swiss round (few repeat meetings) and the next knockout
round (the strongest apart)."""

from __future__ import annotations

import random
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from .points import BYE_POINTS, TableResult, table_sizes
from .records import Entrant
from .standings import advancing, seeding_order, tallies


@dataclass(frozen=True)
class RoundPlan:
    number: int  # 1-based
    tables: tuple[tuple[str, ...], ...]  # each 2..size entrants
    byes: tuple[str, ...]  # entrants sitting this round out (get BYE_POINTS in Swiss)
    left: tuple[str, ...] = ()  # seated the round before, dropped out since (as shown)
    absent: tuple[str, ...] = ()  # round 1 with check-in: signed up, did not check in


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
    tally = tallies(entrants, rounds, byes, BYE_POINTS)
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
    pool = advancing(entrants, rounds, byes, dropped)
    if len(pool) <= 1:
        return None
    number = len(rounds) + 1
    seeding = seeding_order(entrants)
    last = len(entrants)
    tally = tallies(entrants, rounds, byes, BYE_POINTS)
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
