"""One busy server against quiet ones: is the REST budget shared fairly between servers?

    python -m bench.fairness [--busy 200] [--quiet 10] [--seconds 60] [--rate 50] [--seed S]
        [--json]

bench/rate_limits.py's players, stand-in for Discord and virtual time, with the games placed
differently: BUSY games in one server, and QUIET servers of one game each. Every game plays as
one started over 15 minutes ago (Start's token dead), so every table is edited with the bot's
token, through the budget (bot/adapter/governor.py): the busy server alone wants more than the
budget allows.

Two runs: the quiet servers alone, then with the busy server playing beside them. Each prints
the table staleness (from a change in a game to its table showing it) of the quiet servers'
tables and of the busy server's, and the quiet servers' fair-share bound: with the budget
shared evenly between the servers whose tables wait, a quiet server's edit waits at most one
turn of them, `servers ÷ table edits a second`, on top of what it sees alone. The criterion:
the quiet servers' staleness p95 beside the busy server within 2x of that bound.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import logging
import sys
from typing import Any

from . import rate_limits as limits
from .virtual_time import VirtualLoop

BUSY_GUILD = 7 * 10**17  # one server for every busy game
TABLE_EDIT = "PATCH /channels/{id}/messages/{id} [table]"


class Servers(limits.Bench):
    """The first `busy` slots' games in one server; each later slot a quiet server of its own."""

    busy = 0

    def __init__(self, *args: Any) -> None:
        super().__init__(*args)
        self.by_server: dict[int, list[float]] = {}  # server -> its tables' staleness

    def where(self, slot: int) -> tuple[int, int]:
        guild, channel = super().where(slot)
        return (BUSY_GUILD if slot < self.busy else guild), channel

    def shown(self, game_id: int, age: float) -> None:
        super().shown(game_id, age)
        ch = self.app.presenter.channels.get(game_id)
        if self.measuring and ch is not None:
            self.by_server.setdefault(ch.guild_id, []).append(age)

    def report(self) -> dict[str, Any]:
        quiet = [a for g, ages in self.by_server.items() if g != BUSY_GUILD for a in ages]
        return {
            "quiet_staleness_s": limits.summary(quiet),
            "busy_staleness_s": limits.summary(self.by_server.get(BUSY_GUILD, [])),
            "servers": len(self.by_server),
        }


def played(args: argparse.Namespace, busy: int) -> dict[str, Any]:
    Servers.busy = busy
    with asyncio.Runner(loop_factory=VirtualLoop) as runner:
        return runner.run(limits.run(args, busy + args.quiet, Servers))


def edits_a_second(out: dict[str, Any]) -> float:
    return float(out["per_move_by_priority"].get(TABLE_EDIT, 0.0) * out["moves_per_s"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--busy", type=int, default=200, help="games in the busy server")
    parser.add_argument("--quiet", type=int, default=10, help="quiet servers, a game each")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=50.0, help="the global limit, per second")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    # As bench/rate_limits.py's defaults, but every table through the budget.
    args.pace, args.closed, args.long = (2.0, 8.0), 0.2, 1.0
    args.rules, args.no_governor = "standard", False
    limits.without_fsync()
    logging.basicConfig(level=logging.CRITICAL)
    alone, beside = played(args, 0), played(args, args.busy)
    edits = edits_a_second(beside)
    waits = alone["quiet_staleness_s"]["p95"] or 0.0
    bound = waits + beside["servers"] / edits if edits else None
    p95 = beside["quiet_staleness_s"]["p95"]
    result = {
        "busy": args.busy, "quiet": args.quiet, "seconds": args.seconds, "rate": args.rate,
        "quiet_alone_s": alone["quiet_staleness_s"],
        "quiet_beside_busy_s": beside["quiet_staleness_s"],
        "busy_s": beside["busy_staleness_s"], "servers_waiting": beside["servers"],
        "table_edits_per_s": round(edits, 1), "fair_share_bound_s": bound and round(bound, 2),
        "within_2x": bound is not None and p95 is not None and p95 <= 2 * bound,
        "rate_limited": beside["rate_limited"], "peak_global_per_s": beside["peak_global_per_s"],
    }  # fmt: skip
    if args.json:
        json.dump(result, sys.stdout)
        print()
        return
    q, b, a = result["quiet_beside_busy_s"], result["busy_s"], result["quiet_alone_s"]
    print(f"{args.quiet} quiet servers (a game each) alone: staleness p50 {a['p50']} s, "
          f"p95 {a['p95']} s, max {a['max']} s (n={a['n']})")  # fmt: skip
    print(f"beside a server of {args.busy} games, {args.seconds:g} s:")
    print(f"  quiet: p50 {q['p50']} s, p95 {q['p95']} s, max {q['max']} s (n={q['n']})")
    print(f"  busy:  p50 {b['p50']} s, p95 {b['p95']} s, max {b['max']} s (n={b['n']})")
    print(f"  {result['table_edits_per_s']} table edits a second for {result['servers_waiting']} "
          f"servers: fair-share bound {result['fair_share_bound_s']} s, 2x "
          f"{bound and round(2 * bound, 2)} s; within: {result['within_2x']}")  # fmt: skip
    print(
        f"  429s: {result['rate_limited'] or 0}; most global in 1 s: {result['peak_global_per_s']}"
    )


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
