"""Finished games as the stats tests record them."""

from __future__ import annotations

import random

from bot.engine import (
    new_game,
    preset,
)
from bot.engine.playout import play_out, random_game

SHARED = preset("standard").replace(tiebreak="shared")


def find_game(players: int, want, rules=SHARED, seats=None):
    """The first random game (by seed) whose result passes `want`."""
    for seed in range(5000):
        game = random_game(rules, players, seed)
        if want(game.result):
            if seats:
                game = play_out(new_game(rules, seats, seed=seed), random.Random(seed))
            return game
    raise AssertionError("no such game in 5000 seeds")


def clear_win(result):
    return all(len(place) == 1 for place in result.ranking)
