"""Reading the opponents' hands from their trails, assuming they play the medium heuristic.

A trail changes only the pool, so over the latest run of trails (back to the last capture,
steal or redeal) the table each trailing opponent faced is known: the pool then is the pool
now less the cards trailed since, and the bundles are as they are now. Its hand then was its
hand now plus the cards it played since. Given a guess at its hand now, we can ask what medium
would have played there; a guess under which medium would not have made that trail (or one of
equal value) is unlikely. `TrailChecks.fits` says whether a deal fits every such trail.

The capture that ended the run, if an opponent made it from the hand it holds now, is checked
too: its table is known but for how many pool cards it took and whether the pool was refilled
after it, so a deal fits if medium would have made it under some reading of those.

Medium's own card counting is rebuilt from ours: what it had not seen then is the stock (our
expected hidden counts, less the guessed hands) and the other players' hands then.
"""

from __future__ import annotations

import random
from typing import NamedTuple

from ..engine.cards import RANK
from ..engine.game import CAPTURE, HAND_SIZE, STEAL, TRAIL, Move
from ..engine.view import View
from .knowledge import Unseen, deal_hidden
from .medium import MAX_RANK, best_move, holding_probabilities, opponents_cards

DEAL_TRIES = 8  # deals drawn per sample until one fits the opponents' trails (else the last)

READ_CAPTURES = True  # also check the capture that ended the run, where its table is known

# A trail checked: (index in history, seat, the card, the pool's cards before it).
Check = tuple[int, int, str, list[str]]


class CaptureCheck(NamedTuple):
    """An opponent's capture just before the latest run of trails. Its table is known but for
    how many pool cards it took (`taken`: the counts that agree with the view) and whether
    the pool was refilled after it (`refills`: the hypotheses that agree)."""

    ply: int  # its index in the history
    seat: int
    card: str
    after: list[str]  # the pool just after it (after any refill)
    top: int  # the capturer's bundle top before it (0: empty)
    size: int  # its bundle size after it
    taken: range  # by the bundle sizes
    spare: int  # the cards of its rank that may have been in the pool, but for our guesses
    refills: tuple[bool, ...]


class TrailChecks:
    """The latest run of opponents' trails of `view`, checked against medium's choice."""

    __slots__ = ("bundles", "capture", "checks", "expected", "history", "known", "view")

    def __init__(self, view: View, expected: list[float]) -> None:
        self.view = view
        self.expected = expected
        self.history = view.history
        self.checks: list[Check] = []
        # Answers by the ranks of the opponents' hands: suits do not matter to medium.
        self.known: dict[tuple[tuple[int, ...], ...], bool] = {}
        self.capture: CaptureCheck | None = None
        rules = view.rules
        if rules.wild_jacks or rules.double_bundles or rules.play == "forced":
            return  # forced play trails only when nothing else is legal: nothing to read
        per_round = 4 * len(view.players) if view.playoff == 0 else 0
        pool = list(view.pool)
        history = view.history
        stop = -1  # the move before the run, if the run does not reach back to a redeal
        for j in range(len(history) - 1, -1, -1):
            seat, m = history[j]
            if per_round and (j + 1) % per_round == 0:
                break
            if m.action != TRAIL or m.card not in pool:  # (not in pool: rules we do not know)
                stop = j
                break
            pool.remove(m.card)  # now the pool as it was before this trail
            if seat != view.seat:
                self.checks.append((j, seat, m.card, pool[:]))
        self.bundles = [
            [(RANK[b.top], b.size) if b.size and b.top is not None else (0, 0) for b in seat]
            for seat in view.bundles
        ]
        if READ_CAPTURES and stop >= 0:
            self.capture = capture_check(view, stop, pool)

    def __bool__(self) -> bool:
        return bool(self.checks) or self.capture is not None

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
        if self.capture is not None:
            return self._capture_fits(self.capture, hands, stock_rank)
        return True

    def _capture_fits(
        self, check: CaptureCheck, hands: list[list[str]], stock_rank: list[float]
    ) -> bool:
        """Whether medium, under some reading of the table that agrees with the view, would
        have made the capture (or a move it values the same)."""
        view = self.view
        j, seat, card, after, top, size, taken, spare, refills = check
        n = len(hands)
        r = RANK[card]
        then = [h[:] for h in hands]
        for s, m in self.history[j:]:
            then[s].append(m.card)
        # Cards of its rank in the opponents' hands now were not in the pool then.
        most = spare
        for s, h in enumerate(hands):
            if s != view.seat:
                most -= sum(RANK[c] == r for c in h)
        bundles = [list(b) for b in self.bundles]
        capture = Move(card, CAPTURE)
        for refilled in refills:
            unseen = stock_rank[:]
            for s in range(n):
                if s != seat:
                    for c in then[s]:
                        unseen[RANK[c]] += 1
            stock = view.stock_size
            if refilled:  # the refill was in the stock then
                for c in after:
                    unseen[RANK[c]] += 1
                stock += len(after)
            hidden = stock + sum(len(then[s]) for s in range(n) if s != seat)
            held = opponents_cards(
                [len(h) for h in then], seat, view.players, stock, view.playoff == 0
            )
            p = holding_probabilities(unseen, hidden, held)
            for k in range(taken.start, min(taken.stop - 1, most) + 1):
                pool = [card] * k if refilled else after + [card] * k
                before = size - k - 1
                bundles[seat] = [(top, before) if top else (0, 0)]
                moves = [capture, *_moves(then[seat], pool, bundles, seat, view.rules.stealing)]
                if (
                    best_move(moves, seat, then[seat], pool, bundles, p, 0, view.rules.stealing)
                    == capture
                ):
                    return True
        return False


def capture_check(view: View, j: int, after: list[str]) -> CaptureCheck | None:
    """The check of move `j` if it is an opponent's capture (the moves since are trails, and
    `after` the pool just after it), or None."""
    seat, m = view.history[j]
    if m.action != CAPTURE or seat == view.seat or view.rules.sweep_bonus:
        return None  # (a sweep bonus puts an unseen card in the bundle: sizes tell less)
    history = view.history
    r = RANK[m.card]
    # Replay the history before it: the capturer's bundle top, and the trailed cards of
    # rank r lying in the pool (it took them all).
    top = 0
    trailed: list[str] = []  # the trailed cards lying in the pool
    for s, mv in history[:j]:
        if mv.action == TRAIL:
            trailed.append(mv.card)
        else:
            if s == seat:
                top = RANK[mv.card]
            if mv.action == STEAL and mv.target_seat == seat:
                top = 0
            if mv.action == CAPTURE:
                q = RANK[mv.card]
                trailed = [c for c in trailed if RANK[c] != q]
    lying = [c for c in trailed if RANK[c] == r]
    size = view.bundles[seat][0].size
    played = {mv.card for _, mv in history}
    # Cards of rank r that were not in the pool then: ours, the played ones (but the card
    # and those lying there), and any in the pool now that were never played (a refill).
    elsewhere = sum(RANK[c] == r for c in view.hand)
    elsewhere += sum(RANK[mv.card] == r for _, mv in history) - 1 - len(lying)
    fresh = [c for c in after if c not in played]
    elsewhere += sum(RANK[c] == r for c in view.pool if c not in played)
    total = sum(RANK[c] == r for c in view.rules.card_deck.cards)
    spare = total - 1 - elsewhere
    most = min(spare, size - 2) if top else min(spare, size - 1)
    least = max(1, len(lying)) if top else max(1, size - 1)
    if least > most:
        return None  # the view disagrees with our reading of it: read nothing
    refills = []
    if not any(RANK[c] == r for c in after):  # else the pool was refilled after it
        refills.append(False)
    if (
        view.rules.refill_pool
        and after
        and len(fresh) == len(after)
        and len(lying) == len(trailed)  # a trailed card of another rank would have stayed
        and (len(after) == HAND_SIZE or view.stock_size == 0)
    ):
        refills.append(True)
    if not refills:
        return None
    taken = range(least, most + 1)
    return CaptureCheck(j, seat, m.card, after, top, size, taken, spare, tuple(refills))


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
