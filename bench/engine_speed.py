"""How fast the engine plays random games: the figure the README reports.

    python bench/engine_speed.py [--games N] [--repeats R] [--json]

Runs R rounds of N random 2-player standard games (the same seeds each round) and prints the
median games/s and moves/s, with the spread. Shared machines are noisy: trust the median.
"""

from __future__ import annotations

import argparse
import json
import statistics
import time

from bot.engine import preset
from bot.engine.playout import random_game


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=7)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    rules = preset(args.rules)
    rates, move_rates = [], []
    for _ in range(args.repeats):
        moves = 0
        started = time.perf_counter()
        for seed in range(args.games):
            moves += len(random_game(rules, args.players, seed).moves)
        seconds = time.perf_counter() - started
        rates.append(args.games / seconds)
        move_rates.append(moves / seconds)
    figures = {
        "rules": args.rules,
        "players": args.players,
        "games": args.games,
        "repeats": args.repeats,
        "median_games_per_s": round(statistics.median(rates)),
        "min_games_per_s": round(min(rates)),
        "max_games_per_s": round(max(rates)),
        "median_moves_per_s": round(statistics.median(move_rates)),
    }
    if args.json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>20}: {value}")


if __name__ == "__main__":
    main()
