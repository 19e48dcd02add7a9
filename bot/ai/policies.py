"""The AI policies. Each one is called as `policy.choose(view, rng) -> Move`.

A policy is handed only its seat's `View` (which includes the public history of played cards)
and a `random.Random`; it never sees a `Game`. Given the same view and an rng in the same state
it returns the same move (hard: when it runs a fixed number of samples instead of a time budget).
"""

from __future__ import annotations

import random
import time

from ..engine.cards import RANK
from ..engine.game import CAPTURE, STEAL, TRAIL, Game, Move
from ..engine.moves import legal, step
from ..engine.view import View
from .knowledge import (
    MAX_RANK,
    Unseen,
    deal_hidden,
    declined,
    determinize,
    distinct_moves,
    legal_moves_of,
)
from .medium import best_move, fast_move, holding_probabilities, opponents_cards


class NoMove(ValueError):
    """The policy was asked to move when its seat has no move (not its turn, or game over)."""


def _moves(view: View) -> list[Move]:
    if not isinstance(view, View):
        raise TypeError(f"a policy takes a View, not {type(view).__name__}")
    moves = legal_moves_of(view)
    if not moves:
        raise NoMove("it is not this seat's turn to move")
    return moves


class Policy:
    name = "policy"

    def choose(self, view: View, rng: random.Random) -> Move:
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class Easy(Policy):
    """A uniformly random legal move."""

    name = "easy"

    def choose(self, view: View, rng: random.Random) -> Move:
        moves = _moves(view)
        return moves[int(rng.random() * len(moves))]


class Naive(Policy):
    """The reference: steal the biggest bundle; else the capture that takes the most cards; else
    trail a random card. Not offered to players."""

    name = "naive"

    def choose(self, view: View, rng: random.Random) -> Move:
        moves = _moves(view)
        steals = [m for m in moves if m.action == STEAL]
        if steals:

            def loot(m: Move) -> int:
                assert m.target_seat is not None  # a steal always names its victim
                return view.bundles[m.target_seat][m.target_bundle or 0].size

            return max(steals, key=loot)
        captures = [m for m in moves if m.action == CAPTURE]
        if captures:
            pool = [RANK[c] for c in view.pool]
            return max(captures, key=lambda m: pool.count(RANK[m.card]))
        trails = [m for m in moves if m.action == TRAIL]
        return trails[int(rng.random() * len(trails))]


def view_probabilities(view: View, unseen: Unseen | None = None) -> list[float]:
    """P(the players who move before this seat again hold rank r), from the view."""
    unseen = unseen or Unseen(view)
    held = opponents_cards(
        view.hand_sizes, view.seat, view.players, view.stock_size, view.playoff == 0
    )
    return holding_probabilities(unseen.expected, unseen.hidden, held)


def view_bundles(view: View) -> list[list[tuple[int, int]]]:
    return [
        [(RANK[b.top], b.size) if b.size and b.top is not None else (0, 0) for b in seat]
        for seat in view.bundles
    ]


class Medium(Policy):
    """Card counting: immediate margin less the expected cost of what the move exposes."""

    name = "medium"

    def choose(self, view: View, rng: random.Random) -> Move:
        moves = _moves(view)
        if len(moves) == 1:
            return moves[0]
        rules = view.rules
        return best_move(
            moves,
            view.seat,
            view.hand,
            view.pool,
            view_bundles(view),
            view_probabilities(view),
            rules.jack if rules.wild_jacks else 0,
            rules.stealing,
            rng,
        )


DEFAULT_BUDGET = 0.100  # seconds per decision
MARGIN_WEIGHT = 0.02  # a playout scores win share + this x (our bundle - best other bundle)


class Hard(Policy):
    """Determinized search. Each sample deals the hidden cards anew (opponents' hands and the
    stock order, from the unseen cards, opponents less likely to hold the ranks they just passed
    up), then every distinct move is played out to the end with the medium heuristic for every
    player and scored win share + MARGIN_WEIGHT x (our bundle - the best other bundle). All moves
    are tried on the same samples; after PRUNE_AFTER samples, moves clearly worse than the leader
    (on the paired differences) get no more playouts. The best average wins.

    `budget`: seconds per decision, checked after every playout once every move has had one.
    `samples`: a fixed number of samples instead, which makes the choice deterministic for a
    given rng; when both are given, whichever comes first.
    """

    name = "hard"

    def __init__(self, budget: float | None = DEFAULT_BUDGET, samples: int | None = None):
        if budget is None and samples is None:
            raise ValueError("give a time budget, a number of samples, or both")
        self.budget = budget
        self.samples = samples

    def choose(self, view: View, rng: random.Random) -> Move:
        started = time.perf_counter()
        moves = _moves(view)
        options = distinct_moves(moves)
        if len(options) == 1:
            return options[0]
        deadline = None if self.budget is None else started + self.budget
        unseen = Unseen(view)
        weights = declined(view)
        seat = view.seat
        k = len(options)
        scores: list[list[float]] = [[] for _ in range(k)]
        alive = list(range(k))
        hand_counts = [0] * MAX_RANK
        for c in view.hand:
            hand_counts[RANK[c]] += 1
        sample = 0
        done = False
        while not done:
            hidden = deal_hidden(view, unseen.sample_hidden(rng), weights, rng)
            root = determinize(view, hidden)
            counts = hand_counts[:]
            for c in hidden:
                counts[RANK[c]] += 1
            total = len(hidden) + len(view.hand)
            for i in alive:
                scores[i].append(playout(root.copy(), options[i], counts[:], total, seat))
                if deadline is not None and sample and time.perf_counter() >= deadline:
                    done = True
                    break
            else:
                sample += 1
                if sample >= PRUNE_AFTER and len(alive) > 1:
                    alive = _survivors(scores, alive, sample)
            if self.samples is not None and sample >= self.samples:
                done = True
            if deadline is not None and time.perf_counter() >= deadline:
                done = True
        best = max(range(k), key=lambda i: (len(scores[i]) >= sample, _mean(scores[i])))
        return options[best]


PRUNE_AFTER = 4  # samples before clearly worse moves stop getting playouts
PRUNE_Z = 2.5  # how clearly: the paired mean difference, in standard errors


def _mean(values: list[float]) -> float:
    return sum(values) / len(values) if values else -1e9


def _survivors(scores: list[list[float]], alive: list[int], n: int) -> list[int]:
    """The moves not clearly worse than the leader, on the `n` samples they all played."""
    leader = max(alive, key=lambda i: _mean(scores[i][:n]))
    top = scores[leader][:n]
    keep = []
    for i in alive:
        if i != leader:
            diffs = [a - b for a, b in zip(top, scores[i][:n], strict=True)]
            mean = sum(diffs) / n
            var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
            if mean > 0 and mean * mean * n > PRUNE_Z * PRUNE_Z * max(var, 1e-12):
                continue
        keep.append(i)
    return keep


def playout(g: Game, move: Move, counts: list[int], total: int, seat: int) -> float:
    """Play `move`, then medium for everybody to the end; `seat`'s score."""
    while True:
        events = step(g, move)
        counts[RANK[move.card]] -= 1
        total -= 1
        if len(events) > 2:
            for e in events:
                if e["type"] == "pool_refilled":
                    for c in e["cards"]:
                        counts[RANK[c]] -= 1
                    total -= e["n"]
        bonus = events[1].get("sweep_bonus")
        if bonus:
            counts[RANK[bonus]] -= 1
            total -= 1
        if g.result is not None or g.turn is None:
            break
        moves = legal(g)
        move = moves[0] if len(moves) == 1 else fast_move(g, moves, counts, total)
    return score(g, seat)


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


POLICIES: dict[str, type[Policy]] = {"easy": Easy, "medium": Medium, "hard": Hard, "naive": Naive}
DIFFICULTIES = ("easy", "medium", "hard")  # what players may pick; naive is a reference only


def get_policy(name: str, **options: float | int | None) -> Policy:
    """A policy by name: easy, medium, hard (options: budget, samples) or naive."""
    try:
        cls = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}") from None
    return cls(**options)
