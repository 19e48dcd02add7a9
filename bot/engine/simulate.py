"""Play random legal games from the command line.

    python -m bot.engine.simulate --games 2000 --players 4 --rules standard --json

This is the engine's only module that does I/O (printing, files); the rules never import it.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

from .playout import random_game
from .record import record
from .rules import PRESETS, preset


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot.engine.simulate", description=__doc__)
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    parser.add_argument("--seed", type=int, default=0, help="game i is dealt from seed S+i")
    parser.add_argument("--records", type=Path, help="write one JSON record per game here")
    parser.add_argument("--json", action="store_true", help="print one JSON line")
    args = parser.parse_args(argv)
    if args.games < 1:
        parser.error("--games must be at least 1")

    rules = preset(args.rules)
    totals = [0] * args.players
    games = []
    started = time.perf_counter()
    for i in range(args.games):
        # The dealer rotates so that no seat is favoured by always playing first.
        game = random_game(rules, args.players, args.seed + i, dealer=i % args.players)
        assert game.result is not None  # random_game plays to the end
        for seat, size in enumerate(game.result.bundle_sizes):
            totals[seat] += size
        if args.records:
            games.append(game)
    seconds = time.perf_counter() - started

    if args.records:  # written after timing, so the speed figure is the engine's alone
        args.records.mkdir(parents=True, exist_ok=True)
        for i, game in enumerate(games):
            path = args.records / f"game-{args.seed + i:06d}.json"
            path.write_text(json.dumps(record(game), separators=(",", ":")))

    summary = {
        "rules": args.rules,
        "players": args.players,
        "games": args.games,
        "seconds": round(seconds, 4),
        "games_per_s": round(args.games / seconds, 1),
        "mean_bundle_sizes": [round(t / args.games, 2) for t in totals],
    }
    if args.json:
        print(json.dumps(summary))
    else:
        print(
            f"{args.games} {args.rules} games, {args.players} players: "
            f"{summary['seconds']} s, {summary['games_per_s']} games/s"
        )
        print("mean bundle size per seat:", ", ".join(map(str, summary["mean_bundle_sizes"])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
