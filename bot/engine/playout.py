"""Random legal games: the simulator's and the tests' workhorse."""

from __future__ import annotations

import random

from .game import Game, active, new_game
from .moves import legal, play, step
from .rules import Rules


def random_game(rules: Rules, players: int, seed: int, dealer: int = 0) -> Game:
    """Deal from `seed` and play uniformly random legal moves to the end."""
    game = new_game(rules, [f"p{i}" for i in range(players)], seed=seed, dealer=dealer)
    return play_out(game, random.Random(seed))


def play_out(game: Game, rng: random.Random) -> Game:
    """Finish a copy of `game` with random legal moves."""
    game = game.copy()
    rand = rng.random  # faster than rng.choice, and as deterministic
    while game.result is None:
        if game.playoffs:
            moves = legal(active(game))
            play(game, moves[int(rand() * len(moves))])
        else:  # the common case, without play()'s playoff bookkeeping
            moves = legal(game)
            step(game, moves[int(rand() * len(moves))])
    return game
