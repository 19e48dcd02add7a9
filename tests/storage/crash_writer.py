"""Plays and saves random games as fast as it can, for test_crash, which kills it mid-write.

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
from bot.storage import Storage
from tests.storage.play import finish

SEATS = ["1", "2", "3"]


async def main(path: str, seed: int) -> None:
    rng = random.Random(seed)
    storage = await Storage.open(path)
    print("ready", flush=True)
    while True:
        live = await storage.games.live()
        if live:
            row = live[0]
            game, version = from_dict(row.state), row.version
        else:
            game = new_game(preset("standard"), SEATS, seed=rng.randrange(10**9))
            row = await storage.games.create(1, 1, SEATS[0], {}, SEATS, state=to_dict(game))
            version = 0
        while game.result is None:
            seat = active(game).turn
            move = rng.choice(legal_moves(game))
            game, _events = apply(game, move)
            version += 1
            await storage.games.save_move(
                row.id, to_dict(game), move_to_dict(seat, move, False), version
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


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
