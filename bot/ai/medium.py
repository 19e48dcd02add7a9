"""The card-counting heuristic ("medium"), shared by the medium policy and hard's playouts.

A move is worth its immediate card margin (a capture gains the pool cards of its rank and the
played card; a steal counts twice, since the victim loses what we gain), less the expected cost
of what it leaves exposed:

- each of our bundles can be stolen by an opponent who holds its top rank (or a wild jack):
  cost 2 x size x P(steal), halved when we still hold that rank and could steal it back;
- a trailed card can be captured by an opponent who holds its rank: cost P(capture) x the
  cards that trail adds to the capture (2 on an empty rank: the card and the capturer's own).

P(an opponent holds rank r) comes from the unseen cards: with u of rank r among N hidden cards
and H cards in the hands of the players who move before us again, 1 - (1 - u/N)^H.
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Sequence

from ..engine.cards import RANK
from ..engine.game import CAPTURE, TRAIL, Game, Move

MAX_RANK = 14
DEFEND = 0.5  # a stolen bundle whose rank we still hold can be stolen back


def holding_probabilities(unseen: Sequence[float], hidden: float, held: int) -> list[float]:
    """P(the opponents' `held` cards include rank r), for each rank r."""
    if hidden <= 0 or held <= 0:
        return [0.0] * MAX_RANK
    out = []
    for u in unseen:
        if u <= 0:
            out.append(0.0)
        elif u >= hidden:
            out.append(1.0)
        else:
            out.append(1.0 - (1.0 - u / hidden) ** held)
    return out


def opponents_cards(
    hand_sizes: Sequence[int], seat: int, players: Sequence[int], stock: int, redeal: bool = True
) -> int:
    """Cards the other players will choose from before this seat moves again."""
    held = sum(hand_sizes[s] for s in players if s != seat)
    if not held and stock and redeal:  # everybody else is out: a redeal comes first
        held = min(stock, 4 * (len(players) - 1))
    return held


def seen_holdings(held: Iterable[int]) -> list[float]:
    """P(the opponents hold rank r) when their ranks `held` are seen: 1 or 0."""
    p = [0.0] * MAX_RANK
    for r in held:
        p[r] = 1.0
    return p


def best_move(
    moves: list[Move],
    seat: int,
    hand: Iterable[str],
    pool: Iterable[str],
    bundles: Sequence[Sequence[tuple[int, int]]],  # per seat, per bundle: (top rank or 0, size)
    p: list[float],
    wild: int,
    stealing: bool,
    rng: random.Random | None = None,
) -> Move:
    """The move with the highest heuristic value; ties go to the first, or a random one."""
    pool_count = [0] * MAX_RANK
    for c in pool:
        pool_count[RANK[c]] += 1
    hand_count = [0] * MAX_RANK
    for c in hand:
        hand_count[RANK[c]] += 1
    mine = bundles[seat]
    # P(an opponent can steal a bundle whose top is rank r).
    if wild:
        pw = 1.0 - p[wild]
        steal_p = [1.0 - (1.0 - q) * pw for q in p]
        steal_p[wild] = p[wild]
    else:
        steal_p = p

    def exposure(top: int, size: int, played: int) -> float:
        if not size or not stealing:
            return 0.0
        cost = 2.0 * size * steal_p[top]
        left = hand_count[top] - (played == top)
        if left > 0 or (wild and hand_count[wild] - (played == wild) > 0):
            cost *= DEFEND
        return cost

    best: list[Move] = []
    best_value = -1e18
    for m in moves:
        r = RANK[m.card]
        action = m.action
        if action == TRAIL:
            value = -p[r] * (1.0 if pool_count[r] else 2.0)
            for top, size in mine:
                value -= exposure(top, size, r)
        else:
            own = m.own_bundle or 0
            if action == CAPTURE:
                taken = pool_count[r]
                value = taken + 1.0
            else:  # STEAL
                assert m.target_seat is not None  # a steal always names its victim
                taken = bundles[m.target_seat][m.target_bundle or 0][1]
                value = 2.0 * taken + 1.0
            for index, (top, size) in enumerate(mine):
                if index == own:
                    value -= exposure(r, size + taken + 1, r)
                else:
                    value -= exposure(top, size, r)
        if value > best_value + 1e-9:
            best_value = value
            best = [m]
        elif value > best_value - 1e-9:
            best.append(m)
    if rng is None or len(best) == 1:
        return best[0]
    return best[int(rng.random() * len(best))]


def game_bundles(g: Game) -> list[list[tuple[int, int]]]:
    return [[(RANK[b[-1]], len(b)) if b else (0, 0) for b in seat] for seat in g.bundles]


def best_move_in_game(
    g: Game, moves: list[Move], hidden_counts: list[int], hidden_total: int
) -> Move:
    """Medium's move for the player to act in a determinized playout.

    `hidden_counts[r]` counts rank r among every hand and the stock (the cards nobody has seen
    face up); the player's own hand is taken off, so the player counts only what it could know.
    """
    seat = g.turn
    assert seat is not None  # only asked while the game runs
    hand = g.hands[seat]
    unseen = hidden_counts[:]
    for c in hand:
        unseen[RANK[c]] -= 1
    hidden = hidden_total - len(hand)
    held = opponents_cards([len(h) for h in g.hands], seat, g.players, len(g.stock), g.redeal)
    p = holding_probabilities(unseen, hidden, held)
    rules = g.rules
    wild = rules.jack if rules.wild_jacks else 0
    return best_move(moves, seat, hand, g.pool, game_bundles(g), p, wild, rules.stealing)


def fast_move(
    g: Game,
    moves: list[Move],
    hidden_counts: list[int],
    hidden_total: int,
    sighted: list[float] | None = None,
) -> Move:
    """`best_move_in_game`, worked out only for the ranks it needs: the playouts' inner loop.

    The same values, so the same move (the first of the best). `sighted`: P(an opponent holds
    rank r) to use instead of counting (hard's own moves in its playouts: `seen_holdings`).
    """
    rules = g.rules
    if not (rules.wild_jacks or rules.double_bundles):
        return _fast_move_single(g, moves, hidden_counts, hidden_total, sighted)
    seat = g.turn
    assert seat is not None  # only asked while the game runs
    hands = g.hands
    hand = hands[seat]
    hand_count = [0] * MAX_RANK
    for c in hand:
        hand_count[RANK[c]] += 1
    hidden = hidden_total - len(hand)
    held = 0
    for s in g.players:
        if s != seat:
            held += len(hands[s])
    if not held and g.stock and g.redeal:
        held = min(len(g.stock), 4 * (len(g.players) - 1))
    rules = g.rules
    stealing = rules.stealing
    wild = rules.jack if rules.wild_jacks else 0
    mine = [(RANK[b[-1]], len(b)) if b else (0, 0) for b in g.bundles[seat]]
    p = [0.0] * MAX_RANK
    if sighted is not None:
        p = sighted
    elif hidden > 0 and held > 0:
        needed = {RANK[c] for c in hand}
        needed.update(top for top, _ in mine)
        if wild:
            needed.add(wild)
        for r in needed:
            u = hidden_counts[r] - hand_count[r]
            if u > 0:
                p[r] = 1.0 if u >= hidden else 1.0 - (1.0 - u / hidden) ** held
    if wild:
        pw = 1.0 - p[wild]

    def exposure(top: int, size: int, played: int) -> float:
        if not size or not stealing:
            return 0.0
        q = p[top]
        if wild and top != wild:
            q = 1.0 - (1.0 - q) * pw
        cost = 2.0 * size * q
        if hand_count[top] - (played == top) > 0 or (
            wild and hand_count[wild] - (played == wild) > 0
        ):
            cost *= DEFEND
        return cost

    pool_count = [0] * MAX_RANK
    for c in g.pool:
        pool_count[RANK[c]] += 1
    bundles = g.bundles
    best = moves[0]
    best_value = -1e18
    for m in moves:
        r = RANK[m.card]
        action = m.action
        if action == TRAIL:
            value = -p[r] * (1.0 if pool_count[r] else 2.0)
            for top, size in mine:
                value -= exposure(top, size, r)
        else:
            own = m.own_bundle or 0
            if action == CAPTURE:
                taken = pool_count[r]
                value = taken + 1.0
            else:
                assert m.target_seat is not None  # a steal always names its victim
                taken = len(bundles[m.target_seat][m.target_bundle or 0])
                value = 2.0 * taken + 1.0
            for index, (top, size) in enumerate(mine):
                if index == own:
                    value -= exposure(r, size + taken + 1, r)
                else:
                    value -= exposure(top, size, r)
        if value > best_value + 1e-9:
            best_value = value
            best = m
    return best


def _fast_move_single(
    g: Game,
    moves: list[Move],
    hidden_counts: list[int],
    hidden_total: int,
    sighted: list[float] | None,
) -> Move:
    """`fast_move` with one bundle a seat and no wild card, the standard rules: each value
    is the general one, computed in the same order of operations, so the same move."""
    seat = g.turn
    assert seat is not None  # only asked while the game runs
    hands = g.hands
    hand = hands[seat]
    ranks = [RANK[c] for c in hand]
    hidden = hidden_total - len(hand)
    held = 0
    for s in g.players:
        if s != seat:
            held += len(hands[s])
    if not held and g.stock and g.redeal:
        held = min(len(g.stock), 4 * (len(g.players) - 1))
    bundle = g.bundles[seat][0]
    size = len(bundle)
    top = RANK[bundle[-1]] if size else 0
    p = [0.0] * MAX_RANK
    if sighted is not None:
        p = sighted
    elif hidden > 0 and held > 0:
        for r in {*ranks, top}:
            u = hidden_counts[r] - ranks.count(r)
            if u > 0:
                p[r] = 1.0 if u >= hidden else 1.0 - (1.0 - u / hidden) ** held
    stealing = g.rules.stealing
    # What a trail leaves exposed: our bundle, defended if we still hold its rank after it.
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
        pool_count[RANK[c]] += 1
    bundles = g.bundles
    best = moves[0]
    best_value = -1e18
    for m in moves:
        r = RANK[m.card]
        action = m.action
        if action == TRAIL:
            value = -p[r] * (1.0 if pool_count[r] else 2.0)
            value -= keep_same if r == top else keep_other
        else:
            if action == CAPTURE:
                taken = pool_count[r]
                value = taken + 1.0
            else:
                assert m.target_seat is not None  # a steal always names its victim
                taken = len(bundles[m.target_seat][0])
                value = 2.0 * taken + 1.0
            if stealing:  # the grown bundle, topped by this rank, is exposed
                cost = 2.0 * (size + taken + 1) * p[r]
                if ranks.count(r) > 1:
                    cost *= DEFEND
                value -= cost
        if value > best_value + 1e-9:
            best_value = value
            best = m
    return best
