"""Finished games for the replay tests: made by the engine, finished through storage."""

from __future__ import annotations

import random

from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from tests.storage.play import finish as finish_game

UNKNOWN = (
    "I have no replay of that game here: only games finished here can be replayed. "
    "`/steal history` lists them."
)


async def finish(env, channel, seats, seed: int, names: dict[str, str]) -> tuple[int, dict]:
    """A game played out by the engine and finished through storage, as the session layer
    does at a game's end. Returns its id and record."""
    game = play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed))
    storage = env.bot.storage
    row = await storage.games.create(
        channel.guild.id, channel.id, seats[0], {}, state=to_dict(game)
    )
    assert await finish_game(storage, row.id, game, names=names)
    entry = await storage.history.get(row.id)
    return row.id, entry.record
