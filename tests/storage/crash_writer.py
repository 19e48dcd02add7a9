"""Plays and saves random games as fast as it can, for test_crash, which kills it mid-write.
Saves as the session does: each move in its own row, the state beside it without moves;
four games at once, so moves share group commits.

    python crash_writer.py DB_PATH SEED

Prints "ready", then "move GAME N" after each committed move and "finished GAME" after each
committed finish (which owes an end screen to the outbox). Resumes the active game it finds,
as the bot does after a crash.
"""

from __future__ import annotations

import asyncio
import random
import sys

from bot.engine import active, apply, from_dict, legal_moves, new_game, preset, to_dict
from bot.engine.serialize import move_to_dict
from bot.session.models import with_moves, without_moves
from bot.storage import Storage
from tests.storage.play import finish

SEATS = ["1", "2", "3"]
CHANNELS = range(1, 5)  # games played at once


async def player(storage: Storage, channel: int, rng: random.Random) -> None:
    """Plays game after game in its channel, resuming the one a crash left there."""
    while True:
        live = [r for r in await storage.games.live() if r.channel_id == channel]
        if live:
            row = live[0]
            state = with_moves(row.state, await storage.games.moves(row.id))
            game, version = from_dict(state), row.version
        else:
            game = new_game(preset("standard"), SEATS, seed=rng.randrange(10**9))
            row = await storage.games.create(
                1, channel, SEATS[0], {}, SEATS, state=without_moves(to_dict(game))
            )
            version = 0
        while game.result is None:
            seat = active(game).turn
            move = rng.choice(legal_moves(game))
            game, _events = apply(game, move)
            version += 1
            await storage.games.save_move(
                row.id, without_moves(to_dict(game)), move_to_dict(seat, move, False), version
            )
            print("move", row.id, version, flush=True)
        await finish(
            storage,
            row.id,
            game,
            names={s: f"player {s}" for s in SEATS},
            owed=[("end_screen", {"game": row.id})],
        )
        print("finished", row.id, flush=True)


async def main(path: str, seed: int) -> None:
    storage = await Storage.open(path)
    print("ready", flush=True)
    # Several games at once, so their moves are committed in shared batches (group commit).
    await asyncio.gather(
        *(player(storage, channel, random.Random(seed * 100 + channel)) for channel in CHANNELS)
    )


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
