"""Playing engine games move by move, as the bot will, for the storage tests."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Game, active, apply, legal_moves, new_game, preset
from bot.engine.serialize import move_to_dict


def deal(players: int = 3, seed: int = 1, rules: str = "standard") -> Game:
    return new_game(preset(rules), [str(1000 + i) for i in range(players)], seed=seed)


def step(game: Game, rng: random.Random) -> tuple[Game, dict[str, Any]]:
    """One random legal move: the new game and the move as saved."""
    seat = active(game).turn
    move = rng.choice(legal_moves(game))
    game, _events = apply(game, move)
    return game, move_to_dict(seat, move, False)


def moves_in(state: dict[str, Any]) -> int:
    """Moves in a saved state, playoffs included: what games.version counts."""
    return len(state["moves"]) + sum(len(p["moves"]) for p in state["playoffs"])
