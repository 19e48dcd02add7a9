"""Pit AI policies against each other.

    python -m bot.ai.arena --games 2000 --players 2 --rules standard --policies medium,easy

Seat order matters in this game, so every shuffled deck is played once with each seat rotation:
with P players, deck i (dealt from seed S+i, dealer seat 0) is played P times, policy k sitting
in seat (k + r) mod P in rotation r. --games counts games, rounded up to whole decks.

Win share: a game's win is split between its winners (a shared win counts 1/k to each of the k
winners; ties settled by the rules' tie-break, such as the last capturer or a playoff, are not
shared). A policy named more than once (hard,medium,medium) adds up its seats: its baseline is
seats/players. The 95% confidence interval treats a deck (all its rotations) as one sample: mean
+- 1.96 standard errors over decks. Card margin: the policy's bundle minus the mean bundle of
the other players, per game. Decision time: wall-clock time of each `choose` call with at least
two legal moves, in ms (with --workers 2 both workers share the CPU with each other and anything
else running, which slows the hard policy's playouts but not its time budget; --cpu measures
them in the process's CPU time instead).

This is the AI package's only module that does I/O.
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import time
from collections.abc import Sequence
from multiprocessing import get_context
from typing import Any, TypedDict

from ..engine import PRESETS, active, new_game, play, preset, view
from ..engine.moves import legal
from .policies import POLICIES, WORK_100MS, Policy, get_policy

TIES = "a shared win counts 1/k to each of its k winners"

# One deck's work: (deck seed, policy name per seat, rules preset, hard's budget, work, samples,
# whether decision times are CPU times).
Task = tuple[int, list[str], str, float | None, int | None, int | None, bool]


class DeckResult(TypedDict):
    wins: dict[str, float]  # per policy name, its win share over the deck's rotations
    margins: dict[str, list[float]]
    times: dict[str, list[float]]  # decision times, ms
    work: dict[str, list[int]]  # hard: moves played in its playouts, per decision


def _policy(name: str, budget: float | None, work: int | None, samples: int | None) -> Policy:
    if name == "hard":
        options: dict[str, float | int | None] = {}
        if budget is not None:
            options["budget"] = budget
        if work is not None or samples is not None:
            options.update(work=work, samples=samples)
            options.setdefault("budget", None)
        return get_policy(name, **options)
    return get_policy(name)


def play_deck(task: Task) -> DeckResult:
    """Every rotation of one deck; what each policy name won, its margins and its times."""
    deck_seed, names, rules_name, budget, work, samples, cpu = task
    clock = time.process_time if cpu else time.perf_counter
    rules = preset(rules_name)
    n = len(names)
    policies = {name: _policy(name, budget, work, samples) for name in set(names)}
    works: dict[str, list[int]] = {name: [] for name in names}
    wins = dict.fromkeys(names, 0.0)
    margins: dict[str, list[float]] = {name: [] for name in names}
    times: dict[str, list[float]] = {name: [] for name in names}
    for rot in range(n):
        seat_names = [names[(s - rot) % n] for s in range(n)]
        game = new_game(rules, [f"p{s}" for s in range(n)], seed=deck_seed)
        rngs = [random.Random(f"{deck_seed}/{rot}/{s}") for s in range(n)]
        while game.result is None:
            g = active(game)
            seat = g.turn
            assert seat is not None  # the game is running
            moves = legal(g)
            name = seat_names[seat]
            v = view(game, seat)
            t0 = clock()
            move = policies[name].choose(v, rngs[seat])
            elapsed = clock() - t0
            if len(moves) > 1:
                times[name].append(elapsed * 1000)
                last = getattr(policies[name], "last_work", None)
                if last is not None:
                    works[name].append(last[0])
            if move not in moves:
                raise AssertionError(f"{name} chose an illegal move {move} (seed {deck_seed})")
            game, _ = play(game, move)
        result = game.result
        for s in result.winners:
            wins[seat_names[s]] += 1 / len(result.winners)
        sizes = result.bundle_sizes
        for s in range(n):
            others = (sum(sizes) - sizes[s]) / (n - 1)
            margins[seat_names[s]].append(sizes[s] - others)
    return {
        "wins": {name: w / n for name, w in wins.items()},
        "margins": margins,
        "times": times,
        "work": works,
    }


def _percentile(values: Sequence[float], q: float) -> float:
    if not values:
        return 0.0
    values = sorted(values)
    return values[min(len(values) - 1, max(0, math.ceil(q * len(values)) - 1))]


def summarise(decks: list[DeckResult], names: list[str]) -> dict[str, dict[str, Any]]:
    out = {}
    n = len(names)
    for name in dict.fromkeys(names):
        shares = [d["wins"][name] for d in decks]
        mean = statistics.fmean(shares)
        half = 1.96 * statistics.stdev(shares) / math.sqrt(len(shares)) if len(shares) > 1 else 0
        margins = [m for d in decks for m in d["margins"][name]]
        times = [t for d in decks for t in d["times"][name]]
        work = [w for d in decks for w in d["work"][name]]
        out[name] = {
            "seats": names.count(name),
            "baseline": round(names.count(name) / n, 4),
            "win_share": round(mean, 4),
            "ci95": [round(mean - half, 4), round(mean + half, 4)],
            "mean_margin": round(statistics.fmean(margins), 3),
            "decisions": len(times),
            "decision_ms": {
                "p50": round(_percentile(times, 0.50), 3),
                "p95": round(_percentile(times, 0.95), 3),
                "max": round(max(times, default=0.0), 3),
            },
            "work": (
                {"p50": _percentile(work, 0.5), "mean": round(statistics.fmean(work), 1)}
                if work
                else None
            ),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ai.arena",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--games", type=int, default=200, help="games, rounded up to whole decks")
    parser.add_argument("--players", type=int, choices=(2, 3, 4), default=2)
    parser.add_argument("--rules", choices=sorted(PRESETS), default="standard")
    parser.add_argument(
        "--policies",
        default="medium,easy",
        help=f"comma-separated, one per seat, from {', '.join(POLICIES)}; "
        "fewer than --players: the last fills the remaining seats",
    )
    parser.add_argument("--seed", type=int, default=0, help="deck i is dealt from seed S+i")
    parser.add_argument("--budget", type=float, help="hard: seconds per decision (default 0.1)")
    parser.add_argument(
        "--work",
        type=int,
        help="hard: a fixed amount of work instead, in moves played in its playouts "
        f"({WORK_100MS} fit its 100 ms budget on the project's machine)",
    )
    parser.add_argument("--samples", type=int, help="hard: a fixed number of samples instead")
    parser.add_argument(
        "--cpu",
        action="store_true",
        help="decision times in CPU time of the process (what a decision costs, without the "
        "time a busy machine keeps it waiting); only with --work or --samples",
    )
    parser.add_argument("--workers", type=int, choices=(1, 2), default=1)
    parser.add_argument("--progress", action="store_true", help="report progress on stderr")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument(
        "--log", help="append each deck's result to this file as it ends (one JSON line)"
    )
    parser.add_argument(
        "--from-log",
        nargs="+",
        metavar="LOG",
        help="play nothing: sum up the decks these --log files hold (partial runs add up)",
    )
    args = parser.parse_args(argv)
    names = [s.strip() for s in args.policies.split(",") if s.strip()]
    unknown = [s for s in names if s not in POLICIES]
    if unknown:
        parser.error(f"unknown policies: {', '.join(unknown)}")
    if not 2 <= len(names) <= args.players:
        parser.error("give 2 to --players policy names")
    names += [names[-1]] * (args.players - len(names))
    if args.cpu and args.work is None and args.samples is None:
        parser.error("--cpu needs --work or --samples: a time budget runs on the wall clock")
    if args.games < 1:
        parser.error("--games must be at least 1")
    n_decks = -(-args.games // args.players)
    tasks: list[Task] = [
        (args.seed + i, names, args.rules, args.budget, args.work, args.samples, args.cpu)
        for i in range(n_decks)
    ]

    started = time.perf_counter()
    decks: list[DeckResult] = []
    if args.from_log:
        decks = _read_logs(args.from_log)
        n_decks = len(decks)
    elif args.workers > 1:
        with get_context("fork").Pool(args.workers) as pool:
            for task, d in zip(tasks, pool.imap(play_deck, tasks), strict=True):
                _keep(args, decks, task, d, n_decks, started)
    else:
        for task in tasks:
            _keep(args, decks, task, play_deck(task), n_decks, started)
    seconds = time.perf_counter() - started

    summary = {
        "rules": args.rules,
        "players": args.players,
        "policies": names,
        "decks": n_decks,
        "games": n_decks * args.players,
        "seed": args.seed,
        "workers": args.workers,
        "hard_budget_s": args.budget,
        "hard_work": args.work,
        "hard_samples": args.samples,
        "ties": TIES,
        "seconds": round(seconds, 2),
        "results": summarise(decks, names),
    }
    if args.json:
        print(json.dumps(summary))
        return 0
    print(
        f"{summary['games']} {args.rules} games ({n_decks} decks x {args.players} seat "
        f"rotations), {args.players} players: {', '.join(names)}; {summary['seconds']} s, "
        f"{args.workers} worker(s)"
    )
    print(f"win share: {TIES}; CI over decks; margin: own bundle - mean of the others")
    for name, r in summary["results"].items():
        lo, hi = r["ci95"]
        t = r["decision_ms"]
        print(
            f"  {name:<7} seats {r['seats']}  win {100 * r['win_share']:5.1f}% "
            f"[{100 * lo:.1f}, {100 * hi:.1f}] (baseline {100 * r['baseline']:.1f}%)  "
            f"margin {r['mean_margin']:+.2f}  decision ms p50 {t['p50']:.2f} "
            f"p95 {t['p95']:.2f} max {t['max']:.2f} ({r['decisions']} decisions)"
            + (f"  work p50 {r['work']['p50']} mean {r['work']['mean']}" if r["work"] else "")
        )
    return 0


def _keep(
    args: argparse.Namespace,
    decks: list[DeckResult],
    task: Task,
    deck: DeckResult,
    total: int,
    started: float,
) -> None:
    decks.append(deck)
    if args.log:
        with open(args.log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"seed": task[0], **deck}) + "\n")
    _progress(args, len(decks), total, started)


def _read_logs(paths: list[str]) -> list[DeckResult]:
    """The decks of --log files, each deck seed once (a deck logged twice counts once)."""
    by_seed: dict[int, DeckResult] = {}
    for path in paths:
        with open(path, encoding="utf-8") as f:
            for line in f:
                if line.strip():
                    row = json.loads(line)
                    seed = row.pop("seed")
                    by_seed[seed] = row
    return [by_seed[s] for s in sorted(by_seed)]


def _progress(args: argparse.Namespace, done: int, total: int, started: float) -> None:
    if args.progress and (done == total or done % max(1, total // 20) == 0):
        elapsed = time.perf_counter() - started
        print(f"{done}/{total} decks, {elapsed:.0f} s", file=sys.stderr, flush=True)


if __name__ == "__main__":
    sys.exit(main())
