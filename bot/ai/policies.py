"""The AI policies. Each one is called as `policy.choose(view, rng) -> Move`.

A policy is handed only its seat's `View` (which includes the public history of played cards)
and a `random.Random`; it never sees a `Game`. Given the same view and an rng in the same state
it returns the same move (hard: when it runs a fixed number of samples instead of a time budget).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable

from ..engine.cards import RANK
from ..engine.game import CAPTURE, STEAL, TRAIL, Game, Move
from ..engine.view import View
from .inference import TrailChecks, draw_deal
from .knowledge import (
    MAX_RANK,
    Unseen,
    declined,
    determinize,
    distinct_moves,
    legal_moves_of,
    redeal,
)
from .medium import best_move, holding_probabilities, opponents_cards
from .rollout import playout, solve


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
# Hard's work, in moves played in its playouts, that fits DEFAULT_BUDGET on the project's
# machine: 9,000 measured 2026-11-30; times 1.36 for the faster playouts of 2026-12-05; times
# 1.89 for the playouts on ranks (later that day). Each a ratio of CPU time measured side by
# side at fixed work (docs/ai.md), rounded down. The fixed-work stand-in for 100 ms, on a
# machine where the yardstick engine plays ~4,900 games/s (a faster one fits more: docs/ai.md).
WORK_100MS = 22000


class Hard(Policy):
    """Determinized search over this seat's information set, by sequential halving.

    Each sample deals the hidden cards anew (opponents' hands and the stock order, from the
    unseen cards, opponents less likely to hold the ranks they just passed up, and redrawn
    until medium holding them would have made their latest trails: `inference.py`) and plays
    every move still in the running out to the end, with the medium heuristic for every player,
    our own later moves seeing the cards dealt to the others (`rollout.sighted`; once the stock
    is empty: every line of our own moves, the best one counting); a
    playout scores win share + MARGIN_WEIGHT x (our bundle - the best other bundle). The moves
    share their samples, so they are compared on the same deals. The budget is split into
    ceil(log2 k) rounds for k distinct moves; at the end of each round the worse half of the
    moves (by their total over the shared samples) is dropped, and the best of the last ones
    is played.

    The budget, whichever runs out first:
    - `budget`: seconds per decision (production). The clock is read before every move of
      every playout, so a decision overruns it by at most one move of the engine; a sample
      cut short is not counted.
    - `work`: moves played in playouts (the arena's fixed work; deterministic for a given rng).
    - `samples`: whole samples (deterministic too).
    If not even one sample is complete, the move is medium's.

    `last_work` holds the moves played in playouts and the complete samples of the last
    decision. `clock` is for tests, and `memo=False` (search a repeated endgame deal anew).
    """

    name = "hard"

    def __init__(
        self,
        budget: float | None = DEFAULT_BUDGET,
        work: int | None = None,
        samples: int | None = None,
        clock: Callable[[], float] = time.perf_counter,
        memo: bool = True,
    ):
        if budget is None and work is None and samples is None:
            raise ValueError("give a time budget, an amount of work, a number of samples")
        self.budget = budget
        self.work = work
        self.samples = samples
        self.clock = clock
        self.memo = memo
        self.last_work = (0, 0)

    def choose(self, view: View, rng: random.Random) -> Move:
        clock = self.clock
        started = clock()
        moves = _moves(view)
        options = distinct_moves(moves)
        self.last_work = (0, 0)
        if len(options) == 1:
            return options[0]
        budget, work, samples = self.budget, self.work, self.samples
        deadline = None if budget is None else started + budget
        unseen = Unseen(view)
        weights = declined(view)
        checks = TrailChecks(view, unseen.expected)
        seat = view.seat
        k = len(options)
        rounds = (k - 1).bit_length()  # ceil(log2 k): halvings until one move is left
        totals = [0.0] * k
        alive = list(range(k))
        hand_counts = [0] * MAX_RANK
        for c in view.hand:
            hand_counts[RANK[c]] += 1
        steps = 0
        complete = 0

        def progress() -> float:
            done = 0.0
            if budget is not None:
                done = (clock() - started) / budget
            if work is not None:
                done = max(done, steps / work)
            if samples is not None:
                done = max(done, complete / samples)
            return done

        # With the stock empty nothing more is dealt: search every line of our own moves.
        run = solve if view.stock_size == 0 else playout
        # The search's answers by the opponents' hands (ranks, in order: medium's ties go to
        # the first card), which decide everything then; a repeat counts its work again, so
        # the moves chosen at fixed work are those of searching it anew.
        solved: dict[tuple[int, tuple[tuple[int, ...], ...]], tuple[float, int]] = {}
        endgame = run is solve and self.memo
        halvings = 0
        stop = False
        template: Game | None = None
        while not stop:
            hidden = draw_deal(view, unseen, weights, checks, rng)
            if template is None:
                root = template = determinize(view, hidden)
            else:
                root = redeal(template, view, hidden)
            counts = hand_counts[:]
            for c in hidden:
                counts[RANK[c]] += 1
            total = len(hidden) + len(view.hand)
            results = []
            deal = (
                tuple(tuple(RANK[c] for c in h) for s, h in enumerate(root.hands) if s != seat)
                if endgame
                else ()
            )
            for i in alive:
                out = solved.get((i, deal)) if endgame else None
                if out is None:
                    out = run(root.copy(), options[i], counts[:], total, seat, deadline, clock)
                    if out is None:  # out of time inside the playout
                        stop = True
                        break
                    if endgame:
                        solved[i, deal] = out
                value, n = out
                steps += n
                results.append(value)
                if complete and progress() >= 1.0:
                    stop = True
                    break
            else:
                complete += 1
                for i, value in zip(alive, results, strict=True):
                    totals[i] += value
                done = progress()
                while len(alive) > 1 and halvings + 1 < rounds and done * rounds >= halvings + 1:
                    alive = sorted(alive, key=lambda i: -totals[i])[: (len(alive) + 1) // 2]
                    alive.sort()
                    halvings += 1
                if done >= 1.0 or len(alive) == 1:
                    stop = True
        self.last_work = (steps, complete)
        if not complete:
            return Medium().choose(view, rng)
        return options[max(alive, key=lambda i: totals[i])]


POLICIES: dict[str, type[Policy]] = {"easy": Easy, "medium": Medium, "hard": Hard, "naive": Naive}
DIFFICULTIES = ("easy", "medium", "hard")  # what players may pick; naive is a reference only


def get_policy(name: str, **options: float | int | None) -> Policy:
    """A policy by name: easy, medium, hard (options: budget, work, samples) or naive."""
    try:
        cls = POLICIES[name]
    except KeyError:
        raise ValueError(f"unknown policy {name!r}; choose one of {', '.join(POLICIES)}") from None
    return cls(**options)
