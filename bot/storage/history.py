"""Finished games' records, newest first."""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING

from bot.rows import HistoryEntry

if TYPE_CHECKING:
    from .db import Storage

COLUMNS = (
    "h.game_id, h.guild_id, h.channel_id, h.finished_at, h.seats, h.places, h.forfeited, h.record"
)
NEWEST_FIRST = "ORDER BY h.finished_at DESC, h.game_id DESC LIMIT ? OFFSET ?"


def to_entry(r: sqlite3.Row) -> HistoryEntry:
    return HistoryEntry(
        game_id=r["game_id"],
        guild_id=r["guild_id"],
        channel_id=r["channel_id"],
        finished_at=r["finished_at"],
        seats=tuple(json.loads(r["seats"])),
        places=tuple(json.loads(r["places"])),
        forfeited=tuple(json.loads(r["forfeited"])),
        record=json.loads(r["record"]),
    )


class History:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def get(self, game_id: int) -> HistoryEntry | None:
        row = await self.storage.fetchone(
            f"SELECT {COLUMNS} FROM history h WHERE h.game_id = ?", (game_id,)
        )
        return to_entry(row) if row else None

    async def by_guild(self, guild_id: int, limit: int = 10, offset: int = 0) -> list[HistoryEntry]:
        rows = await self.storage.fetchall(
            f"SELECT {COLUMNS} FROM history h WHERE h.guild_id = ? {NEWEST_FIRST}",
            (guild_id, limit, offset),
        )
        return [to_entry(r) for r in rows]

    async def by_player(
        self, user_id: str, guild_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[HistoryEntry]:
        """A player's finished games, in one guild or (guild_id None) everywhere."""
        rows = await self.storage.fetchall(
            f"SELECT {COLUMNS} FROM history_players p JOIN history h ON h.game_id = p.game_id"
            f" WHERE p.user_id = ? AND (? IS NULL OR h.guild_id = ?) {NEWEST_FIRST}",
            (str(user_id), guild_id, guild_id, limit, offset),
        )
        return [to_entry(r) for r in rows]

    async def all(self, guild_id: int) -> list[HistoryEntry]:
        """Every finished game of the guild, oldest first (for an export)."""
        rows = await self.storage.fetchall(
            f"SELECT {COLUMNS} FROM history h WHERE h.guild_id = ?"
            " ORDER BY h.finished_at, h.game_id",
            (guild_id,),
        )
        return [to_entry(r) for r in rows]
