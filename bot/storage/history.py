"""Finished games' records, newest first. A board's are read by its key (Place.board_id: a
server's id, or the channel's outside a server)."""

from __future__ import annotations

import json
from typing import TYPE_CHECKING, Any

from sqlalchemy import Row, Select, select

from bot.domain.values import HistoryEntry

from .schema import history, history_players

if TYPE_CHECKING:
    from .connection import Connection

h = history.c
COLUMNS = (h.game_id, h.guild_id, h.channel_id, h.finished_at, h.seats, h.places, h.forfeited,
           h.record, h.board_id)  # fmt: skip


def newest_first(query: Select[Any], limit: int, offset: int) -> Select[Any]:
    return query.order_by(h.finished_at.desc(), h.game_id.desc()).limit(limit).offset(offset)


def to_entry(r: Row[Any]) -> HistoryEntry:
    return HistoryEntry(
        game_id=r.game_id,
        guild_id=r.guild_id,
        channel_id=r.channel_id,
        finished_at=r.finished_at,
        seats=tuple(json.loads(r.seats)),
        places=tuple(json.loads(r.places)),
        forfeited=tuple(json.loads(r.forfeited)),
        record=json.loads(r.record),
        board_id=r.board_id,
    )


class History:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def get(self, game_id: int) -> HistoryEntry | None:
        row = await self.connection.fetchone(select(*COLUMNS).where(h.game_id == game_id))
        return to_entry(row) if row else None

    async def by_board(self, board_id: int, limit: int = 10, offset: int = 0) -> list[HistoryEntry]:
        query = newest_first(select(*COLUMNS).where(h.board_id == board_id), limit, offset)
        return [to_entry(r) for r in await self.connection.fetchall(query)]

    by_guild = by_board  # a server's board is keyed by the server's id

    async def by_player(
        self, user_id: str, board_id: int | None = None, limit: int = 10, offset: int = 0
    ) -> list[HistoryEntry]:
        """A player's finished games, on one board or (board_id None) everywhere."""
        hp = history_players.c
        query = (
            select(*COLUMNS)
            .select_from(history_players.join(history, h.game_id == hp.game_id))
            .where(hp.user_id == str(user_id))
        )
        if board_id is not None:
            query = query.where(h.board_id == board_id)
        return [
            to_entry(r) for r in await self.connection.fetchall(newest_first(query, limit, offset))
        ]

    async def all(self, board_id: int) -> list[HistoryEntry]:
        """Every finished game of the board, oldest first (for an export)."""
        query = select(*COLUMNS).where(h.board_id == board_id).order_by(h.finished_at, h.game_id)
        return [to_entry(r) for r in await self.connection.fetchall(query)]
