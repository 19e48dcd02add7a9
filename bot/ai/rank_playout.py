"""Hard's playout on ranks: medium for everybody (`seat` seeing), the game kept as numbers.

With one bundle a seat and no wild card, nothing but a card's rank matters to a playout's moves
and score: a capture takes every pool card of its rank, a steal needs the victim's top rank, and
the score counts cards. So the hands and stock become lists of ranks, the pool a count per rank,
a bundle its top rank and size, and a move is made by updating those numbers, without the
engine's record of the game. It makes the very moves of the engine's loop (`rollout.py`'s
`_playout_any`) and scores the end the same way (the leftovers, the tie-break), which
tests/ai/test_playouts.py checks; it plays about twice as many moves in the same time
(docs/ai.md).
"""

from __future__ import annotations

from collections.abc import Callable

from ..engine.cards import RANK
from ..engine.game import CAPTURE, HAND_SIZE, STEAL, TRAIL, Game, turn_order
from ..engine.rules import Rules
from .medium import DEFEND, MAX_RANK, seen_holdings

MARGIN_WEIGHT = 0.02  # a playout scores win share + this x (our bundle - best other bundle)


def supported(rules: Rules) -> bool:
    """Whether `play_ranks` plays these rules exactly."""
    return not (rules.wild_jacks or rules.double_bundles)


def play_ranks(
    g: Game,
    counts: list[int],
    total: int,
    seat: int,
    deadline: float | None,
    clock: Callable[[], float],
) -> tuple[float, int] | None:
    """Medium for everybody from `g` (running) to the end, `seat` seeing the others' cards
    (`rollout.sighted`): `seat`'s score and the moves played; None if the clock passed
    `deadline` first. `g` is read, not changed.

    One loop with medium's valuation written inline, as in medium.py's `_fast_move_single`: it
    runs for every move of every playout, where a function call a move is a cost to avoid."""
    rules = g.rules
    stealing = rules.stealing
    forced = rules.play == "forced"
    refill = rules.refill_pool
    sweep = rules.sweep_bonus
    one_at_a_time = rules.short_deal == "one_at_a_time"
    step = rules.step
    redeal = g.redeal
    players = g.players
    hands = [[RANK[c] for c in h] for h in g.hands]
    n_seats = len(hands)
    pool = [0] * MAX_RANK
    for c in g.pool:
        pool[RANK[c]] += 1
    pool_n = len(g.pool)
    sizes = [len(b[0]) for b in g.bundles]
    tops = [RANK[b[0][-1]] if b[0] else 0 for b in g.bundles]
    stock = [RANK[c] for c in g.stock]
    at = 0  # the stock's next card: dealt cards are not removed, only passed
    last = g.last_capture[:]
    ply = len(g.moves)
    victims = [[o for o in range(n_seats) if o != s] if stealing else [] for s in range(n_seats)]
    others = [[o for o in players if o != s] for s in range(n_seats)]
    turn = g.turn
    assert turn is not None  # the playout starts in a running game
    n = 0
    while True:
        if deadline is not None and clock() >= deadline:
            return None
        me = turn
        hand = hands[me]
        # Medium's move: the values of _fast_move_single (medium.py), in the same order.
        hidden = total - len(hand)
        held = 0
        for s in others[me]:
            held += len(hands[s])
        left = len(stock) - at
        if not held and left and redeal:
            held = min(left, HAND_SIZE * (len(players) - 1))
        size = sizes[me]
        top = tops[me]
        p = [0.0] * MAX_RANK
        if me == seat:  # our own later moves see the others' cards (rollout.sighted)
            if held:
                p = seen_holdings(
                    [r for s in others[me] for r in hands[s]] or stock[at : at + held]
                )
        elif hidden > 0 and held > 0:
            for r in {*hand, top}:
                u = counts[r] - hand.count(r)
                if u > 0:
                    p[r] = 1.0 if u >= hidden else 1.0 - (1.0 - u / hidden) ** held
        keep_other = keep_same = 0.0
        if size and stealing:
            keep_other = keep_same = 2.0 * size * p[top]
            held_top = hand.count(top)
            if held_top > 0:
                keep_other *= DEFEND
            if held_top > 1:
                keep_same *= DEFEND
        best_value = -1e18
        best_rank = 0
        action = TRAIL
        victim = -1
        for r in hand:
            stole = False
            for o in victims[me]:
                if sizes[o] and tops[o] == r:
                    stole = True
                    taken = sizes[o]
                    value = 2.0 * taken + 1.0
                    cost = 2.0 * (size + taken + 1) * p[r]
                    if hand.count(r) > 1:
                        cost *= DEFEND
                    value -= cost
                    if value > best_value + 1e-9:
                        best_value, best_rank, action, victim = value, r, STEAL, o
            if stole and forced:
                continue
            taken = pool[r]
            if taken:
                value = taken + 1.0
                if stealing:
                    cost = 2.0 * (size + taken + 1) * p[r]
                    if hand.count(r) > 1:
                        cost *= DEFEND
                    value -= cost
                if value > best_value + 1e-9:
                    best_value, best_rank, action = value, r, CAPTURE
                if forced:
                    continue
            value = -p[r] * (1.0 if taken else 2.0)
            value -= keep_same if r == top else keep_other
            if value > best_value + 1e-9:
                best_value, best_rank, action = value, r, TRAIL
        # The move, as the engine's advance makes it.
        r = best_rank
        hand.remove(r)  # of equal ranks medium plays the first: the rest keep their order
        counts[r] -= 1
        total -= 1
        n += 1
        if action == TRAIL:
            pool[r] += 1
            pool_n += 1
        else:
            if action == CAPTURE:
                taken = pool[r]
                pool[r] = 0
                pool_n -= taken
                sizes[me] += taken + 1
                if not pool_n and sweep and at < len(stock):  # the bonus card, face up
                    counts[stock[at]] -= 1
                    total -= 1
                    sizes[me] += 1
                    at += 1
                if not pool_n and refill and at < len(stock):
                    for x in stock[at : at + HAND_SIZE]:
                        pool[x] += 1
                        counts[x] -= 1
                        pool_n += 1
                        total -= 1
                        at += 1
            else:
                sizes[me] += sizes[victim] + 1
                sizes[victim] = 0
                tops[victim] = 0
            tops[me] = r
            last[me] = ply
        ply += 1
        if not hand and not any(hands):
            if not (redeal and at < len(stock)):
                break
            due = turn_order(n_seats, step, me, players)  # from the player after `me`
            if len(stock) - at < HAND_SIZE * len(due) and one_at_a_time:
                rest = stock[at:]
                for k, other in enumerate(due):
                    hands[other] = rest[k :: len(due)]
                at = len(stock)
            else:
                for other in due:
                    hands[other] = stock[at : at + HAND_SIZE]
                    at = min(at + HAND_SIZE, len(stock))
        turn = (me + step) % n_seats
        while not hands[turn]:
            turn = (turn + step) % n_seats
    return _score(rules, redeal, players, sizes, last, pool_n, seat), n


def _score(
    rules: Rules,
    redeal: bool,
    players: tuple[int, ...] | list[int],
    sizes: list[int],
    last: list[int],
    pool_n: int,
    seat: int,
) -> float:
    """`rollout.score` of the finished game: the leftovers to the last capturer, then the
    winners by the rules' tie-break (a tie due to a playoff counts as shared)."""
    if redeal and rules.leftovers == "last_capturer" and pool_n:
        latest = max(last)
        if latest >= 0:
            sizes[last.index(latest)] += pool_n
    best = max([sizes[s] for s in players])
    winners = [s for s in players if sizes[s] == best]
    if len(winners) > 1 and redeal and rules.tiebreak == "last_capturer":
        latest = max(last[s] for s in winners)
        if latest >= 0:
            winners = [last.index(latest)]
    win = 1.0 / len(winners) if seat in winners else 0.0
    other = max(sizes[s] for s in players if s != seat)
    return win + MARGIN_WEIGHT * (sizes[seat] - other)
