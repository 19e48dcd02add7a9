"""The outbox: Discord messages owed for a game, kept until they are sent.

What a game's end owes Discord (its end screen, a cancellation notice) is saved in the same
transaction as the end itself (`storage.games.finish`, `finish_then` and `cancel` take `owed`:
finishing.py), so a restart, or Discord failing for a while, never loses it. The sender
reads `pending()`, does each item and then calls `done(item.id)`; an item not marked done is
sent again after a restart, so doing one must be safe to repeat (edit a message rather than
post a new one).
"""

from __future__ import annotations

import json
from collections.abc import Collection, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select, update

from .errors import GameNotFound
from .schema import games, outbox
from .sql import dumps, encode_owed, insert_owed

if TYPE_CHECKING:
    from .connection import Connection

o = outbox.c


@dataclass(frozen=True)
class OutboxItem:
    id: int
    game_id: int
    kind: str  # what to do, e.g. "end_screen"; the sender's vocabulary, not storage's
    payload: dict[str, Any]  # what it needs to do it (JSON)
    created_at: float


class Outbox:
    def __init__(self, connection: Connection) -> None:
        self.connection = connection

    async def add(self, game_id: int, kind: str, payload: Mapping[str, Any]) -> int:
        """Owe one more thing for a game; the new item's id. Raises GameNotFound."""
        encoded = encode_owed([(kind, payload)])
        async with self.connection.transaction() as db:
            found = await db.execute(select(games.c.id).where(games.c.id == game_id))
            if found.first() is None:
                raise GameNotFound(f"there is no game {game_id}")
            [item_id] = await insert_owed(db, game_id, encoded, self.connection.clock())
            return item_id

    async def pending(self) -> list[OutboxItem]:
        """Everything still owed, oldest first."""
        rows = await self.connection.fetchall(select(outbox).order_by(o.id))
        return [
            OutboxItem(r.id, r.game_id, r.kind, json.loads(r.payload), r.created_at) for r in rows
        ]

    async def get(self, item_id: int) -> OutboxItem | None:
        """One item as it is stored now (a forget may have changed it); None once done."""
        r = await self.connection.fetchone(select(outbox).where(o.id == item_id))
        if r is None:
            return None
        return OutboxItem(r.id, r.game_id, r.kind, json.loads(r.payload), r.created_at)

    async def note(self, item_id: int, **fields: Any) -> None:
        """Merge `fields` into an item's payload (what the sender must know after a restart,
        e.g. that it tried to post it); nothing if the item is done."""
        async with self.connection.transaction() as db:
            row = (await db.execute(select(o.payload).where(o.id == item_id))).first()
            if row is not None:
                payload = dumps({**json.loads(row.payload), **fields})
                await db.execute(update(outbox).where(o.id == item_id).values(payload=payload))

    async def done(self, item_id: int) -> None:
        """Forget an item that has been done. Doing so twice is harmless."""
        async with self.connection.transaction() as db:
            await db.execute(delete(outbox).where(o.id == item_id))

    async def settle(self, game_id: int, keep: Collection[str] = ()) -> None:
        """Forget everything a game owed: its messages are shown. Items of the kinds in `keep`
        stay (owed to its channel, not by the game: a season's announcement)."""
        stmt = delete(outbox).where(o.game_id == game_id)
        if keep:
            stmt = stmt.where(o.kind.not_in(list(keep)))
        async with self.connection.transaction() as db:
            await db.execute(stmt)
