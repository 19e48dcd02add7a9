"""The anchor of each game the bot token cannot reach (a group DM): the interaction token that
edits its table, kept so a restart finds it. Under the rules for hand tokens: a secret while
it lives (15 minutes), every read drops the expired ones, and nothing here logs one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import delete, select

from bot.domain.values import AnchorToken

from .schema import anchor_tokens
from .sql import upsert_into

if TYPE_CHECKING:
    from .connection import Connection

a = anchor_tokens.c


class AnchorTokens:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def keep(self, item: AnchorToken) -> None:
        """The game's table is edited through this token now (one per game)."""
        values = {
            "game_id": item.game_id, "token": item.token, "message_id": item.message_id,
            "expires_at": item.expires_at, "followups": item.followups,
        }  # fmt: skip
        stmt = upsert_into(anchor_tokens, self.connection.dialect).values(**values)
        stmt = stmt.on_conflict_do_update(
            index_elements=[a.game_id], set_={k: stmt.excluded[k] for k in values if k != "game_id"}
        )
        async with self.connection.transaction() as db:
            await db.execute(stmt)

    async def live(self) -> list[AnchorToken]:
        """Every anchor that still lives; the expired ones are dropped first."""
        await self.drop_expired()
        rows = await self.connection.fetchall(select(anchor_tokens).order_by(a.game_id))
        return [
            AnchorToken(r.game_id, r.token, r.message_id, r.expires_at, r.followups) for r in rows
        ]

    async def drop_expired(self) -> None:
        async with self.connection.transaction() as db:
            await db.execute(delete(anchor_tokens).where(a.expires_at <= self.connection.clock()))

    async def forget(self, game_id: int) -> None:
        """The game is over, or its anchor died: its token is of no more use."""
        async with self.connection.transaction() as db:
            await db.execute(delete(anchor_tokens).where(a.game_id == game_id))
