"""Move saves on SQLite, run on the writer's aiosqlite connection itself.

The statements are games.py's SQLAlchemy Core ones, compiled once. Only how they are sent
differs: SQLAlchemy's aiosqlite adapter costs three trips to the driver's thread per statement
(open a cursor, execute, close it), and its BEGIN is one more statement; aiosqlite's own
`execute` is one trip. A move's transaction goes from ten trips to four, which was most of what
saving a move cost (docs/performance.md, "Moves on Discord").
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from sqlalchemy import bindparam, select
from sqlalchemy.dialects import sqlite
from sqlalchemy.sql import ClauseElement

from .schema import games

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    import aiosqlite

    from .errors import StorageError

    Refusal = Callable[[Mapping[str, Any], Mapping[Any, Any] | None], StorageError]


class Compiled:
    """A Core statement as SQLite SQL with named parameters."""

    def __init__(self, statement: ClauseElement) -> None:
        self.compiled = statement.compile(dialect=sqlite.dialect(paramstyle="named"))
        self.sql = str(self.compiled)

    def params(self, values: dict[str, Any]) -> dict[str, Any]:
        """The caller's values plus the statement's own literals (the status it matches)."""
        return dict(self.compiled.construct_params(values) or {})


STATUS_OF = Compiled(select(games.c.status, games.c.version).where(games.c.id == bindparam("id")))


class MoveWrites:
    """games.py's `_write_move` and `_write_moves`, on the driver connection."""

    def __init__(self, save_move: ClauseElement, add_move: ClauseElement, refusal: Refusal) -> None:
        self.save = Compiled(save_move)
        self.add = Compiled(add_move)
        self.refusal = refusal  # the same error as on PostgreSQL

    async def one(self, db: aiosqlite.Connection, payload: Any) -> None:
        """One move in the batch's transaction; raises, having changed nothing, if the game is
        not at the move before it."""
        params, move = payload
        cursor = await db.execute(self.save.sql, self.save.params(params))
        if cursor.rowcount != 1:
            rows = list(await db.execute_fetchall(STATUS_OF.sql, {"id": params["game_id"]}))
            stored = {"status": rows[0][0], "version": rows[0][1]} if rows else None
            raise self.refusal(params, stored)
        await db.execute(self.add.sql, move)

    async def many(self, db: aiosqlite.Connection, payloads: list[Any]) -> bool:
        """A batch of moves of different games: every UPDATE in one executemany, every move
        row in another. False if a game was not at the move before (the caller rolls back and
        goes one by one to tell which)."""
        params = [self.save.params(p) for p, _ in payloads]
        if len({p["game_id"] for p in params}) != len(params):
            return False
        cursor = await db.executemany(self.save.sql, params)
        # executemany's rowcount is the sum: each UPDATE matches one row at most.
        if cursor.rowcount != len(params):
            return False
        await db.executemany(self.add.sql, [m for _, m in payloads])
        return True
