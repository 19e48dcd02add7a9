"""Move saves on SQLite: one statement a move, on the writer's aiosqlite connection itself.

Why: every statement is a trip to the driver's thread, and on a busy machine each trip is
most of what saving a move costs. SQLAlchemy's aiosqlite adapter makes three a statement (open
a cursor, execute, close it), so BEGIN, UPDATE, INSERT and COMMIT were ten. Here a move is
one INSERT into a TEMP view whose INSTEAD OF trigger runs move_saves.py's own UPDATE and INSERT
(the same Core statements, compiled with the inserted row's columns for their values). One
statement is atomic by itself, so a move alone needs no BEGIN or COMMIT: one trip. A batch
of moves is BEGIN, one executemany, COMMIT. TEMP objects live only on this connection, so the
schema and its migrations know nothing of them; they are made on first use.
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import Callable, Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, literal_column, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql import ClauseElement

from .schema import games

if TYPE_CHECKING:
    import aiosqlite

    from .errors import StorageError

    Refusal = Callable[[Mapping[str, Any], Mapping[Any, Any] | None], StorageError]
    from sqlalchemy import Insert, Update

    SaveMove = Callable[[Callable[..., Any]], Update]
    AddMove = Callable[[Callable[..., Any]], Insert]

VIEW = "move_save"
STALE = "move_save: the game is not at the move before"
# The view's columns: a move's parameters (move_saves.py `save_move`) and its row's (n, m).
COLUMNS = ("game_id", "before", "state", "version", "now", "set_deadline", "new_deadline", "n", "m")
STATUS_OF = select(games.c.status, games.c.version).where(games.c.id == bindparam("id"))


def _sql(statement: ClauseElement, **kwargs: Any) -> str:
    return str(statement.compile(dialect=sqlite.dialect(paramstyle="named"), **kwargs))


def _new(name: str, type_: Any = None) -> Any:
    """In the trigger, a value is the inserted row's column."""
    return literal_column(f'NEW."{name}"', type_)


def setup(save_move: SaveMove, add_move: AddMove) -> list[str]:
    """The TEMP view and its trigger, from move_saves.py's `save_move` and `add_move`."""
    literal = {"compile_kwargs": {"literal_binds": True}}  # the status it matches, inline
    update = _sql(save_move(_new), **literal)
    insert = _sql(add_move(_new).inline(), **literal)  # inline: no RETURNING (not in a trigger)
    names = ", ".join(f'"{c}"' for c in COLUMNS)
    nulls = ", ".join("NULL" for _ in COLUMNS)
    return [
        f"CREATE TEMP VIEW IF NOT EXISTS {VIEW} ({names}) AS SELECT {nulls}",
        f"CREATE TEMP TRIGGER IF NOT EXISTS {VIEW}_do INSTEAD OF INSERT ON {VIEW} BEGIN"
        f" {update}; SELECT RAISE(ABORT, '{STALE}') WHERE changes() = 0; {insert}; END",
    ]


class MoveWrites:
    """move_saves.py's `_write_move` and `_write_moves`, as inserts into the view."""

    def __init__(self, save_move: SaveMove, add_move: AddMove, refusal: Refusal) -> None:
        self.setup = setup(save_move, add_move)
        self.insert = f"INSERT INTO {VIEW} VALUES ({', '.join(':' + c for c in COLUMNS)})"
        self.status_of = _sql(STATUS_OF)
        self.refusal = refusal  # the same error as on PostgreSQL

    async def make(self, db: aiosqlite.Connection) -> None:
        """The view and its trigger, on the writer's connection once opened (outside any
        transaction: a rollback would drop them)."""
        for statement in self.setup:
            await db.execute(statement)

    async def one(self, db: aiosqlite.Connection, payload: Any) -> None:
        """One move, alone or in a batch's transaction; raises, having changed nothing, if
        the game is not at the move before it."""
        params, move = payload
        statement = asyncio.ensure_future(db.execute(self.insert, {**params, **move}))
        try:
            await asyncio.shield(statement)
        except asyncio.CancelledError:
            # The driver's thread runs it anyway: it lands (or not) before the cancel goes on,
            # so a cancelled save is settled when it returns, as a rolled-back one would be.
            await asyncio.wait([statement])
            raise
        except sqlite3.IntegrityError as exc:
            if STALE not in str(exc):
                raise
            rows = list(await db.execute_fetchall(self.status_of, {"id": params["game_id"]}))
            stored = {"status": rows[0][0], "version": rows[0][1]} if rows else None
            raise self.refusal(params, stored) from None

    async def many(self, db: aiosqlite.Connection, payloads: list[Any]) -> bool:
        """A batch of moves in one executemany, inside the batch's transaction. False if some
        game was not at the move before (the caller rolls back and goes one by one to tell
        which)."""
        try:
            await db.executemany(self.insert, [{**p, **m} for p, m in payloads])
        except sqlite3.IntegrityError as exc:
            if STALE not in str(exc):
                raise
            return False
        return True
