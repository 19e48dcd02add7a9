"""Hard's playouts: medium for every player, from a determinized game to its end.

Three loops that play the same moves. `_playout_any` works for any rules: it lists the moves
with the engine's `legal_with` and picks with `fast_move`. `_playout_single` serves the rules with
one bundle a seat and no wild card: it values each move as it lists it, in `legal_with`'s order,
so it picks the same move (the first of the best) without building the list. Where there is no
sweep bonus either (the standard rules among them), the root move is played with the engine and
the rest on ranks (`rank_playout.py`), in about half the time. tests/ai/test_playouts.py checks
that they agree: move by move, and score by score.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..engine.cards import RANK, SAME_RANK
from ..engine.events import Events
from ..engine.game import CAPTURE, STEAL, TRAIL, Game, Move
from ..engine.moves import advance, legal_with, tables
from .knowledge import distinct_moves
from .medium import DEFEND, MAX_RANK, fast_move
from .rank_playout import MARGIN_WEIGHT, play_ranks, supported


def playout(
    g: Game,
    move: Move,
    counts: list[int],
    total: int,
    seat: int,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, int] | None:
    """Play `move`, then medium for everybody to the end: `seat`'s score and the moves played;
    None if the clock passed `deadline` first (it is read before every move).

    `counts[r]` and `total` follow the cards nobody has seen (hands and stock)."""
    rules = g.rules
    if supported(rules):  # the root move may be any move: the engine plays it
        if deadline is not None and clock() >= deadline:
            return None
        total = _play(g, move, counts, total)
        if g.turn is None:
            return score(g, seat), 1
        out = play_ranks(g, counts, total, seat, deadline, clock)
        return None if out is None else (out[0], out[1] + 1)
    if not (rules.wild_jacks or rules.double_bundles):
        return _playout_single(g, move, counts, total, seat, deadline, clock)
    return _playout_any(g, move, counts, total, seat, deadline, clock)


def _playout_any(
    g: Game,
    move: Move,
    counts: list[int],
    total: int,
    seat: int,
    deadline: float | None,
    clock: Callable[[], float],
) -> tuple[float, int] | None:
    rule_tables = tables(g.rules)
    n = 0
    while True:
        if deadline is not None and clock() >= deadline:
            return None
        total = _play(g, move, counts, total)
        n += 1
        if g.turn is None:  # the game (or playoff) is over, or a playoff is due
            break
        moves = legal_with(g, rule_tables)
        move = moves[0] if len(moves) == 1 else fast_move(g, moves, counts, total)
    return score(g, seat), n


def _play(g: Game, move: Move, counts: list[int], total: int) -> int:
    """Play `move` and take the cards it shows off `counts`; the new total. Moves are played
    without events, except a capture that empties the pool: only then can stock cards turn
    face up (a refill, a sweep bonus), and its events say which."""
    card = move.card
    rules = g.rules
    if (
        (rules.refill_pool or rules.sweep_bonus)
        and move.action == CAPTURE
        and SAME_RANK[card].issuperset(g.pool)
    ):
        events: Events = []
        advance(g, move, False, events)
        for e in events:
            if e["type"] == "pool_refilled":
                for c in e["cards"]:
                    counts[RANK[c]] -= 1
                total -= e["n"]
            elif e["type"] == "captured" and e["sweep_bonus"]:
                counts[RANK[e["sweep_bonus"]]] -= 1
                total -= 1
    else:
        advance(g, move)
    counts[RANK[card]] -= 1
    return total - 1


def _playout_single(
    g: Game,
    move: Move,
    counts: list[int],
    total: int,
    seat: int,
    deadline: float | None,
    clock: Callable[[], float],
) -> tuple[float, int] | None:
    rules = g.rules
    stealing = rules.stealing
    forced = rules.play == "forced"
    hands, bundles = g.hands, g.bundles
    n_seats = len(hands)
    # Per seat, the seats it may steal from, in legal_with's order.
    victims = [[o for o in range(n_seats) if o != s] if stealing else [] for s in range(n_seats)]
    players = g.players
    rank_of = RANK
    n = 0
    while True:
        if deadline is not None and clock() >= deadline:
            return None
        total = _play(g, move, counts, total)
        n += 1
        me = g.turn
        if me is None:
            break
        # fast_move's numbers (see _fast_move_single in medium.py), in the same order.
        hand = hands[me]
        ranks = [rank_of[c] for c in hand]
        hidden = total - len(hand)
        held = 0
        for s in players:
            if s != me:
                held += len(hands[s])
        if not held and g.stock and g.redeal:
            held = min(len(g.stock), 4 * (len(players) - 1))
        bundle = bundles[me][0]
        size = len(bundle)
        top = rank_of[bundle[-1]] if size else 0
        p = [0.0] * MAX_RANK
        if hidden > 0 and held > 0:
            for r in {*ranks, top}:
                u = counts[r] - ranks.count(r)
                if u > 0:
                    p[r] = 1.0 if u >= hidden else 1.0 - (1.0 - u / hidden) ** held
        keep_other = keep_same = 0.0
        if size and stealing:
            keep_other = keep_same = 2.0 * size * p[top]
            held_top = ranks.count(top)
            if held_top > 0:
                keep_other *= DEFEND
            if held_top > 1:
                keep_same *= DEFEND
        pool_count = [0] * MAX_RANK
        for c in g.pool:
            pool_count[rank_of[c]] += 1
        # The moves in legal_with's order (by card: steals, capture, trail), valued as listed.
        best_value = -1e18
        best: tuple[str, str, int | None] = ("", TRAIL, None)
        for card, r in zip(hand, ranks, strict=True):
            stole = False
            for victim in victims[me]:
                loot = bundles[victim][0]
                if loot and rank_of[loot[-1]] == r:
                    stole = True
                    taken = len(loot)
                    value = 2.0 * taken + 1.0
                    cost = 2.0 * (size + taken + 1) * p[r]
                    if ranks.count(r) > 1:
                        cost *= DEFEND
                    value -= cost
                    if value > best_value + 1e-9:
                        best_value = value
                        best = (card, STEAL, victim)
            if stole and forced:
                continue
            taken = pool_count[r]
            if taken:
                value = taken + 1.0
                if stealing:
                    cost = 2.0 * (size + taken + 1) * p[r]
                    if ranks.count(r) > 1:
                        cost *= DEFEND
                    value -= cost
                if value > best_value + 1e-9:
                    best_value = value
                    best = (card, CAPTURE, None)
                if forced:
                    continue
            value = -p[r] * (1.0 if taken else 2.0)
            value -= keep_same if r == top else keep_other
            if value > best_value + 1e-9:
                best_value = value
                best = (card, TRAIL, None)
        move = Move(*best)
    return score(g, seat), n


def solve(
    g: Game,
    move: Move,
    counts: list[int],
    total: int,
    seat: int,
    deadline: float | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> tuple[float, int] | None:
    """Like `playout`, for a game whose stock is empty (nothing more gets dealt): play `move`,
    then every line of `seat`'s own moves to the end, the others playing medium's move; the
    value of the best line and the moves played. None if the clock passed `deadline`."""
    rule_tables = tables(g.rules)
    n = 0
    while True:
        if deadline is not None and clock() >= deadline:
            return None
        total = _play(g, move, counts, total)
        n += 1
        if g.turn is None:
            return score(g, seat), n
        moves = legal_with(g, rule_tables)
        if g.turn != seat:
            move = moves[0] if len(moves) == 1 else fast_move(g, moves, counts, total)
            continue
        options = distinct_moves(moves)
        if len(options) == 1:
            move = options[0]
            continue
        best = -1e18
        for m in options:
            out = solve(g.copy(), m, counts[:], total, seat, deadline, clock)
            if out is None:
                return None
            best = max(best, out[0])
            n += out[1]
        return best, n


def score(g: Game, seat: int) -> float:
    sizes = [sum(map(len, b)) for b in g.bundles]
    if g.result is not None:
        winners = g.result.winners
    else:  # a tie that goes to a playoff: counted as shared
        best = max(sizes[s] for s in g.players)
        winners = tuple(s for s in g.players if sizes[s] == best)
    win = 1.0 / len(winners) if seat in winners else 0.0
    other = max(sizes[s] for s in g.players if s != seat)
    return win + MARGIN_WEIGHT * (sizes[seat] - other)
