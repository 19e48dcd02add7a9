"""The interaction tokens of players' open hand messages, kept so a restart can still edit
(and at last delete) them. A token is a secret while it lives (15 minutes): every read drops
the expired ones, and nothing here logs one."""

from __future__ import annotations

from typing import TYPE_CHECKING

from sqlalchemy import delete, select, tuple_

from bot.domain.values import HandToken

from .schema import hand_tokens
from .sql import upsert_into

if TYPE_CHECKING:
    from .connection import Connection

h = hand_tokens.c
BATCH = 500  # expired rows dropped per transaction: no long hold on SQLite's one writer


class HandTokens:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def keep(self, item: HandToken) -> None:
        """The player's open hand is this message now (one per player and game)."""
        values = {
            "game_id": item.game_id, "user_id": item.user_id, "token": item.token,
            "message_id": item.message_id, "origin": item.origin, "lang": item.lang,
            "expires_at": item.expires_at,
        }  # fmt: skip
        stmt = upsert_into(hand_tokens, self.connection.dialect).values(**values)
        stmt = stmt.on_conflict_do_update(
            index_elements=[h.game_id, h.user_id],
            set_={k: stmt.excluded[k] for k in values if k not in ("game_id", "user_id")},
        )
        async with self.connection.transaction() as db:
            await db.execute(stmt)

    async def live(self) -> list[HandToken]:
        """Every token that still lives; the expired ones are dropped first."""
        await self.drop_expired()
        rows = await self.connection.fetchall(select(hand_tokens).order_by(h.game_id, h.user_id))
        return [
            HandToken(r.game_id, r.user_id, r.token, r.message_id, r.origin, r.lang, r.expires_at)
            for r in rows
        ]

    async def drop_expired(self) -> None:
        """Every expired row, BATCH at a time (each batch its own short transaction)."""
        now = self.connection.clock()
        batch = select(h.game_id, h.user_id).where(h.expires_at <= now).limit(BATCH)
        stmt = delete(hand_tokens).where(tuple_(h.game_id, h.user_id).in_(batch))
        while True:
            async with self.connection.transaction() as db:
                dropped = (await db.execute(stmt)).rowcount
            if dropped < BATCH:
                return

    async def forget(self, game_id: int, user_id: str | None = None) -> None:
        """A game's tokens (or one player's) are of no more use: its hands are done."""
        stmt = delete(hand_tokens).where(h.game_id == game_id)
        if user_id is not None:
            stmt = stmt.where(h.user_id == user_id)
        async with self.connection.transaction() as db:
            await db.execute(stmt)
