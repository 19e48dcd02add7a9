"""Games to test on, for the tests of several packages."""

from __future__ import annotations

import random

from bot.engine import Game, Rules, legal_moves, new_game, play


def positions(rules: Rules, players: int, seed: int) -> list[Game]:
    """Every position of one random game (playoffs included), one per move."""
    rng = random.Random(seed)
    game = new_game(rules, [f"p{i}" for i in range(players)], seed=seed, dealer=seed % players)
    out = []
    while game.result is None:
        out.append(game)
        moves = legal_moves(game)
        game, _ = play(game.copy(), moves[int(rng.random() * len(moves))])
    return out
