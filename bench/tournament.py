"""A whole tournament of AI entrants through the session layer, on SQLite.

    python -m bench.tournament [--json] [--players 256] [--rounds 7] [--size 4] [--format swiss]

PLAYERS AI entrants ("bot:<level>:<n>", easy, medium and hard in turn) sign up for a Swiss
tournament of ROUNDS rounds at tables of SIZE (or a knockout), which is started and played to
its champion by the bot's own session layer (bot/session/tournament/ TournamentOps in a
`Sessions` on a SQLite file in a temporary folder, opened as the bot opens it): each table an
ordinary game, saved move by move, its AI seats played by their policies with no delay, its
result recorded, each round seated from the standings. Only Discord is left out: a table's
thread is a number (the adapter makes real ones), and nothing is posted.

Printed: the total time from the start to the champion; the time to seat a round, median and
max, from the moment the round before ended (its last table's result, the RoundOver
announcement; for round 1, the start) to every table of the round started in its thread
(RoundStarted), so the domain's seating, storage's writes and the games' starts; and the
domain's seating alone (seat_swiss / seat_knockout on the stored results), median and max.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import tempfile
import time
from pathlib import Path

from bot.domain import tournament as tour
from bot.domain.options import Options
from bot.session import Sessions
from bot.session import events as ev
from bot.session.tournament import result_of
from bot.storage import Storage

LEVELS = ("easy", "medium", "hard")


async def run(players: int, rounds: int, size: int, fmt: str) -> dict[str, object]:
    with tempfile.TemporaryDirectory() as folder:
        storage = await Storage.open(Path(folder) / "bench.db")
        options = Options(turn_seconds=None, bot_delay=0.0, away_delay=0.0)
        sessions = Sessions(storage, options=options)
        ops = sessions.tournaments
        threads = iter(range(10**6, 10**9))

        async def thread(row: object, round: int, table_no: int, entrants: object) -> int:
            return next(threads)

        marks: dict[str, float] = {}
        done = asyncio.Event()

        async def heard(event: ev.TournamentEvent) -> None:
            now = time.perf_counter()
            if isinstance(event, ev.RoundStarted):
                marks[f"started:{event.round}"] = now
            elif isinstance(event, ev.RoundOver):
                marks[f"over:{event.round}"] = now
            else:
                marks["ended"] = now
                done.set()

        ops.threads, ops.announce = thread, heard
        row = await ops.create(1, 10, "900", "Bench Cup", format=fmt, table_size=size,
                               rounds=rounds if fmt == "swiss" else None)  # fmt: skip
        per_level = -(-players // len(LEVELS))
        for level in LEVELS:
            await ops.fill_with_ai(row.id, 1, per_level, level)
        entrants = await storage.tournaments.entrants(row.id)
        for extra in entrants[players:]:  # exactly PLAYERS
            await storage.tournaments.leave(row.id, extra.entrant)
        t0 = time.perf_counter()
        marks["over:0"] = t0
        row = await ops.start(row.id)
        await asyncio.wait_for(done.wait(), timeout=3600)
        total = time.perf_counter() - t0
        played = row.rounds if fmt == "swiss" else max(
            int(k.split(":")[1]) for k in marks if k.startswith("started:")
        )  # fmt: skip
        seat = [marks[f"started:{n}"] - marks[f"over:{n - 1}"] for n in range(1, played + 1)]
        # The domain's seating alone, on the stored results before each round.
        course = await storage.tournaments.tables(row.id)
        ents = [
            tour.Entrant(e.entrant, e.rating) for e in await storage.tournaments.entrants(row.id)
        ]
        pure = []
        for n in range(1, played + 1):
            before = [[t for t in course if t.round == r and t.table_no] for r in range(1, n)]
            results = [[result_of(t) for t in r] for r in before]
            byes = [[e for t in course if t.round == r and not t.table_no for e in t.entrants]
                    for r in range(1, n)]  # fmt: skip
            a = time.perf_counter()
            if fmt == "swiss":
                tour.seat_swiss(ents, results, byes, set(), size, n)
            else:
                tour.seat_knockout(ents, results, byes, set(), size, n)
            pure.append(time.perf_counter() - a)
        games = len([t for t in course if t.table_no])
        finished = await storage.tournaments.get(row.id)
        assert finished is not None
        champion = finished.settings.get("champion")
        await sessions.close()
        await storage.close()
    return {
        "players": players, "rounds": played, "size": size, "format": fmt, "games": games,
        "total_seconds": round(total, 2),
        "seat_round_median": round(statistics.median(seat), 4),
        "seat_round_max": round(max(seat), 4),
        "seating_alone_median": round(statistics.median(pure), 4),
        "seating_alone_max": round(max(pure), 4),
        "champion": champion,
    }  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=256)
    parser.add_argument("--rounds", type=int, default=7)
    parser.add_argument("--size", type=int, default=4)
    parser.add_argument("--format", choices=("swiss", "knockout"), default="swiss")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    out = asyncio.run(run(args.players, args.rounds, args.size, args.format))
    if args.json:
        print(json.dumps(out))
        return
    print(f"{out['players']} AI entrants, {out['format']} of {out['rounds']} rounds at tables "
          f"of {out['size']}: {out['games']} games")  # fmt: skip
    print(f"total, start to champion: {out['total_seconds']} s")
    print(f"seat a round (seated, stored, games started): median {out['seat_round_median']} s, "
          f"max {out['seat_round_max']} s")  # fmt: skip
    print(f"the seating alone: median {out['seating_alone_median']} s, "
          f"max {out['seating_alone_max']} s")  # fmt: skip


if __name__ == "__main__":
    main()
