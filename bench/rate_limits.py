"""Many games at once against Discord's rate limits: what the bot's REST traffic costs, and
what players see of it (how stale tables get, how late turn pings come).

    python -m bench.rate_limits [--games 10,100,1000,5000] [--seconds 60] [--rate 50]
        [--pace 2,8] [--closed 0.2] [--long 0.3] [--no-governor] [--seed S] [--json]

No network, on virtual time (bench/virtual_time.py): the session layer, storage (SQLite in a
temporary folder) and the presenter run for real, wired by the bot's composition root
(bot/app.py `build`), with discord.py's own HTTPClient, the REST governor installed in front of
it as bot/client.py installs it (bot/adapter/governor.py; --no-governor: without, as before),
and discord.py's own rate-limit handling behind it. Only Discord's side is stood in for, at
aiohttp's `session.request`, by the benches' fake Discord with its limits
(bench/_fake_discord.py, bench/_rest_limits.py), which enforces the limits Discord documents:

- the global rate limit on bot-token routes (`--rate`, 50 a second, in any one second),
  interaction endpoints exempt;
- per-route limits per channel where they bite: creating messages 5 per 5 s, editing them 5
  per 5 s, deleting them 5 per second;
- a 429 as Discord answers it (retry_after, global, X-RateLimit-Scope, the bucket headers),
  and a count of invalid requests (401, 403, 429 but shared; Discord bans past 10,000 in 10
  minutes) and of other failures (404 on a message gone).

GAMES games of 2 to 4 seats, some of them AI seats (easy, which thinks quickly), one game a
server. People move at a human pace: on their turn, after a random PACE seconds (2 to 8). An AI
seat moves after AI_MOVE_SECONDS, as in the bot. A game that ends is followed by a new one in
its channel a few seconds later; a tenth of the games start near their end, so games end during
the run. Start is clicked on the lobby message and answered by drawing the table into it, as
cogs/lobbies.py does, so the presenter edits that table through the Start click's token
(exempt); a share of the games (--long, 30%) plays as if started over 15 minutes ago, Start's
token dead, so their tables are edited with the bot's token, through the budget. People click
as on Discord: each click is an interaction with its own token (`Click`), answered through its
callback route (counted, exempt, not drawn), the presenter told of it as interactions.watch
tells it. Most people (all but --closed, 20%) open their hand (My hand) and move by clicking in
it, so the presenter keeps it, refreshes it through the interaction webhook and owes them no
ping while it is fresh; the others close their hand: their clicks are not kept as an open hand,
so their turn pings are owed. The stand-in answers the interaction webhook (follow-ups, editing
and deleting "@original" and follow-ups), exempt.

Per GAMES it prints, over SECONDS of play: global requests per move, by route; the most global
requests in any one second; 429s by scope and other invalid requests; table staleness (from a
change to the table showing it: p50, p95, max; and apart, of the --long games' tables, the
ones the budget edits); the turn ping's delay (from the turn starting
to the ping landing); and whether every owed message (end screens, closings) was delivered once
the games were left to finish their work.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import collections
import contextlib
import datetime
import json
import logging
import random
import statistics
import sys
import tempfile
import time
import types
from pathlib import Path
from typing import Any

import discord

from bot import metrics
from bot.adapter.presenter import worker as presenter_worker
from bot.app import App, build
from bot.domain.options import Options
from bot.storage import Storage

from ._rate_players import Bench
from ._rest_limits import INVALID_LIMIT, INVALID_WINDOW, Discord, client_on
from .virtual_time import VirtualLoop

__all__ = ["Bench", "Discord", "client_on", "idle", "run"]  # bench/fairness.py, the tests


async def settled() -> None:
    """Once the app is closed: what still runs (AI turn timers, the table work they start,
    retrying on the closed storage) is cancelled, until nothing new starts."""
    for _ in range(100):
        left = asyncio.all_tasks() - {asyncio.current_task()}
        if not left:
            return
        for task in left:
            task.cancel()
        await asyncio.gather(*left, return_exceptions=True)


async def idle(app: App, limit: float) -> None:
    """Let the presenter finish its work (virtual seconds, at most `limit`)."""
    loop = asyncio.get_running_loop()
    until = loop.time() + limit
    while app.presenter.worker.running() and loop.time() < until:
        await asyncio.sleep(1.0)


class Errors(logging.Handler):
    """Errors the bot logged, counted by their first line (printed once each, not per game)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.seen: collections.Counter[str] = collections.Counter()

    def emit(self, record: logging.LogRecord) -> None:
        cause = record.exc_info[1] if record.exc_info else None
        where = f" ({type(cause).__name__} {cause})" if cause is not None else ""
        self.seen[f"{record.name}: {record.getMessage().split(':', 1)[-1].strip()}{where}"] += 1


def percentile(values: list[float], q: float) -> float | None:
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def most_in_a_second(times: list[float]) -> int:
    return max((bisect.bisect_left(times, t + 1.0) - i for i, t in enumerate(times)), default=0)


def without_fsync() -> None:
    """The bench measures REST traffic, not the disk: no fsync at each commit (on a shared
    machine, waiting for the disk took most of the real time, while the clock stood still)."""
    opened = Storage.open.__func__  # type: ignore[attr-defined]

    async def open_(cls: type[Storage], *args: Any, **kwargs: Any) -> Storage:
        kwargs.setdefault("durable", False)
        return await opened(cls, *args, **kwargs)  # type: ignore[no-any-return]

    Storage.open = classmethod(open_)  # type: ignore[method-assign,assignment]


async def run(args: argparse.Namespace, games: int, make: type[Bench] = Bench) -> dict[str, Any]:
    loop = asyncio.get_running_loop()
    assert isinstance(loop, VirtualLoop)
    # The presenter's edit gap reads time.monotonic: the virtual clock for it too.
    presenter_worker.time = types.SimpleNamespace(monotonic=loop.time)  # type: ignore[attr-defined,assignment]
    # Tokens' ages, "shown in the last 10 minutes", interactions' created_at: virtual too.
    utcnow = discord.utils.utcnow
    discord.utils.utcnow = lambda: datetime.datetime.fromtimestamp(loop.wall(), datetime.UTC)
    wire = Discord(args.rate)
    client = client_on(wire, not args.no_governor, args.rate)
    deals = random.Random(args.seed)
    options = Options(seed_source=lambda: deals.getrandbits(63), turn_seconds=None)
    metrics.TABLES.since.clear()
    metrics.TABLES.listeners.clear()
    errors = Errors()
    logging.getLogger().addHandler(errors)
    with tempfile.TemporaryDirectory() as folder:
        app = await build(Path(folder) / "bench.db", client, options, clock=loop.wall)
        bench = make(app, wire, args, games)
        started = time.perf_counter()
        ids = await bench.setup()
        await idle(app, 600)  # set up: every table shown before the clock starts
        setup_seconds = time.perf_counter() - started
        marks = (
            len(wire.global_times),
            wire.routes.copy(),
            sum(wire.limited.values()),
            len(wire.invalid),
            sum(wire.failed.values()),
            wire.interactions,
            wire.interaction_routes.copy(),
            wire.pinged_by.copy(),
            bench.clicks.copy(),
            wire.tags.copy(),
        )
        pinged = len(wire.pinged)
        bench.measuring, t0 = True, loop.time()
        channels = [asyncio.create_task(bench.channel(i, g)) for i, g in enumerate(ids)]
        while loop.time() < t0 + args.seconds:
            await asyncio.sleep(1.0)
            pinged = bench.pings(pinged)
        bench.measuring = False
        live_long = sum(game in bench.long for game in bench.current.values())
        played_seconds = time.perf_counter() - started - setup_seconds
        t1 = loop.time()
        times = wire.global_times[marks[0] :]
        routes = wire.routes - marks[1]
        interaction_routes = wire.interaction_routes - marks[6]
        pinged_by = wire.pinged_by - marks[7]
        clicks = bench.clicks - marks[8]
        tags = wire.tags - marks[9]
        ended_in_run = bench.ended
        # Stop: nobody moves any more; what the games still owe is given time to go out.
        bench.stopping = True
        for event in bench.changed.values():
            event.set()
        await asyncio.gather(*channels, *bench.opening, return_exceptions=True)
        await idle(app, 900)
        owed = await app.sessions.owed()
        await app.close()
        await settled()
    logging.getLogger().removeHandler(errors)
    discord.utils.utcnow = utcnow
    moves = max(bench.moves, 1)
    invalid = wire.invalid
    peak_invalid = max(
        (bisect.bisect_left(invalid, t + INVALID_WINDOW) - i for i, t in enumerate(invalid)),
        default=0,
    )
    return {
        "games": games,
        "seconds": round(t1 - t0, 1),
        "moves": bench.moves,
        "moves_per_s": round(bench.moves / (t1 - t0), 1),
        "global_requests": len(times),
        "global_per_move": round(len(times) / moves, 2),
        "per_move_by_route": {r: round(n / moves, 2) for r, n in sorted(routes.items())},
        "per_move_by_priority": {r: round(n / moves, 3) for r, n in sorted(tags.items())},
        "interaction_requests": wire.interactions - marks[5],
        "interaction_per_move_by_route": {
            r: round(n / moves, 2) for r, n in sorted(interaction_routes.items())
        },
        "clicks": dict(clicks),
        "pings_by": dict(pinged_by),
        "keep_hand_open": round(sum(bench.keeps.values()) / max(len(bench.keeps), 1), 2),
        "peak_global_per_s": most_in_a_second(times),
        "rate_limited": dict(wire.limited),
        "invalid_requests": len(invalid),
        "invalid_peak_10min": peak_invalid,
        "banned": peak_invalid > INVALID_LIMIT,
        "other_failures": {str(k): v for k, v in wire.failed.items()},
        "staleness_s": summary(bench.staleness),
        "staleness_bot_token_s": summary(bench.staleness_long),
        "live_tables_bot_token": live_long,
        "ping_delay_s": summary(bench.ping_delays),
        "human_turns": bench.human_turns,
        "games_ended": ended_in_run,
        "ended_all": bench.ended,
        "owed_undelivered": len(owed),
        "live_tables": len(ids),
        "errors_logged": dict(errors.seen),
        "real_seconds": {"setup": round(setup_seconds, 1), "play": round(played_seconds, 1)},
        **bench.report(),
    }


def summary(values: list[float]) -> dict[str, float | int | None]:
    def r(v: float | None) -> float | None:
        return None if v is None else round(v, 2)

    return {
        "n": len(values),
        "p50": r(percentile(values, 0.5)),
        "p95": r(percentile(values, 0.95)),
        "max": r(max(values) if values else None),
        "mean": r(statistics.fmean(values) if values else None),
    }


def printed(out: dict[str, Any], rate: float) -> None:
    s, p = out["staleness_s"], out["ping_delay_s"]
    print(
        f"\n{out['games']:,} games, {out['seconds']} s: {out['moves']:,} moves "
        f"({out['moves_per_s']}/s), real time {out['real_seconds']}"
    )
    print(
        f"  global requests per move: {out['global_per_move']}  "
        f"(peak {out['peak_global_per_s']} in one second; limit {rate:g})"
    )
    for route, n in out["per_move_by_priority"].items():
        print(f"    {route}: {n}")
    print(
        f"  interaction requests (exempt): {out['interaction_requests']:,}; clicks "
        f"{out['clicks']}; {out['keep_hand_open']:.0%} of the people keep their hand open"
    )
    for route, n in out["interaction_per_move_by_route"].items():
        print(f"    {route}: {n}")
    print(
        f"  429s: {out['rate_limited'] or 0}; invalid requests {out['invalid_requests']} "
        f"(most in 10 min {out['invalid_peak_10min']}; banned: {out['banned']}); "
        f"other failures {out['other_failures'] or 0}"
    )
    print(f"  table staleness p50 {s['p50']} s, p95 {s['p95']} s, max {s['max']} s (n={s['n']})")
    b = out["staleness_bot_token_s"]
    print(
        f"    of the {out['live_tables_bot_token']:,} tables edited with the bot token (--long): "
        f"p50 {b['p50']} s, p95 {b['p95']} s, max {b['max']} s (n={b['n']})"
    )
    print(
        f"  turn ping delay p50 {p['p50']} s, p95 {p['p95']} s, max {p['max']} s "
        f"({p['n']:,} pings landed for {out['human_turns']:,} turns of a person; the others "
        f"were superseded before they went, or not owed); pings sent through "
        f"{out['pings_by'] or 'none'}"
    )
    print(
        f"  games ended: {out['games_ended']} (in all {out['ended_all']}); "
        f"owed messages undelivered: {out['owed_undelivered']}"
    )
    for error, n in out["errors_logged"].items():
        print(f"  logged {n}x: {error}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", default="10,100,1000,5000")
    parser.add_argument("--seconds", type=float, default=60.0)
    parser.add_argument("--rate", type=float, default=50.0, help="the global limit, per second")
    parser.add_argument("--pace", default="2,8", help="a person's seconds per move: low,high")
    parser.add_argument(
        "--closed", type=float, default=0.2,
        help="the share of people who close their hand (the others keep it open)",
    )  # fmt: skip
    parser.add_argument(
        "--long", type=float, default=0.3,
        help="the share of games played as if started over 15 minutes ago (Start's token dead)",
    )  # fmt: skip
    parser.add_argument("--rules", default="standard")
    parser.add_argument("--no-governor", action="store_true")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    args.pace = tuple(float(x) for x in args.pace.split(","))
    without_fsync()
    logging.basicConfig(level=logging.CRITICAL)  # counted and printed once each (Errors)
    results = []
    for n in (int(x) for x in args.games.split(",")):
        with asyncio.Runner(loop_factory=VirtualLoop) as runner:
            out = runner.run(run(args, n))
        results.append(out)
        if not args.json:
            printed(out, args.rate)
    if args.json:
        json.dump(
            {"governor": not args.no_governor, "rate": args.rate, "runs": results}, sys.stdout
        )
        print()


if __name__ == "__main__":
    with contextlib.suppress(KeyboardInterrupt):
        main()
