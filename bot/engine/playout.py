"""Random legal games: the simulator's and the tests' workhorse."""

from __future__ import annotations

import random

from .game import Game, active, new_game
from .moves import legal, play, step
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
    rand = rng.random  # faster than rng.choice, and as deterministic
    while game.result is None:
        if game.playoffs:
            moves = legal(active(game))
            play(game, moves[int(rand() * len(moves))])
        else:  # the common case, without play()'s playoff bookkeeping
            moves = legal(game)
            step(game, moves[int(rand() * len(moves))])
    return game
