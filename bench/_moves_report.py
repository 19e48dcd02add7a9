"""bench/moves.py's figures: a phase's medians, p99s and ratios from the probe's samples,
and the table it prints."""

from __future__ import annotations

import statistics
from typing import Any

from ._moves_probe import Probe

AT_ONCE, ONE_BY_ONE = "at_once", "one_at_a_time"


def figures(probe: Probe, rates: dict[str, list[float]], name: str) -> dict[str, Any]:
    """One phase's figures, from the probe's samples (and, at once, the clicks' rates)."""

    def ms(values: list[float]) -> dict[str, Any]:
        p99 = statistics.quantiles(values, n=100, method="inclusive")[98]
        return {
            "n": len(values),
            "median_ms": round(statistics.median(values) * 1e3, 3),
            "p99_ms": round(p99 * 1e3, 3),
        }

    s = probe.samples
    move, trivial = ms(s[(f"{name}/move", "move")]), ms(s[(f"{name}/trivial", "trivial")])
    if name == AT_ONCE:
        move["per_s"] = round(statistics.median(rates[f"{name}/move"]))
        trivial["per_s"] = round(statistics.median(rates[f"{name}/trivial"]))
    figures = {
        "move": move,
        "trivial": trivial,
        "ratio_median": round(move["median_ms"] / trivial["median_ms"], 1),
        "ratio_p99": round(move["p99_ms"] / trivial["p99_ms"], 1),
        "table_update": ms(s[(f"{name}/move", "table_update")]),
        "presenter_flush": ms(s[(f"{name}/move", "presenter_flush")]),
    }
    moves = len(s[(f"{name}/move", "move")])
    writes = probe.writes[f"{name}/move"]
    figures["writes"] = {
        "per_move": round(sum(writes.values()) / moves, 3),
        "total": sum(writes.values()),
        "moves": moves,
        "deals": probe.deals[f"{name}/move"],
        "ends": probe.ends[f"{name}/move"],
        "by": dict(sorted(writes.items(), key=lambda kv: -kv[1])),
    }
    if s[(f"{name}/floor", "floor")]:  # one at a time: the same clicks, discord.py alone
        floor = figures["floor"] = ms(s[(f"{name}/floor", "floor")])
        figures["floor_ratio_median"] = round(move["median_ms"] / floor["median_ms"], 2)
        figures["floor_ratio_p99"] = round(move["p99_ms"] / floor["p99_ms"], 2)
    return figures


def table(figures: dict[str, Any]) -> str:
    lines = [
        f"{figures['games']} games of {figures['players']} players ({figures['rules']} rules),"
        f" seed {figures['seed']}; ms from entering the button handler to its response",
        f"{'':32}{'n':>6}{'median':>10}{'p99':>10}{'per s':>8}",
    ]
    titles = {
        AT_ONCE: f"all {figures['games']} games click at once",
        ONE_BY_ONE: f"one click at a time ({figures['games']} games open)",
    }
    for name, title in titles.items():
        f = figures.get(name)
        if f is None:
            continue
        lines.append(title)
        rows: list[tuple[str, Any]] = [
            ("our move", f["move"]),
            ("trivial handler", f["trivial"]),
            ("ratio", ("ratio_median", "ratio_p99")),
        ]
        if "floor" in f:
            rows += [
                ("floor: discord.py, same click", f["floor"]),
                ("our move / floor", ("floor_ratio_median", "floor_ratio_p99")),
            ]
        rows += [
            ("background: table update", f["table_update"]),
            ("background: presenter flush", f["presenter_flush"]),
        ]
        for label, row in rows:
            if isinstance(row, tuple):
                ratios = f"{f[row[0]]:>9.2f}x{f[row[1]]:>9.2f}x"
                lines.append(f"  {label:30}{'':6}{ratios}")
                continue
            rate = f"{row['per_s']:>8}" if "per_s" in row else ""
            lines.append(
                f"  {label:30}{row['n']:>6}{row['median_ms']:>10.2f}{row['p99_ms']:>10.2f}{rate}"
            )
        w = f["writes"]
        lines.append(
            f"  database writes per move: {w['per_move']:.2f} ({w['total']} write transactions"
            f" for {w['moves']} moves, of which {w['deals']} dealt and {w['ends']} ended a game)"
        )
        lines += [f"    {count:>6}  {who}" for who, count in w["by"].items()]
    lines.append(
        f"unexpected clicks: {figures['unexpected']}; {figures['seconds']} s."
        " A shared, noisy machine: compare figures within one run."
    )
    return "\n".join(lines)
