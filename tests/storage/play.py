"""Playing engine games move by move, as the bot will, for the storage tests."""

from __future__ import annotations

import random
from typing import Any

from bot.engine import Game, active, apply, legal_moves, new_game, preset
from bot.engine.serialize import move_to_dict
from bot.session import results


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


async def finish(storage, game_id: int, game: Game, **details: Any) -> bool:
    """Finish a game as the session does (bot/session/results.py): False if finished before."""
    row = await storage.games.get(game_id)
    guild_id = row.guild_id if row else 0  # no such game: storage raises GameNotFound
    return await results.finish(storage, game_id, guild_id, game, **details) is not None


async def finish_then(storage, game_id: int, game: Game, state, *, deadline=None, options=None,
                      **details: Any) -> int | None:  # fmt: skip
    """finish, and the match's next game in the same transaction: its id, or None."""
    row = await storage.games.get(game_id)
    guild_id = row.guild_id if row else 0
    then = (state, deadline, options)
    return await results.finish(storage, game_id, guild_id, game, then=then, **details)
