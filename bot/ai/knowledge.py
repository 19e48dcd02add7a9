"""What a seat can work out from its `View` alone: its legal moves, the unseen cards, and
games made whole by sampling the hidden cards ("determinization").

Nothing here ever sees a `Game`'s hidden cards: every function takes a `View`.

The unseen cards. A view shows this seat's hand, the pool, each bundle's top card and size, and
every card played so far (`history`). Cards that were dealt face up to the pool (the first four,
refills) and later captured are not in the view; they lie inside bundles. So the cards this seat
has not seen, `candidates`, are the hidden cards (opponents' hands and the stock, whose number
the view gives) plus a known number of such captured pool cards. A replay of the history shows
some of them for sure: a capture of rank r when no trailed card of rank r lay in the pool took
at least one pool card of rank r that was not played. The rest are spread over the ranks that
were ever captured.
"""

from __future__ import annotations

import random

from ..engine.cards import RANK
from ..engine.game import CAPTURE, STEAL, TRAIL, Game, Move, shuffle
from ..engine.view import View

MAX_RANK = 14  # ranks run 1..13; lists indexed by rank have this length


def legal_moves_of(view: View) -> list[Move]:
    """The moves this seat may make, from its view: the same list, in the same order, as the
    engine's `legal_moves(game)` when it is this seat's turn (empty otherwise)."""
    if view.result is not None or view.turn != view.seat:
        return []
    rules = view.rules
    seat = view.seat
    double = rules.double_bundles
    wild = rules.jack if rules.wild_jacks else 0
    forced = rules.play == "forced"
    targets: list[tuple[int, int, int]] = []  # (seat, bundle, top rank)
    if rules.stealing:
        for other, bundles in enumerate(view.bundles):
            if other != seat:
                for index, b in enumerate(bundles):
                    if b.size and b.top is not None:
                        targets.append((other, index, RANK[b.top]))
    pool_ranks = {RANK[c] for c in view.pool}
    moves: list[Move] = []
    for card in view.hand:
        r = RANK[card]
        stole = False
        for other, index, top in targets:
            if top == r or r == wild:
                if double:
                    moves += [Move(card, STEAL, other, index, own) for own in (0, 1)]
                else:
                    moves.append(Move(card, STEAL, other))
                stole = True
        if stole and forced:
            continue
        if r in pool_ranks:
            if double:
                moves += [Move(card, CAPTURE, None, None, own) for own in (0, 1)]
            else:
                moves.append(Move(card, CAPTURE))
            if forced:
                continue
        moves.append(Move(card, TRAIL))
    return moves


MoveKey = tuple[int, str, int | None, int | None, int | None]


def move_key(move: Move) -> MoveKey:
    """Moves with equal keys are the same play: suits never matter, only ranks."""
    return (RANK[move.card], move.action, move.target_seat, move.target_bundle, move.own_bundle)


def distinct_moves(moves: list[Move]) -> list[Move]:
    seen: set[MoveKey] = set()
    out = []
    for m in moves:
        k = move_key(m)
        if k not in seen:
            seen.add(k)
            out.append(m)
    return out


class Unseen:
    """The cards this seat has not seen, and how many of each rank are likely still hidden.

    `candidates`: every card not in the hand, the pool or the history, in deck order.
    `hidden`: how many of them are hidden (opponents' hands and stock); the others were
    captured from the pool without being played. `forced[r]`: candidates of rank r certainly
    captured so. `eligible`: ranks that other captured pool cards may have. `expected[r]`:
    the expected number of hidden cards of rank r.
    """

    __slots__ = ("candidates", "eligible", "expected", "forced", "groups", "hidden")

    def __init__(self, view: View) -> None:
        known = set(view.hand)
        known.update(view.pool)
        known.update(m.card for _, m in view.history)
        self.candidates = [c for c in view.rules.card_deck.cards if c not in known]
        self.hidden = min(
            len(self.candidates),
            view.stock_size + sum(n for s, n in enumerate(view.hand_sizes) if s != view.seat),
        )
        per_rank = [0] * MAX_RANK
        for c in self.candidates:
            per_rank[RANK[c]] += 1
        # Replay the history, following the trailed cards that lie in the pool.
        trailed = [0] * MAX_RANK
        forced = [0] * MAX_RANK
        eligible: set[int] = set()
        for _, m in view.history:
            r = RANK[m.card]
            if m.action == TRAIL:
                trailed[r] += 1
            elif m.action == CAPTURE:
                if not trailed[r]:
                    forced[r] += 1
                trailed[r] = 0
                eligible.add(r)
        extra = len(self.candidates) - self.hidden
        for r in range(MAX_RANK):
            forced[r] = min(forced[r], per_rank[r])
        while sum(forced) > extra:  # only for made-up views: keep the numbers consistent
            forced[max(range(MAX_RANK), key=forced.__getitem__)] -= 1
        extra -= sum(forced)
        if view.rules.sweep_bonus or sum(per_rank[r] - forced[r] for r in eligible) < extra:
            eligible = set(range(MAX_RANK))  # a sweep bonus card may be of any rank
        pool_size = sum(per_rank[r] - forced[r] for r in eligible)
        expected = [float(per_rank[r] - forced[r]) for r in range(MAX_RANK)]
        if extra and pool_size:
            for r in eligible:
                expected[r] -= extra * (per_rank[r] - forced[r]) / pool_size
        self.forced = forced
        self.groups: list[tuple[list[str], int]] | None = None
        self.eligible = eligible
        self.expected = expected

    def sample_hidden(self, rng: random.Random) -> list[str]:
        """One guess at the hidden cards, in random order; consistent with the view."""
        groups = self.groups
        if groups is None:  # built once: hard draws hundreds of deals a decision
            by_rank: dict[int, list[str]] = {}
            for c in self.candidates:
                by_rank.setdefault(RANK[c], []).append(c)
            groups = self.groups = [(cs, self.forced[r]) for r, cs in by_rank.items()]
        captured: set[str] = set()
        for cards, n in groups:
            if n:
                captured.update(rng.sample(cards, n))
        extra = len(self.candidates) - self.hidden - len(captured)
        if extra > 0:
            eligible = self.eligible
            rest = [c for c in self.candidates if RANK[c] in eligible and c not in captured]
            captured.update(rng.sample(rest, extra))
        hidden = [c for c in self.candidates if c not in captured]
        shuffle(hidden, rng)  # rng.shuffle's very draws, without a method call a card
        return hidden


def last_captures(view: View) -> list[int]:
    last = [-1] * len(view.seats)
    for ply, (seat, m) in enumerate(view.history):
        if m.action != TRAIL:
            last[seat] = ply
    return last


def determinize(view: View, hidden: list[str]) -> Game:
    """A running game that agrees with everything `view` shows, with `hidden` (opponents'
    hands, then the stock, as from `Unseen.sample_hidden`) in place of the unseen cards.

    During a playoff the game built is the playoff round itself. Bundles hold their top card
    repeated: the rules only ever look at a bundle's size and top card.
    """
    n = len(view.seats)
    hands: list[list[str]] = [[] for _ in range(n)]
    at = 0
    for s in range(n):
        if s == view.seat:
            hands[s] = list(view.hand)
        else:
            size = view.hand_sizes[s]
            hands[s] = hidden[at : at + size]
            at += size
    stock = hidden[at : at + view.stock_size]
    g = Game.__new__(Game)
    g.rules = view.rules
    g.seats = view.seats
    g.dealer = view.dealer
    g.seed = None
    g.players = view.players
    g.redeal = view.playoff == 0
    g.initial = (tuple(tuple(h) for h in hands), tuple(view.pool), tuple(stock))
    g.hands = hands
    g.pool = list(view.pool)
    g.stock = stock
    g.bundles = [
        [[b.top] * b.size if b.size and b.top is not None else [] for b in seat]
        for seat in view.bundles
    ]
    g.turn = view.turn
    g.last_capture = last_captures(view)
    g.moves = [(s, m, False) for s, m in view.history]
    g.playoffs = []
    g.award = (None, 0)
    g.result = None
    return g


def redeal(template: Game, view: View, hidden: list[str]) -> Game:
    """`determinize(view, hidden)`, from a `determinize(view, ...)` of the same view: only the
    hidden cards change, so the rest (bundles, history, last captures) is copied, not rebuilt
    (hard deals hundreds of samples a decision)."""
    g = template.copy()
    hands = g.hands
    at = 0
    for s, size in enumerate(view.hand_sizes):
        if s != view.seat:
            hands[s] = hidden[at : at + size]
            at += size
    g.stock = hidden[at : at + view.stock_size]
    g.initial = (tuple(tuple(h) for h in hands), tuple(view.pool), tuple(g.stock))
    return g


# How much less likely a player is to hold a rank it just passed up: it trailed while a pool
# card of that rank was there to capture, or it trailed or captured while a bundle topped by
# that rank was there to steal. Measured on medium players in 2-player games: they hold a
# declined capture rank about 0.46 times as often as the unseen cards alone suggest; a declined
# steal rank 0.08 times after a trail; after a capture, 0.065 times for a bundle of 4 cards or
# more and 0.2 times for a smaller one.
DECLINED_CAPTURE = 0.45
DECLINED_STEAL = 0.1
DECLINED_SMALL = 0.25


def declined(view: View) -> list[dict[int, float]]:
    """Per seat, rank -> weight < 1 for ranks that seat passed up while holding its hand.

    Walks back over the latest run of trails (a trail changes only the pool, so the pool before
    each one is known) and the capture before them, if any (it passed up the bundles that are
    still there); it stops at a steal, and at the last redeal (cards dealt since are new). This
    seat's own entry stays empty.
    """
    n = len(view.seats)
    out: list[dict[int, float]] = [{} for _ in range(n)]
    rules = view.rules
    per_round = 4 * len(view.players) if view.playoff == 0 else 0
    wild = rules.jack if rules.wild_jacks else 0
    tops = [
        [(RANK[b.top], b.size) for b in bundles if b.size and b.top is not None]
        for bundles in view.bundles
    ]
    pool = [0] * MAX_RANK
    for c in view.pool:
        pool[RANK[c]] += 1
    history = view.history
    for j in range(len(history) - 1, -1, -1):
        seat, m = history[j]
        if m.action == STEAL or (per_round and (j + 1) % per_round == 0):
            break
        weights = out[seat]
        if rules.stealing and seat != view.seat:
            # The other bundles are as they were then: only trails came after.
            for s in range(n):
                if s != seat:
                    for r, size in tops[s]:
                        w = DECLINED_STEAL if m.action == TRAIL or size >= 4 else DECLINED_SMALL
                        weights[r] = min(weights.get(r, 1.0), w)
                        if wild:
                            weights[wild] = min(weights.get(wild, 1.0), w)
        if m.action == CAPTURE:
            break  # what the pool held before it is not known
        pool[RANK[m.card]] -= 1  # now the pool as it was before this trail
        if seat != view.seat:
            for r in range(MAX_RANK):
                if pool[r] > 0:
                    weights[r] = min(weights.get(r, 1.0), DECLINED_CAPTURE)
    return out


def deal_hidden(
    view: View, hidden: list[str], weights: list[dict[int, float]], rng: random.Random
) -> list[str]:
    """Reorder a sample of the hidden cards so that each opponent's hand (dealt in seat order,
    as `determinize` reads them) favours the ranks it did not pass up; the rest is the stock."""
    if not any(weights):
        return hidden
    rest = hidden
    hands: list[str] = []
    for s, size in enumerate(view.hand_sizes):
        if s == view.seat or not size:
            continue
        w = weights[s]
        if not w:
            hands += rest[:size]
            rest = rest[size:]
            continue
        rand = rng.random
        keyed = sorted(
            ((rand() ** (1.0 / w.get(RANK[c], 1.0)), i) for i, c in enumerate(rest)),
            reverse=True,
        )
        chosen = {i for _, i in keyed[:size]}
        hands += [rest[i] for i in sorted(chosen)]
        rest = [c for i, c in enumerate(rest) if i not in chosen]
    return hands + rest
