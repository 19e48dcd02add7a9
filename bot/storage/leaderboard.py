"""Per-guild player stats, skill ratings and the leaderboard."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Collection, Mapping, Sequence
from typing import TYPE_CHECKING

from bot import stats
from bot.rows import PlayerStats, Standing

if TYPE_CHECKING:
    import aiosqlite

    from .db import Storage

RATING = "mu - 3 * sigma"  # stats.display_rating, in SQL
# Sort orders, each ending in user_id so equal players always come in the same order.
# Fixed strings chosen by key, never user input, so putting them into SQL is safe.
ORDERS = {
    "rating": f"{RATING} DESC, wins DESC, user_id",
    "wins": f"wins DESC, {RATING} DESC, user_id",
    "cards": f"cards DESC, {RATING} DESC, user_id",
    "win_rate": f"CAST(wins AS REAL) / games DESC, games DESC, {RATING} DESC, user_id",
}
COLUMNS = "guild_id, user_id, name, games, wins, cards, steals, biggest_steal, mu, sigma"


def to_stats(r: sqlite3.Row) -> PlayerStats:
    return PlayerStats(*(r[c] for c in COLUMNS.split(", ")))


def order(sort: str) -> str:
    try:
        return ORDERS[sort]
    except KeyError:
        raise ValueError(f"unknown sort {sort!r}; choose one of {', '.join(ORDERS)}") from None


class Stats:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def get(self, guild_id: int, user_id: str) -> PlayerStats | None:
        row = await self.storage.fetchone(
            f"SELECT {COLUMNS} FROM players WHERE guild_id = ? AND user_id = ?",
            (guild_id, str(user_id)),
        )
        return to_stats(row) if row else None

    async def leaderboard(
        self, guild_id: int, sort: str = "rating", limit: int = 10, offset: int = 0
    ) -> list[Standing]:
        """One page of the guild's players who have finished a game, best first."""
        rows = await self.storage.fetchall(
            f"SELECT {COLUMNS} FROM players WHERE guild_id = ? AND games > 0"
            f" ORDER BY {order(sort)} LIMIT ? OFFSET ?",
            (guild_id, limit, offset),
        )
        return [Standing(offset + i + 1, to_stats(r)) for i, r in enumerate(rows)]

    async def rank(self, guild_id: int, user_id: str, sort: str = "rating") -> int | None:
        """The player's place on the board (1 = top), or None if they have no finished game."""
        row = await self.storage.fetchone(
            "SELECT rank FROM (SELECT user_id,"
            f" ROW_NUMBER() OVER (ORDER BY {order(sort)}) AS rank"
            " FROM players WHERE guild_id = ? AND games > 0) WHERE user_id = ?",
            (guild_id, str(user_id)),
        )
        return row["rank"] if row else None

    async def count(self, guild_id: int) -> int:
        """How many players the board has, for page counts."""
        row = await self.storage.fetchone(
            "SELECT count(*) AS n FROM players WHERE guild_id = ? AND games > 0", (guild_id,)
        )
        assert row is not None  # count(*) always answers one row
        n: int = row["n"]
        return n

    async def names(self, guild_id: int, user_ids: Collection[str]) -> dict[str, str]:
        """Last known display names, for players who may have left the guild."""
        ids = [str(u) for u in user_ids]
        rows = await self.storage.fetchall(
            "SELECT user_id, name FROM players WHERE guild_id = ?"
            " AND user_id IN (SELECT value FROM json_each(?))",
            (guild_id, json.dumps(ids)),
        )
        return {r["user_id"]: r["name"] for r in rows}

    async def all(self, guild_id: int) -> list[Standing]:
        """The whole board, best rating first (for an export)."""
        return await self.leaderboard(guild_id, limit=-1)  # SQLite: LIMIT -1 is no limit

    async def reset(self, guild_id: int) -> int:
        """Start the guild's board afresh: every total and rating back to the start. Names and
        finished games' history stay. Returns how many players had played."""
        async with self.storage.transaction() as db:
            cursor = await db.execute(
                "UPDATE players SET games = 0, wins = 0, cards = 0, steals = 0,"
                " biggest_steal = 0, mu = ?, sigma = ? WHERE guild_id = ? AND games > 0",
                (stats.START_MU, stats.START_SIGMA, guild_id),
            )
            return cursor.rowcount

    async def set_name(self, guild_id: int, user_id: str, name: str) -> None:
        async with self.storage.transaction() as db:
            await db.execute(
                "INSERT INTO players (guild_id, user_id, name, mu, sigma) VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET name = excluded.name",
                (guild_id, str(user_id), name, stats.START_MU, stats.START_SIGMA),
            )


async def add_game(
    db: aiosqlite.Connection,
    guild_id: int,
    seats: Sequence[str],
    seat_places: Sequence[int],
    won: Collection[int],
    per_seat: Sequence[stats.SeatStats],
    names: Mapping[str, str],
    unrated: Collection[str] = (),
) -> None:
    """Count one finished game for its players. Runs inside the caller's transaction. Seats
    in `unrated` (AI opponents) are rated from the start every game and never stored."""
    ratings = []
    for user_id in seats:
        if user_id in unrated:
            ratings.append((stats.START_MU, stats.START_SIGMA))
            continue
        async with db.execute(
            "SELECT mu, sigma FROM players WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        ) as cursor:
            row = await cursor.fetchone()
        ratings.append((row["mu"], row["sigma"]) if row else (stats.START_MU, stats.START_SIGMA))
    rated = stats.rate(ratings, seat_places)
    for seat, user_id in enumerate(seats):
        if user_id in unrated:
            continue
        s = per_seat[seat]
        mu, sigma = rated[seat]
        await db.execute(
            "INSERT INTO players (guild_id, user_id, name, games, wins, cards, steals,"
            " biggest_steal, mu, sigma) VALUES (?, ?, ?, 1, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
            " name = CASE WHEN excluded.name = '' THEN name ELSE excluded.name END,"
            " games = games + 1, wins = wins + excluded.wins, cards = cards + excluded.cards,"
            " steals = steals + excluded.steals,"
            " biggest_steal = max(biggest_steal, excluded.biggest_steal),"
            " mu = excluded.mu, sigma = excluded.sigma",
            (
                guild_id,
                user_id,
                names.get(user_id, ""),
                int(seat in won),
                s.cards,
                s.steals,
                s.biggest_steal,
                mu,
                sigma,
            ),
        )
