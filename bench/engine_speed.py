"""How fast the engine plays random games: the figure docs/performance.md reports.

    python -m bench.engine_speed [--games N] [--rounds R] [--yardstick PATH] [--json]

Each round plays N random games (2-player standard by default, the same seeds every round);
the figures printed are the medians over the rounds, with the spread. Shared machines are
noisy: trust the median.

With --yardstick PATH (the folder of the minimal reference engine, e.g. ../shared/yardstick),
every round runs the two engines side by side, A B B A: ours, the yardstick twice, ours again,
each yardstick run lasting as long as our first run did. The round's ratio is our games/s over
the yardstick's, both from their two runs. Absolute speeds on a shared machine swing by 2x
from one run to the next; only this ratio, measured in one run, compares across runs.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import time
from pathlib import Path

from bot.engine import preset
from bot.engine.playout import random_game

from ._figures import show


def ours(rules_name: str, players: int, games: int) -> tuple[float, int]:
    """Seconds and moves for `games` random games, dealt from seeds 0 .. games-1."""
    rules = preset(rules_name)
    moves = 0
    started = time.perf_counter()
    for seed in range(games):
        moves += len(random_game(rules, players, seed).moves)
    return time.perf_counter() - started, moves


def yardstick(folder: Path, seconds: float) -> tuple[int, float]:
    """Games and seconds the yardstick played, run for about `seconds` in its own process."""
    done = subprocess.run(
        [sys.executable, str(folder / "speed.py"), "--seconds", f"{seconds:.4f}", "--json"],
        capture_output=True, text=True, timeout=600, check=True,
    )  # fmt: skip
    out = json.loads(done.stdout)
    # It prints its games and its rate; the time follows (the rate is rounded, close enough).
    return out["games"], out["games"] / max(out["games_per_s"], 1)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000, help="games per run of our engine")
    parser.add_argument("--rounds", "--repeats", dest="rounds", type=int, default=7)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--yardstick", type=Path, help="the yardstick's folder: compare A B B A")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    if args.yardstick is not None:
        if not (args.yardstick / "speed.py").is_file():
            parser.error(f"no speed.py in {args.yardstick}")
        if (args.players, args.rules) != (2, "standard"):
            parser.error("the yardstick plays only 2-player standard games")

    rates, move_rates, yard_rates, ratios = [], [], [], []
    for _ in range(args.rounds):
        if args.yardstick is None:
            seconds, moves = ours(args.rules, args.players, args.games)
            games = args.games
        else:
            first, moves1 = ours(args.rules, args.players, args.games)
            y1_games, y1_seconds = yardstick(args.yardstick, first)
            y2_games, y2_seconds = yardstick(args.yardstick, first)
            second, moves2 = ours(args.rules, args.players, args.games)
            seconds, moves, games = first + second, moves1 + moves2, 2 * args.games
            yard_rate = (y1_games + y2_games) / (y1_seconds + y2_seconds)
            yard_rates.append(yard_rate)
            ratios.append(games / seconds / yard_rate)
        rates.append(games / seconds)
        move_rates.append(moves / seconds)

    figures: dict[str, object] = {
        "rules": args.rules,
        "players": args.players,
        "games": args.games,
        "rounds": args.rounds,
        "median_games_per_s": round(statistics.median(rates)),
        "min_games_per_s": round(min(rates)),
        "max_games_per_s": round(max(rates)),
        "median_moves_per_s": round(statistics.median(move_rates)),
    }
    if ratios:
        figures |= {
            "yardstick_median_games_per_s": round(statistics.median(yard_rates)),
            "median_ratio": round(statistics.median(ratios), 3),
            "ratios": [round(r, 3) for r in ratios],
        }
    show(figures, args.json, 28)


if __name__ == "__main__":
    main()
