"""SQL that several repositories share: the JSON columns, the upsert, a game's statuses, its
checked read and its insert, and the outbox rows a game's end writes. No repository imports
another: what two of them need lives here."""

from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Final

from sqlalchemy import RowMapping, Table, bindparam, insert, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError

from .errors import ChannelTaken, GameNotFound, WrongStatus
from .schema import games, outbox

if TYPE_CHECKING:
    from sqlalchemy.ext.asyncio import AsyncConnection

LOBBY, ACTIVE, FINISHED, CANCELLED = "lobby", "active", "finished", "cancelled"
LIVE = (LOBBY, ACTIVE)
# A lobby or game whose row could not be read: set aside (its channel free, never restored)
# until an admin ends it (revision 9).
BROKEN = "broken"
# What a game's end owes Discord: (kind, payload) items for the outbox.
Owed = Sequence[tuple[str, Mapping[str, Any]]]

BY_ID = select(games).where(games.c.id == bindparam("game_id"))


class Keep:
    """The type of KEEP: "leave this column as it is", as opposed to None, which clears it."""

    def __repr__(self) -> str:
        return "KEEP"


KEEP: Final = Keep()


# One encoder for every call: json.dumps with arguments builds a new one each time (a move's
# save encodes twice). No check for cycles (~3 us a state): what is saved is plain data.
COMPACT = json.JSONEncoder(separators=(",", ":"), check_circular=False)


def dumps(value: Any) -> str:
    return COMPACT.encode(value)


def encode(column: str, value: Any) -> Any:
    """A games column's value as stored."""
    if column == "seats":
        return dumps([str(s) for s in value])
    if column == "rules":
        return dumps(dict(value))
    if column == "host_id":
        return str(value)
    if column in ("state", "match", "options", "place"):
        return None if value is None else dumps(dict(value))
    return value


def upsert_into(table: Table, dialect: str) -> Any:
    """INSERT ... ON CONFLICT for the backend (the two dialects spell it the same way)."""
    return (postgresql if dialect == "postgresql" else sqlite).insert(table)


async def require(
    db: AsyncConnection, game_id: int, statuses: Sequence[str], *, lock: bool = False
) -> RowMapping:
    """The game's row, checked; `lock`: FOR UPDATE on PostgreSQL, so two processes that
    finish the same game take turns (SQLite's write lock does that already)."""
    query = BY_ID.with_for_update() if lock else BY_ID
    row = (await db.execute(query, {"game_id": game_id})).mappings().first()
    if row is None:
        raise GameNotFound(f"there is no game {game_id}")
    if row["status"] not in statuses:
        raise WrongStatus(f"game {game_id} is {row['status']}, not {' or '.join(statuses)}")
    return row


async def insert_game(db: AsyncConnection, values: Mapping[str, Any], now: float) -> int:
    """Insert a game inside the caller's transaction; its id. Raises ChannelTaken."""
    try:
        # A savepoint: on PostgreSQL a failed statement spoils the whole transaction.
        async with db.begin_nested():
            result = await db.execute(
                insert(games).values(**values, created_at=now, updated_at=now).returning(games.c.id)
            )
            new_id: int = result.scalar_one()
    except IntegrityError as exc:
        # Only the unique index games_live_channel can refuse these values; make sure.
        taken = (
            await db.execute(
                select(games.c.id).where(
                    games.c.channel_id == values["channel_id"], games.c.status.in_(LIVE)
                )
            )
        ).scalar()
        if taken is None:
            raise
        raise ChannelTaken(values["channel_id"], taken) from exc
    return new_id


def encode_owed(owed: Iterable[tuple[str, Mapping[str, Any]]]) -> list[tuple[str, str]]:
    """(kind, payload as JSON) for each owed item; raises before anything is written if one
    cannot be stored."""
    encoded = []
    for kind, payload in owed:
        if not isinstance(kind, str) or not kind:
            raise ValueError(f"an outbox item's kind must be a non-empty string, not {kind!r}")
        if not isinstance(payload, Mapping):
            raise TypeError(f"an outbox item's payload must be a mapping, not {payload!r}")
        encoded.append((kind, dumps(dict(payload))))
    return encoded


async def insert_owed(
    db: AsyncConnection, game_id: int, encoded: Iterable[tuple[str, str]], now: float
) -> list[int]:
    """Add encoded outbox items for a game inside the caller's transaction; their ids."""
    ids: list[int] = []
    for kind, payload in encoded:
        result = await db.execute(
            insert(outbox)
            .values(game_id=game_id, kind=kind, payload=payload, created_at=now)
            .returning(outbox.c.id)
        )
        ids.append(int(result.scalar_one()))
    return ids
