"""How long a replay step takes: playing a finished game's record again, and drawing a step.

    python -m bench.replay [--games N] [--players P] [--json]

Plays N games out with the engine (every deck family, P players), takes their records, and
times what a Replay click costs when nothing is cached: `replayed` (every state of the game
from its record) once per game, and `picture` (the table at a step with every hand face up:
layout, drawing, PNG) for every step of every game. Prints p50 / p95 / max in ms of wall time
and p50 / p95 of the thread's CPU time, and the PNG sizes. The budget is the table picture's
(docs/performance.md): p95 ≤ 30 ms a step.
"""

from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from bot.engine import new_game, record
from bot.engine.playout import play_out
from bot.engine.record import RecordDict
from bot.ui.picture import SAMPLE_NAMES, SAMPLE_SEATS
from bot.ui.replay import picture, replayed

from ._figures import percentile, sample_rules


def records(games: int, players: int) -> list[RecordDict]:
    out = []
    for i in range(games):
        game = new_game(sample_rules(i), SAMPLE_SEATS[:players], seed=i)
        out.append(record(play_out(game, random.Random(i))))
    return out


def summary(xs: list[float]) -> dict[str, float]:
    return {
        "n": len(xs),
        "p50": round(statistics.median(xs), 2),
        "p95": round(percentile(xs, 0.95), 2),
        "max": round(max(xs), 2),
    }


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=8)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    recs = records(args.games, args.players)
    picture(replayed(0, recs[0]), 0, SAMPLE_NAMES, "en")  # warm-up
    states, wall, cpu, sizes = [], [], [], []
    for n, rec in enumerate(recs):
        t0 = time.perf_counter()
        r = replayed(n, rec)
        states.append((time.perf_counter() - t0) * 1000)
        lang = ("en", "es", "fr", "it")[n % 4]
        for step in range(r.last + 1):
            w0, c0 = time.perf_counter(), time.thread_time()
            png = picture(r, step, SAMPLE_NAMES, lang)
            wall.append((time.perf_counter() - w0) * 1000)
            cpu.append((time.thread_time() - c0) * 1000)
            sizes.append(len(png) / 1000)
    out = {
        "games": args.games,
        "players": args.players,
        "replay_ms": summary(states),
        "step_wall_ms": summary(wall),
        "step_cpu_ms": summary(cpu),
        "png_kb": summary(sizes),
    }
    if args.json:
        print(json.dumps(out))
        return
    print(f"{args.games} games, {args.players} players, {len(wall)} steps drawn")
    for key, label in (("replay_ms", "replay a record (ms)"), ("step_wall_ms", "step, wall (ms)"),
                       ("step_cpu_ms", "step, CPU (ms)"), ("png_kb", "PNG (KB)")):  # fmt: skip
        s = out[key]
        print(f"{label:24} p50 {s['p50']:7.2f}  p95 {s['p95']:7.2f}  max {s['max']:7.2f}")


if __name__ == "__main__":
    main()
