"""Hints: the medium AI's suggestion for a player's turn."""

from __future__ import annotations

import random

from bot.engine import Game, Move, active, view

from .timers import AUTO_PLAYER


def suggest(game: Game) -> Move:
    """A hint: the medium AI's move for the seat to act, from that seat's view, seeded by the
    position (the same position always gets the same hint)."""
    g = active(game)
    seat = g.turn
    assert seat is not None, "the game is over"
    rng = random.Random(f"hint/{game.seed}/{len(game.playoffs)}/{len(g.moves)}/{seat}")
    # The same medium AI the bot plays absent seats with (the timers' stand-in).
    return AUTO_PLAYER.choose(view(game, seat), rng)
