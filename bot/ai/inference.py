"""Reading the opponents' hands from their trails, assuming they play the medium heuristic.

A trail changes only the pool, so over the latest run of trails (back to the last capture,
steal or redeal) the table each trailing opponent faced is known: the pool then is the pool
now less the cards trailed since, and the bundles are as they are now. Its hand then was its
hand now plus the cards it played since. Given a guess at its hand now, we can ask what medium
would have played there; a guess under which medium would not have made that trail (or one of
equal value) is unlikely. `TrailChecks.fits` says whether a deal fits every such trail.

Medium's own card counting is rebuilt from ours: what it had not seen then is the stock (our
expected hidden counts, less the guessed hands) and the other players' hands then.
"""

from __future__ import annotations

import random

from ..engine.cards import RANK
from ..engine.game import CAPTURE, STEAL, TRAIL, Move
from ..engine.view import View
from .knowledge import Unseen, deal_hidden
from .medium import MAX_RANK, best_move, holding_probabilities, opponents_cards

DEAL_TRIES = 8  # deals drawn per sample until one fits the opponents' trails (else the last)

# A trail checked: (index in history, seat, the card, the pool's cards before it).
Check = tuple[int, int, str, list[str]]


class TrailChecks:
    """The latest run of opponents' trails of `view`, checked against medium's choice."""

    __slots__ = ("bundles", "checks", "expected", "history", "known", "view")

    def __init__(self, view: View, expected: list[float]) -> None:
        self.view = view
        self.expected = expected
        self.history = view.history
        self.checks: list[Check] = []
        # Answers by the ranks of the opponents' hands: suits do not matter to medium.
        self.known: dict[tuple[tuple[int, ...], ...], bool] = {}
        rules = view.rules
        if rules.wild_jacks or rules.double_bundles or rules.play == "forced":
            return  # forced play trails only when nothing else is legal: nothing to read
        per_round = 4 * len(view.players) if view.playoff == 0 else 0
        pool = list(view.pool)
        history = view.history
        for j in range(len(history) - 1, -1, -1):
            seat, m = history[j]
            if (
                m.action != TRAIL
                or (per_round and (j + 1) % per_round == 0)
                or m.card not in pool  # cannot happen in the rules we know: read nothing more
            ):
                break
            pool.remove(m.card)  # now the pool as it was before this trail
            if seat != view.seat:
                self.checks.append((j, seat, m.card, pool[:]))
        self.bundles = [
            [(RANK[b.top], b.size) if b.size and b.top is not None else (0, 0) for b in seat]
            for seat in view.bundles
        ]

    def __bool__(self) -> bool:
        return bool(self.checks)

    def fits(self, hands: list[list[str]]) -> bool:
        """Whether medium, holding `hands` now (one per seat, ours included), would have made
        each trail of the run (or a move it values the same)."""
        seat = self.view.seat
        key = tuple(tuple(sorted(RANK[c] for c in h)) for s, h in enumerate(hands) if s != seat)
        known = self.known.get(key)
        if known is None:
            known = self.known[key] = self._fits(hands)
        return known

    def _fits(self, hands: list[list[str]]) -> bool:
        view = self.view
        history = self.history
        n = len(hands)
        stock_rank = self.expected[:]
        for s, hand in enumerate(hands):
            if s != view.seat:
                for c in hand:
                    stock_rank[RANK[c]] -= 1
        stock_rank = [max(0.0, x) for x in stock_rank]
        stealing = view.rules.stealing
        for j, seat, card, pool in self.checks:
            then = [h[:] for h in hands]
            for s, m in history[j:]:
                then[s].append(m.card)
            unseen = stock_rank[:]
            for s in range(n):
                if s != seat:
                    for c in then[s]:
                        unseen[RANK[c]] += 1
            hidden = view.stock_size + sum(len(then[s]) for s in range(n) if s != seat)
            held = opponents_cards(
                [len(h) for h in then], seat, view.players, view.stock_size, view.playoff == 0
            )
            p = holding_probabilities(unseen, hidden, held)
            trail = Move(card, TRAIL)
            moves = [trail, *_moves(then[seat], pool, self.bundles, seat, stealing)]
            if best_move(moves, seat, then[seat], pool, self.bundles, p, 0, stealing) != trail:
                return False
        return True


def draw_deal(
    view: View,
    unseen: Unseen,
    weights: list[dict[int, float]],
    checks: TrailChecks,
    rng: random.Random,
) -> list[str]:
    """A guess at the hidden cards (as `deal_hidden` orders them) that fits the opponents'
    latest trails; after DEAL_TRIES misses, the last guess (a player may not play like medium)."""
    hidden = deal_hidden(view, unseen.sample_hidden(rng), weights, rng)
    for _ in range(DEAL_TRIES - 1):
        if not checks or checks.fits(hands_of(view, hidden)):
            break
        hidden = deal_hidden(view, unseen.sample_hidden(rng), weights, rng)
    return hidden


def hands_of(view: View, hidden: list[str]) -> list[list[str]]:
    """Every seat's hand in a deal of the hidden cards, as `determinize` reads them."""
    hands: list[list[str]] = []
    at = 0
    for s, size in enumerate(view.hand_sizes):
        if s == view.seat:
            hands.append(list(view.hand))
        else:
            hands.append(hidden[at : at + size])
            at += size
    return hands


def _moves(
    hand: list[str], pool: list[str], bundles: list[list[tuple[int, int]]], seat: int, steal: bool
) -> list[Move]:
    """The legal moves of `hand` on that table (one bundle a seat, free play)."""
    pool_ranks = [False] * MAX_RANK
    for c in pool:
        pool_ranks[RANK[c]] = True
    out = []
    for c in hand:
        r = RANK[c]
        if steal:
            for other, seat_bundles in enumerate(bundles):
                top, size = seat_bundles[0]
                if other != seat and size and top == r:
                    out.append(Move(c, STEAL, other))
        if pool_ranks[r]:
            out.append(Move(c, CAPTURE))
        out.append(Move(c, TRAIL))
    return out
