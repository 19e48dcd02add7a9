"""Hard's playouts: medium for every player, from a determinized game to its end.

The other players count cards, as the real medium does. The searching seat's own later moves
are medium's valuation too, but seeing the cards dealt to the others (`sighted`): hard's real
later moves are better than medium's, and this plays closer to them (docs/ai.md: +2.8 points
at 3,000 moves a decision).

Two loops that play the same moves. `_playout_any` works for any rules: it lists the moves
with the engine's `legal_with` and picks with `fast_move`. Where a seat has one bundle and there
is no wild card (the standard rules among them), the root move is played with the engine and the
rest on ranks (`rank_playout.py`): it values each move as it lists it, in `legal_with`'s order,
so it picks the same move (the first of the best), in about half the time.
tests/ai/test_playouts.py checks that the two agree, score by score.
"""

from __future__ import annotations

import time
from collections.abc import Callable

from ..engine.cards import RANK, SAME_RANK
from ..engine.events import Events
from ..engine.game import CAPTURE, HAND_SIZE, Game, Move
from ..engine.moves import advance, legal_with, tables
from .knowledge import distinct_moves
from .medium import fast_move, seen_holdings
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
    """Play `move`, then medium for everybody to the end (`seat` seeing the others' cards):
    `seat`'s score and the moves played; None if the clock passed `deadline` first (it is read
    before every move).

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
        if len(moves) == 1:
            move = moves[0]
        elif g.turn == seat:
            move = fast_move(g, moves, counts, total, sighted(g, seat))
        else:
            move = fast_move(g, moves, counts, total)
    return score(g, seat), n


def sighted(g: Game, seat: int) -> list[float]:
    """What `seat`'s own playout moves know of the other players' cards: their hands, or when
    those are played out and a redeal comes, the stock's next cards (theirs in it)."""
    others = [s for s in g.players if s != seat]
    held = [c for s in others for c in g.hands[s]]
    if not held and g.stock and g.redeal:
        held = g.stock[: HAND_SIZE * len(others)]
    return seen_holdings({RANK[c] for c in held})


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
