"""How long the table picture takes to draw and encode, and how big it is.

    python -m bench.render [--tables N] [--repeats R] [--players P] [--json]

Draws N 4-player tables (by default: every deck family, mid-game, with a last move) R times
each, timing `render(scene)` (layout, drawing and PNG encoding; the scene is taken once per
table, as the bot takes it on the event loop), and prints p50 / p95 / max in ms of wall time,
p50 / p95 of the thread's CPU time (what the render itself costs, whatever else the machine
is doing) and the PNG sizes. Also the worst case for size: 30 cards in the pool (overlapping)
and a long name in every seat. The budget (docs/performance.md): p95 ≤ 30 ms, image ≤ 100 KB.
Also the end screen's picture (the final bundles, drawn once a game): its median time and size.
"""

from __future__ import annotations

import argparse
import statistics
import time

from bot.engine import preset
from bot.ui.picture import (
    SAMPLE_NAMES,
    SAMPLE_SEATS,
    FinalScene,
    Scene,
    render,
    render_final,
    sample,
)

from ._figures import percentile, sample_rules, show


def scenes(tables: int, players: int) -> list[Scene]:
    out = []
    for i in range(tables):
        table, last = sample(sample_rules(i), players, seed=i, moves=6 + i % 10)
        out.append(Scene.of(table, SAMPLE_NAMES, ("en", "es", "fr", "it")[i % 4], last=last))
    return out


def worst(players: int) -> Scene:
    """A crowded pool (30 cards) and long names: the biggest picture."""
    from dataclasses import replace

    table, last = sample(preset("standard").replace(refill_pool=False), players, 0, 0)
    scene = Scene.of(table, SAMPLE_NAMES, "fr", last=last)
    deck = table.game.rules.card_deck.cards
    names = tuple("Wolfeschlegelsteinhausenbergerdorff" for _ in range(players))
    return replace(scene, pool=deck[:30], names=names, stock_size=30)


def finals(players: int) -> list[FinalScene]:
    """The end screens of finished games, one per deck family."""
    from bot.domain import ratings as stats
    from bot.engine.playout import random_game

    out = []
    for i in range(4):
        table, _ = sample(sample_rules(i), players, seed=i, moves=0)
        table.game = random_game(table.game.rules, players, i)
        table.game.seats = SAMPLE_SEATS[:players]
        places = stats.places(table.game, set())
        out.append(FinalScene.of(table, SAMPLE_NAMES, ("en", "es", "fr", "it")[i], places))
    return out


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--tables", type=int, default=40)
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    todo = scenes(args.tables, args.players)
    render(todo[0])  # warm-up
    times, cpu, sizes = [], [], []
    for _ in range(args.repeats):
        for scene in todo:
            started, cpu_started = time.perf_counter(), time.thread_time()
            png = render(scene)
            times.append((time.perf_counter() - started) * 1000)
            cpu.append((time.thread_time() - cpu_started) * 1000)
            sizes.append(len(png))
    big = worst(args.players)
    big_times, big_png = [], b""
    for _ in range(args.repeats):
        started = time.perf_counter()
        big_png = render(big)
        big_times.append((time.perf_counter() - started) * 1000)
    ends = finals(args.players)
    end_times, end_sizes = [], []
    for _ in range(args.repeats):
        for final in ends:
            started = time.perf_counter()
            end_sizes.append(len(render_final(final)))
            end_times.append((time.perf_counter() - started) * 1000)
    figures = {
        "players": args.players,
        "renders": len(times),
        "p50_ms": round(statistics.median(times), 1),
        "p95_ms": round(percentile(times, 0.95), 1),
        "max_ms": round(max(times), 1),
        "cpu_p50_ms": round(statistics.median(cpu), 1),
        "cpu_p95_ms": round(percentile(cpu, 0.95), 1),
        "median_kb": round(statistics.median(sizes) / 1024, 1),
        "max_kb": round(max(sizes) / 1024, 1),
        "worst_case_ms": round(statistics.median(big_times), 1),
        "worst_case_kb": round(len(big_png) / 1024, 1),
        "end_screen_p50_ms": round(statistics.median(end_times), 1),
        "end_screen_max_kb": round(max(end_sizes) / 1024, 1),
    }
    show(figures, args.json, 14)


if __name__ == "__main__":
    main()
