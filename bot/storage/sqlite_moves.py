"""Move saves on SQLite: one statement a move, run on the event loop's own connection.

Why: every statement is a trip to the driver's thread, and on a busy machine each trip is
most of what saving a move costs. SQLAlchemy's aiosqlite adapter makes three a statement (open
a cursor, execute, close it), so BEGIN, UPDATE, INSERT and COMMIT were ten. Here a move is
one INSERT into a TEMP view whose INSTEAD OF trigger runs move_saves.py's own UPDATE and INSERT
(the same Core statements, compiled with the inserted row's columns for their values). One
statement is atomic by itself, so a move alone needs no BEGIN or COMMIT: one trip. A batch
of moves is BEGIN, one executemany, COMMIT. TEMP objects live only on this connection, so the
schema and its migrations know nothing of them; they are made on first use.

Even one trip was most of a move's cost: the driver's thread must wake, then wake the loop, and
on a busy machine each wait is for a core. So a move is saved on the event loop's own
connection (`Connection.on_loop`), right where it is played, when that cannot wait:
- no lock: that connection's busy_timeout is 0, so a database locked by another process says
  SQLITE_BUSY at once, having written nothing, and the move goes through the thread as before
  (where waiting is harmless); a transaction of this process's writer holds its asyncio lock,
  and the move then goes through the thread without trying;
- no fsync: in WAL with synchronous NORMAL a commit only appends to the WAL file. The fsyncs
  are a checkpoint's, and the WAL header's when the first write after a complete checkpoint
  starts the WAL over (a new file too). So neither connection checkpoints by itself
  (wal_autocheckpoint 0): every CHECKPOINT_EVERY moves, one goes to the writer's thread, which
  checkpoints and then saves it, so the WAL's restart is that write's, on the thread. Until a
  write there has followed a checkpoint (or after opening), no move is saved on the loop.
One thread owns each connection and every cursor on it: the loop's is used only on the loop
(check_same_thread); on the writer's, a cursor is closed on its thread (an unclosed one is reset
where it is freed, on the loop, which breaks a statement the thread is running: CPython
gh-118172, "bad parameter or other API misuse").
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
CHECKPOINT_EVERY = 100  # moves between checkpoints (a few pages each: the WAL stays small)
CHECKPOINT = "PRAGMA wal_checkpoint(PASSIVE)"  # never waits for readers or writers


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
        self.restart_due = True  # no move on the loop until a thread's write follows a checkpoint
        self.since = 0  # moves saved since the last checkpoint
        self.checkpointing = False  # one save is making it: the others go the usual way

    async def make(self, db: aiosqlite.Connection, loop_db: sqlite3.Connection | None) -> None:
        """The view and its trigger, on the writer's connection and the loop's, once opened
        (outside any transaction: a rollback would drop them)."""
        for statement in self.setup:
            await db.execute_fetchall(statement)
            if loop_db is not None:
                loop_db.execute(statement).close()

    def ready(self) -> bool:
        """A move may be saved on the loop now (no checkpoint due, none just made)."""
        return not self.restart_due and self.since < CHECKPOINT_EVERY

    def due(self) -> bool:
        """This move should make the checkpoint (`checkpointed`)."""
        return not self.ready() and not self.checkpointing

    def now(self, db: sqlite3.Connection, payload: Any) -> bool:
        """One move on the loop's connection, committed when this returns True; False if the
        database is locked (nothing written: save it through the thread). Raises, having
        changed nothing, if the game is not at the move before it."""
        params, move = payload
        try:
            db.execute(self.insert, {**params, **move}).close()
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False
            raise
        except sqlite3.IntegrityError as exc:
            if STALE not in str(exc):
                raise
            rows = db.execute(self.status_of, {"id": params["game_id"]}).fetchall()
            stored = {"status": rows[0][0], "version": rows[0][1]} if rows else None
            raise self.refusal(params, stored) from None
        self.since += 1
        return True

    async def checkpointed(self, db: aiosqlite.Connection, payload: Any) -> None:
        """A checkpoint, then one move, on the writer's thread (the driver's lock held): if
        the checkpoint was complete, this move's write starts the WAL over, there."""
        self.restart_due = self.checkpointing = True
        try:
            await db.execute_fetchall(CHECKPOINT)
            self.since = 0
            await self.one(db, payload)  # refused: the next move checkpoints again
            self.restart_due = False
        finally:
            self.checkpointing = False

    async def one(self, db: aiosqlite.Connection, payload: Any) -> None:
        """One move, alone or in a batch's transaction; raises, having changed nothing, if
        the game is not at the move before it."""
        params, move = payload
        # execute_fetchall: the cursor is made and freed on the driver's thread.
        statement = asyncio.ensure_future(db.execute_fetchall(self.insert, {**params, **move}))
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
            # Closed on the driver's thread as the block ends (see the module's docstring).
            async with db.executemany(self.insert, [{**p, **m} for p, m in payloads]):
                pass
        except sqlite3.IntegrityError as exc:
            if STALE not in str(exc):
                raise
            return False
        return True
