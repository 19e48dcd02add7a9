"""What /steal stats costs on a server with a long history: the figures replayed from the
whole history (as the card worked them out before rated_games) and read from rated_games (as
it does now), side by side, in one run.

    python -m bench.stats [--json] [--sizes 1000,20000] [--players 50] [--repeat 3]

For each size N, a SQLite database (durable, in a temporary folder) with one guild of N
finished games among PLAYERS members (2 to 4 seats; one game in ten has an AI seat and does
not count, the server's ai_counts being off). Its history is written straight to the tables,
the players' totals and ratings from replaying it, and rated_games as an upgrade fills it in
(Records.backfill, timed too: it runs once, at the first start after the upgrade). Then, for
the member who played most, median of REPEAT runs each:

- figures: the card's trend and favourite capture: `old` replays every finished game of the
  guild; `new` reads the member's last rows (Records.figures).
- answer: what the command does before it replies: the member's totals, rank, board size,
  the settings and the figures, and the card drawn (Pillow, in a thread).

Both give the same figures (checked on every run).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable, Mapping
from pathlib import Path
from typing import Any

from sqlalchemy import insert

from bot.domain import ratings as stats
from bot.domain import server_settings
from bot.domain.options import DEFAULTS
from bot.domain.seats import is_ai
from bot.domain.values import PlayerStats, ordinal
from bot.engine import new_game, preset, record
from bot.engine.playout import play_out
from bot.session.records import Records
from bot.storage import Storage
from bot.storage.schema import games, history, history_players, players, stats_backfill
from bot.ui import boards
from bot.ui.stats_card import render_card

GUILD = 1
DECK = "french52"
DISTINCT = 200  # different games played out; the history reuses them with other seats


def ms(seconds: float) -> float:
    return round(seconds * 1000, 2)


def played_games(rng: random.Random) -> list[tuple[dict[str, Any], tuple[int, ...]]]:
    """DISTINCT random games played to the end: (record, places)."""
    out = []
    for i in range(DISTINCT):
        n = 2 + i % 3
        game = play_out(new_game(preset("standard"), [str(s) for s in range(n)], seed=i), rng)
        out.append((dict(record(game)), stats.places(game)))
    return out


async def build(path: str, size: int, people: int) -> Storage:
    """A guild with `size` finished games, as described above."""
    rng = random.Random(size)
    specs = server_settings.make_settings(DEFAULTS)
    storage = await Storage.open(path, setting_defaults=server_settings.defaults(specs))
    pool = played_games(rng)
    members = [str(10**17 + i) for i in range(people)]
    game_rows, history_rows, seat_rows, counted = [], [], [], []
    for gid in range(1, size + 1):
        rec, places = pool[rng.randrange(DISTINCT)]
        seats = rng.sample(members, len(places))
        if rng.random() < 0.1:
            seats[-1] = "ai:medium:1"
        game_rows.append({
            "id": gid, "guild_id": GUILD, "channel_id": 5, "host_id": seats[0],
            "status": "finished", "seats": json.dumps(seats), "rules": "{}",
            "created_at": gid, "updated_at": gid,
        })  # fmt: skip
        history_rows.append({
            "game_id": gid, "guild_id": GUILD, "board_id": GUILD, "channel_id": 5,
            "finished_at": float(gid),
            "seats": json.dumps(seats), "places": json.dumps(list(places)), "forfeited": "[]",
            "record": json.dumps(rec),
        })  # fmt: skip
        seat_rows += [{"game_id": gid, "user_id": s} for s in seats]
        if not any(is_ai(s) for s in seats):
            counted.append((seats, places))
    totals: dict[str, dict[str, Any]] = {}
    start = (stats.START_MU, stats.START_SIGMA)
    for seats, places in counted:
        before = [totals.get(u, {}).get("rating", start) for u in seats]
        for user, place, after in zip(seats, places, stats.rate(before, places), strict=True):
            mine = totals.setdefault(user, {"games": 0, "wins": 0})
            mine["games"] += 1
            mine["wins"] += place == 0
            mine["rating"] = after
    player_rows = [
        {"guild_id": GUILD, "user_id": u, "name": f"member {u[-3:]}", "games": t["games"],
         "wins": t["wins"], "mu": t["rating"][0], "sigma": t["rating"][1],
         "rating": ordinal(*t["rating"])}
        for u, t in totals.items()
    ]  # fmt: skip
    async with storage.transaction() as db:
        await db.execute(insert(games), game_rows)
        await db.execute(insert(history), history_rows)
        await db.execute(insert(history_players), seat_rows)
        await db.execute(insert(players), player_rows)
        await db.execute(insert(stats_backfill).values(guild_id=GUILD))
    return storage


async def old_figures(storage: Storage, user: str, ai_counts: bool) -> stats.Figures:
    """The card's figures as /steal stats worked them out before rated_games (counted games
    only, as now): every finished game of the guild read and replayed, in a thread."""
    player = await storage.stats.get(GUILD, user)
    assert player is not None
    entries = await storage.history.all(GUILD)

    def work() -> stats.Figures:
        counted = [e for e in entries if ai_counts or not any(is_ai(s) for s in e.seats)]
        trend = stats.rating_trend(
            [(e.seats, e.places) for e in counted], user, player.games, player.rating, is_ai
        )
        mine = [(e.record, e.seats.index(user)) for e in counted if user in e.seats]
        return stats.Figures(trend, stats.favourite_capture(mine[-stats.FAVOURITE_GAMES :]))

    return await asyncio.to_thread(work)


Figuring = Callable[[PlayerStats, Mapping[str, Any]], Awaitable[stats.Figures]]


async def answer(storage: Storage, records: Records, user: str, figures: Figuring) -> None:
    """What /steal stats does before it replies (cogs/boards.py), `figures` its figures."""
    player = await records.player(GUILD, user)
    assert player is not None
    rank = await records.rank(GUILD, user)
    count = await records.players(GUILD)
    values = (await records.settings(GUILD)).values
    found = await figures(player, values)
    card = boards.stats_card("en", player, "member", rank, count, found)
    await asyncio.to_thread(render_card, card)


async def timed(call: Callable[[], Awaitable[object]], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        await call()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


async def one_size(folder: Path, size: int, people: int, repeat: int) -> dict[str, Any]:
    storage = await build(str(folder / f"stats-{size}.db"), size, people)
    try:
        records = Records(storage)
        start = time.perf_counter()
        assert await records.backfill(lambda guild_id: True) == [GUILD]
        backfill = time.perf_counter() - start
        board = await storage.stats.all(GUILD)
        user = max(board, key=lambda s: s.player.games).player.user_id
        player = await storage.stats.get(GUILD, user)
        assert player is not None
        old = await old_figures(storage, user, False)
        new = await records.figures(player, DECK)
        assert old == new, (old, new)

        async def old_way(p: PlayerStats, values: Mapping[str, Any]) -> stats.Figures:
            return await old_figures(storage, p.user_id, values["ai_counts"])

        async def new_way(p: PlayerStats, values: Mapping[str, Any]) -> stats.Figures:
            return await records.figures(p, server_settings.rules_for(values).deck)

        def answering(way: Figuring) -> Callable[[], Awaitable[None]]:
            return lambda: answer(storage, records, user, way)

        return {
            "games": size, "players": len(board), "their_games": player.games,
            "figures_old_ms": ms(await timed(lambda: old_figures(storage, user, False), repeat)),
            "figures_new_ms": ms(await timed(lambda: records.figures(player, DECK), repeat * 20)),
            "answer_old_ms": ms(await timed(answering(old_way), repeat)),
            "answer_new_ms": ms(await timed(answering(new_way), repeat * 4)),
            "backfill_ms": ms(backfill), "same_figures": old == new,
        }  # fmt: skip
    finally:
        await storage.close()


async def main(args: argparse.Namespace) -> dict[str, Any]:
    folder = Path(tempfile.mkdtemp(prefix="steal-stats-"))
    return {
        str(size): await one_size(folder, size, args.players, args.repeat)
        for size in map(int, args.sizes.split(","))
    }


def table(results: dict[str, Any]) -> str:
    sizes = list(results)
    lines = [
        "| finished games | " + " | ".join(sizes) + " |",
        "| --- |" + " --- |" * len(sizes),
    ]
    rows = [
        ("players / the member's counted games", None),
        ("figures, old (history replayed), median ms", "figures_old_ms"),
        ("figures, new (rated_games), median ms", "figures_new_ms"),
        ("whole answer, old, median ms", "answer_old_ms"),
        ("whole answer, new, median ms", "answer_new_ms"),
        ("upgrade's backfill, once, ms", "backfill_ms"),
    ]
    for label, key in rows:
        if key is None:
            values = [f"{r['players']} / {r['their_games']}" for r in results.values()]
        else:
            values = [str(r[key]) for r in results.values()]
        lines.append(f"| {label} | " + " | ".join(values) + " |")
    return "\n".join(lines)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--sizes", default="1000,20000")
    parser.add_argument("--players", type=int, default=50)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    results = asyncio.run(main(args))
    print(json.dumps(results, indent=2) if args.json else table(results))
