"""Random legal games: the simulator's and the tests' workhorse."""

from __future__ import annotations

import random

from .ending import after_playoff
from .game import Game, active, new_game
from .moves import advance, legal_with, tables
from .rules import Rules


def random_game(rules: Rules, players: int, seed: int, dealer: int = 0) -> Game:
    """Deal from `seed` and play uniformly random legal moves to the end."""
    game = new_game(rules, SEATS[:players], seed=seed, dealer=dealer)
    return _finish_randomly(game, random.Random(seed))


def play_out(game: Game, rng: random.Random) -> Game:
    """Finish a copy of `game` with random legal moves; the game given is left as it was."""
    return _finish_randomly(game.copy(), rng)


SEATS = ("p0", "p1", "p2", "p3")


def _finish_randomly(game: Game, rng: random.Random) -> Game:
    # The fast path: the rules' tables looked up once, moves played without events. It makes
    # exactly the moves that `apply` would, in the same order (tests/engine/test_playout.py).
    rand = rng.random  # faster than rng.choice, and as deterministic
    rule_tables = tables(game.rules)
    while game.result is None:
        g = active(game)  # the game itself, or its running playoff
        while g.turn is not None:
            moves = legal_with(g, rule_tables)
            advance(g, moves[int(rand() * len(moves))])
        if g is not game:  # a playoff ended: settle the game, or start another playoff
            after_playoff(game, [])
    return game
