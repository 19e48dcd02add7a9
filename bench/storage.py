"""What storage costs, on SQLite and on PostgreSQL side by side, in one run.

    python -m bench.storage [--json] [--games 100] [--rounds 30] [--live 1000]
                            [--finished 100] [--players 100000] [--postgres URL] [--serial N]
                            [--sqlite-only] [--startup-only [--untimed]] [--serial-only]

The session layer (bot/session, as the bot runs it, without Discord) on storage opened as the
bot opens it (durable): SQLite in a temporary folder (WAL, synchronous=NORMAL); PostgreSQL at
--postgres (default $TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/test) in a
schema of its own, dropped afterwards. Figures, per backend:

- at once: GAMES games, spread over a game's length (game i played on, untimed, i/GAMES of
  the way, as bench/moves.py does), and in each round the player to act in every game plays
  at the same moment (one task per click, as discord.py hands clicks over); a game that ends
  (its result worked out and saved inside the click) is replaced, untimed. Moves/s over the
  whole run, and each click's latency (Sessions.play: lock, engine, save, timer), p50 and p99.
  Once set up, the objects made so far are frozen for the garbage collector, as the bot does
  after its start-up (bot/client.py).
- start-up: open storage and restore LIVE games under way (each some moves in, with a turn
  timer, as by default), against an empty database: the time until every game is routed,
  its timer armed and playable (a game is read on its first use), and the ratio; best of
  three each, alternating. `--untimed`: the games have no turn timer (no stored deadline).
- disk per finished game: FINISHED games played to their end, then the database's size
  (SQLite: VACUUM, then the file; PostgreSQL: VACUUM FULL, then the tables' total) less an
  empty one's, per game.
- leaderboard: PLAYERS players in one guild; a page (top, and the middle) and a player's own
  rank (the top's, the middle's, the last's), median of repeated queries.
- serial: one game's N moves saved one after another through storage.games.save_move alone:
  what a save costs with nothing else running. `--serial-only` prints only that, with the API
  every storage version has, so the same script measures the old hand-written aiosqlite
  storage too: run as a file, it imports the bot that PYTHONPATH names,
  `PYTHONPATH=/path/to/old/checkout python -m bench.storage --serial-only`
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from bot.domain.options import Options
from bot.engine import active, apply, legal_moves, new_game, preset, to_dict
from bot.engine.serialize import move_to_dict
from bot.session import Sessions
from bot.storage import Storage

from ._storage_backends import Backend, Postgres, Sqlite

DEFAULT_PG = "postgresql://postgres@127.0.0.1:5432/test"
GUILD = 1
RULES = preset("standard")
TYPICAL_MOVES = 48  # a two-player standard game


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def ms(seconds: float) -> float:
    return round(seconds * 1000, 3)


async def serial(database: str, n: int) -> dict[str, Any]:
    """N saves of one game's moves, one after another (the API of every storage version)."""
    storage = await Storage.open(database)
    try:
        rng = random.Random(1)
        seats = ["1", "2"]
        times: list[float] = []
        saved = 0
        while saved < n:
            game = new_game(RULES, seats, seed=rng.randrange(10**9))
            row = await storage.games.create(
                GUILD, 10**6 + saved, "1", {}, seats, state=to_dict(game)
            )
            version = 0
            while not game.over and saved < n:
                seat = active(game).turn
                assert seat is not None, "a game not over has a player to act"
                move = rng.choice(legal_moves(game))
                game, _ = apply(game, move)
                version += 1
                state = to_dict(game)
                state = {**state, "moves": state["moves"][-1:]}  # same size each move: storage only
                start = time.perf_counter()
                await storage.games.save_move(
                    row.id, state, move_to_dict(seat, move, False), version
                )
                times.append(time.perf_counter() - start)
                saved += 1
            await storage.games.cancel(row.id)
        return {
            "n": n,
            "median_ms": ms(statistics.median(times)),
            "mean_ms": ms(statistics.mean(times)),
        }
    finally:
        await storage.close()


async def sessions_on(database: str, turn_seconds: float | None = None) -> tuple[Storage, Sessions]:
    storage = await Storage.open(database)
    options = Options(turn_seconds=turn_seconds, lobby_seconds=None, seed_source=lambda: 7)
    sessions = Sessions(storage, options=options)
    return storage, sessions


async def start_games(
    sessions: Sessions, games: int, channel0: int, rng: random.Random
) -> list[int]:
    ids = []
    for i in range(games):
        channel = channel0 + i
        host, guest = f"{channel}1", f"{channel}2"
        await sessions.open_lobby(GUILD, channel, host, RULES)
        await sessions.join(channel, guest)
        table = await sessions.start(channel, host)
        ids.append(table.game_id)
    return ids


async def click(sessions: Sessions, game_id: int, rng: random.Random) -> float | None:
    """The player to act plays a random legal move; its latency, or None if the game is over."""
    table = sessions.tables.get(game_id)
    if table is None or table.turn is None:
        return None
    user = table.seats[table.turn]
    hand = await sessions.hand(game_id, user)
    move = rng.choice(hand.legal)
    start = time.perf_counter()
    await sessions.play(game_id, user, move, hand.version)
    return time.perf_counter() - start


async def at_once(database: str, games: int, rounds: int) -> dict[str, Any]:
    storage, sessions = await sessions_on(database)
    rng = random.Random(2)
    try:
        ids = await start_games(sessions, games, 1000, rng)
        # Spread over a game's length, as bench/moves.py does: game i is played on, untimed,
        # i/GAMES of the way, so games end (and new ones start) at their natural rate, not
        # all in the same round.
        for i, game_id in enumerate(ids):
            for _ in range(TYPICAL_MOVES * i // games):
                await click(sessions, game_id, rng)
        gc.freeze()  # as the bot does once it has started (bot/client.py)
        latencies: list[float] = []
        wall = 0.0
        for r in range(-1, rounds):  # round -1 warms up, untimed
            # A game that ended makes room for a new one in its channel (not timed).
            for i, game_id in enumerate(ids):
                if game_id not in sessions.tables:
                    ids[i] = (await start_games(sessions, 1, 5000 + r * games + i, rng))[0]
            start = time.perf_counter()
            done = await asyncio.gather(*(click(sessions, g, rng) for g in ids))
            if r >= 0:
                wall += time.perf_counter() - start
                latencies += [d for d in done if d is not None]
        return {
            "games": games, "moves": len(latencies),
            "moves_per_s": round(len(latencies) / wall),
            "p50_ms": ms(pct(latencies, 0.5)), "p99_ms": ms(pct(latencies, 0.99)),
            "p99_over_p50": round(pct(latencies, 0.99) / pct(latencies, 0.5), 2),
        }  # fmt: skip
    finally:
        await sessions.close()
        await storage.close()


# Start-up's games have a turn timer, as the bot's do by default (120 s; an hour here, so none
# runs out while they are set up): a stored deadline is what lets restore leave a game unread.
STARTUP_TURN = 3600.0


async def startup(
    database: str, live: int, empty_database: str, turn: float | None = STARTUP_TURN
) -> dict[str, Any]:
    storage, sessions = await sessions_on(database, turn)
    rng = random.Random(3)
    try:
        ids = await start_games(sessions, live, 100_000, rng)
        for game_id in ids:  # some moves into each
            for _ in range(rng.randrange(5, 30)):
                if await click(sessions, game_id, rng) is None:
                    break
    finally:
        await sessions.close()
        await storage.close()

    first_use: list[float] = []
    read_all: list[float] = []

    async def restore(db: str, read: bool = False) -> tuple[float, int]:
        start = time.perf_counter()
        storage, sessions = await sessions_on(db, turn)
        restored = await sessions.restore()
        took = time.perf_counter() - start
        if read and hasattr(sessions, "load_all"):  # lazy restore: what reading costs later
            # The bot's start-up: every game read before its table is shown again.
            await sessions.load_all(restored)
            read_all.append(time.perf_counter() - start)
        elif hasattr(sessions, "load"):
            for game_id in restored[:100]:  # a game's first use
                begin = time.perf_counter()
                await sessions.load(game_id)
                first_use.append(time.perf_counter() - begin)
        await sessions.close()
        await storage.close()
        return took, len(restored)

    # Alternating, best of three each: the machine's noise hits both alike.
    empty, full, n = float("inf"), float("inf"), 0
    for _ in range(3):
        empty = min(empty, (await restore(empty_database))[0])
        took, n = await restore(database)
        full = min(full, took)
        await restore(database, read=True)
    out = {"live": n, "empty_ms": ms(empty), "live_ms": ms(full), "ratio": round(full / empty, 2)}
    if first_use:
        out["first_use_ms"] = ms(statistics.median(first_use))
        out["read_all_ms"] = ms(min(read_all))
    return out


async def disk(
    database: str, finished: int, size: Callable[[str], Awaitable[int]]
) -> dict[str, Any]:
    empty = await size(database)
    storage, sessions = await sessions_on(database)
    rng = random.Random(4)
    try:
        done = 0
        channel = 200_000
        while done < finished:
            [game_id] = await start_games(sessions, 1, channel, rng)
            channel += 1
            while await click(sessions, game_id, rng) is not None:
                pass
            done += 1
    finally:
        await sessions.close()
        await storage.close()
    full = await size(database)
    return {"finished": finished, "bytes_per_game": round((full - empty) / finished)}


async def board(database: str, players: int, repeat: int = 30) -> dict[str, Any]:
    from bot.storage.schema import players as table

    storage = await Storage.open(database)
    try:
        rng = random.Random(5)
        rows = []
        for i in range(players):
            mu, sigma = rng.gauss(25, 5), rng.uniform(1, 8.3)
            rows.append({
                "guild_id": GUILD, "user_id": str(10**17 + i), "name": f"p{i}",
                "games": rng.randrange(1, 50), "wins": rng.randrange(0, 20),
                "cards": rng.randrange(0, 900), "steals": 0, "biggest_steal": 0,
                "mu": mu, "sigma": sigma, "rating": mu - 3 * sigma,
            })  # fmt: skip
        async with storage.transaction() as db:
            for i in range(0, players, 5000):
                await db.execute(table.insert(), rows[i : i + 5000])
        if storage.dialect == "postgresql":
            async with storage.engine.connect() as conn:
                await conn.execution_options(isolation_level="AUTOCOMMIT")
                await conn.exec_driver_sql("VACUUM ANALYZE players")  # as autovacuum would
        else:
            async with storage.transaction() as db:
                await db.exec_driver_sql("ANALYZE")
        board = await storage.stats.leaderboard(GUILD, limit=players)
        top, middle, last = board[0], board[len(board) // 2], board[-1]

        async def timed(call: Callable[[], Awaitable[object]]) -> float:
            times = []
            for _ in range(repeat):
                start = time.perf_counter()
                await call()
                times.append(time.perf_counter() - start)
            return ms(statistics.median(times))

        s = storage.stats
        ranks_ok = all([
            await s.rank(GUILD, p.player.user_id) == p.rank for p in (top, middle, last)
        ])  # fmt: skip
        return {
            "players": players, "ranks_match_the_board": ranks_ok,
            "page_top_ms": await timed(lambda: s.leaderboard(GUILD)),
            "page_middle_ms": await timed(lambda: s.leaderboard(GUILD, offset=players // 2)),
            "rank_top_ms": await timed(lambda: s.rank(GUILD, top.player.user_id)),
            "rank_middle_ms": await timed(lambda: s.rank(GUILD, middle.player.user_id)),
            "rank_last_ms": await timed(lambda: s.rank(GUILD, last.player.user_id)),
        }  # fmt: skip
    finally:
        await storage.close()


async def run_backend(backend: Backend, args: argparse.Namespace) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if args.startup_only:
        empty = backend.new()
        await (await Storage.open(empty)).close()
        turn = None if args.untimed else STARTUP_TURN
        out["startup"] = await startup(backend.new(), args.live, empty, turn)
        return out
    out["serial"] = await serial(backend.new(), args.serial)
    out["at_once"] = await at_once(backend.new(), args.games, args.rounds)
    empty = backend.new()
    await (await Storage.open(empty)).close()
    out["startup"] = await startup(backend.new(), args.live, empty)
    out["disk"] = await disk(backend.new(), args.finished, backend.size)
    out["leaderboard"] = await board(backend.new(), args.players)
    return out


async def main(args: argparse.Namespace) -> dict[str, Any]:
    backends: list[Backend] = [Sqlite()]
    if not args.sqlite_only:
        backends.append(Postgres(args.postgres))
    if args.serial_only:
        folder = Path(tempfile.mkdtemp(prefix="steal-bench-"))
        return {"sqlite": {"serial": await serial(str(folder / "s.db"), args.serial)}}
    results = {}
    for backend in backends:
        try:
            results[backend.name] = await run_backend(backend, args)
        finally:
            await backend.drop()
    return results


def table(results: dict[str, Any]) -> str:
    rows = [
        ("serial save_move, median ms", "serial", "median_ms"),
        ("at once: moves/s", "at_once", "moves_per_s"),
        ("at once: p50 ms", "at_once", "p50_ms"),
        ("at once: p99 ms", "at_once", "p99_ms"),
        ("at once: p99 / p50", "at_once", "p99_over_p50"),
        ("start-up empty ms", "startup", "empty_ms"),
        ("start-up with live games ms", "startup", "live_ms"),
        ("start-up ratio", "startup", "ratio"),
        ("a restored game's first use (read), median ms", "startup", "first_use_ms"),
        ("start-up, then every game read (load_all) ms", "startup", "read_all_ms"),
        ("disk per finished game, bytes", "disk", "bytes_per_game"),
        ("leaderboard page (top) ms", "leaderboard", "page_top_ms"),
        ("leaderboard page (middle) ms", "leaderboard", "page_middle_ms"),
        ("own rank (top) ms", "leaderboard", "rank_top_ms"),
        ("own rank (middle) ms", "leaderboard", "rank_middle_ms"),
        ("own rank (last) ms", "leaderboard", "rank_last_ms"),
    ]
    names = list(results)
    lines = ["| measure | " + " | ".join(names) + " |", "| --- |" + " --- |" * len(names)]
    for label, part, key in rows:
        values = [str(results[n].get(part, {}).get(key, "")) for n in names]
        if any(values):
            lines.append(f"| {label} | " + " | ".join(values) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--games", type=int, default=100)
    parser.add_argument("--rounds", type=int, default=30)
    parser.add_argument("--live", type=int, default=1000)
    parser.add_argument("--finished", type=int, default=100)
    parser.add_argument("--players", type=int, default=100_000)
    parser.add_argument("--serial", type=int, default=1000)
    parser.add_argument("--serial-only", action="store_true")
    parser.add_argument("--sqlite-only", action="store_true")
    parser.add_argument("--startup-only", action="store_true")
    parser.add_argument("--untimed", action="store_true", help="start-up's games: no turn timer")
    parser.add_argument(
        "--postgres", default=os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_PG
    )
    args = parser.parse_args()
    results = asyncio.run(main(args))
    if args.json:
        print(json.dumps(results, indent=2))
    else:
        print(table(results))
