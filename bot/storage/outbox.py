"""The outbox: Discord messages owed for a game, kept until they are sent.

What a game's end owes Discord (its end screen, a cancellation notice) is saved in the same
transaction as the end itself (`Games.finish`, `finish_then` and `cancel` take `owed`), so a
restart, or Discord failing for a while, never loses it. The sender reads `pending()`, does
each item and then calls `done(item.id)`; an item not marked done is sent again after a
restart, so doing one must be safe to repeat (edit a message rather than post a new one).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, insert, select

from .errors import GameNotFound
from .schema import games, outbox

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

    from .db import Storage

o = outbox.c


@dataclass(frozen=True)
class OutboxItem:
    id: int
    game_id: int
    kind: str  # what to do, e.g. "end_screen"; the sender's vocabulary, not storage's
    payload: dict[str, Any]  # what it needs to do it (JSON)
    created_at: float


def encode(owed: Iterable[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, str]]:
    """(kind, payload as JSON) for each owed item; raises before anything is written if one
    cannot be stored."""
    encoded = []
    for kind, payload in owed:
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"an outbox item's kind must be a non-empty string, not {kind!r}")
        if not isinstance(payload, Mapping):
            raise TypeError(f"an outbox item's payload must be a mapping, not {payload!r}")
        encoded.append((kind, json.dumps(dict(payload), separators=(",", ":"))))
    return encoded


async def insert_items(
    db: AsyncConnection, game_id: int, encoded: Iterable[tuple[str, str]], now: float
) -> list[int]:
    """Add encoded items for a game inside the caller's transaction; their ids."""
    ids: list[int] = []
    for kind, payload in encoded:
        result = await db.execute(
            insert(outbox)
            .values(game_id=game_id, kind=kind, payload=payload, created_at=now)
            .returning(o.id)
        )
        ids.append(int(result.scalar_one()))
    return ids


class Outbox:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage

    async def add(self, game_id: int, kind: str, payload: Mapping[str, Any]) -> int:
        """Owe one more thing for a game; the new item's id. Raises GameNotFound."""
        encoded = encode([(kind, payload)])
        async with self.storage.transaction() as db:
            found = await db.execute(select(games.c.id).where(games.c.id == game_id))
            if found.first() is None:
                raise GameNotFound(f"there is no game {game_id}")
            [item_id] = await insert_items(db, game_id, encoded, self.storage.clock())
            return item_id

    async def pending(self) -> list[OutboxItem]:
        """Everything still owed, oldest first."""
        rows = await self.storage.fetchall(select(outbox).order_by(o.id))
        return [
            OutboxItem(r.id, r.game_id, r.kind, json.loads(r.payload), r.created_at) for r in rows
        ]

    async def done(self, item_id: int) -> None:
        """Forget an item that has been done. Doing so twice is harmless."""
        async with self.storage.transaction() as db:
            await db.execute(delete(outbox).where(o.id == item_id))

    async def settle(self, game_id: int) -> None:
        """Forget everything a game owed: its messages are shown."""
        async with self.storage.transaction() as db:
            await db.execute(delete(outbox).where(o.game_id == game_id))
