"""Plays and saves random games as fast as it can, for test_crash, which kills it mid-write.
Saves as the session does: each move in its own row, the state beside it without moves;
four games at once, so moves share group commits.

    python crash_writer.py DB_PATH SEED
    python crash_writer.py --fork    (then a line ["DB_PATH", SEED, "OUT"] per writer)

Prints "ready", then "move GAME N" after each committed move and "finished GAME" after each
committed finish (which owes an end screen to the outbox). Resumes the active game it finds,
as the bot does after a crash.
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import sys
import traceback

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


def forks() -> None:
    """--fork: the imports once (a second of CPU each time), then a writer forked off for each
    line ["DB_PATH", SEED, "OUT"] on stdin, printing into OUT; its pid is printed here. A line
    ["reap", PID] waits until that writer is gone (killed by the test), then prints "reaped"."""
    print("imported", flush=True)
    for line in sys.stdin:
        order = json.loads(line)
        if order[0] == "reap":
            os.waitpid(order[1], 0)
            print("reaped", flush=True)
            continue
        path, seed, out = order
        pid = os.fork()
        if pid == 0:  # the writer, as `python crash_writer.py DB_PATH SEED > OUT` runs it
            sys.stdout = open(out, "w")  # noqa: SIM115 (the process ends with os._exit)
            try:
                asyncio.run(main(path, seed))
            except BaseException:
                traceback.print_exc(file=sys.stdout)  # where the test looks
                sys.stdout.flush()
            os._exit(1)
        print(pid, flush=True)


if __name__ == "__main__":
    if sys.argv[1:] == ["--fork"]:
        forks()
    else:
        asyncio.run(main(sys.argv[1], int(sys.argv[2])))
