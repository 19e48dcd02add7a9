"""The database's connections, on SQLite or PostgreSQL through SQLAlchemy Core (aiosqlite and
asyncpg drivers): opening and checking them, transactions, reads and the clock. Every
repository takes one; `Storage` (db.py) opens it.

SQLite: one writer connection, its transactions serialised by a lock (SQLite has one writer
anyway) and begun IMMEDIATE; a second, read-only connection for reads, so a leaderboard or an
export never waits behind moves (WAL lets it read while the writer writes); a third, the event
loop's own, for moves (`on_loop`: sqlite_moves.py says why). PostgreSQL: a pool.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Executable, Row, event, text
from sqlalchemy.engine.interfaces import DBAPIConnection
from sqlalchemy.ext.asyncio import AsyncConnection, AsyncEngine, create_async_engine
from sqlalchemy.pool import ConnectionPoolEntry

from . import upgrade
from .errors import NewerDatabase, NotADatabase, StorageError
from .url import Target, parse

if TYPE_CHECKING:
    import aiosqlite

HEADER = b"SQLite format 3\x00"
POOL_SIZE = 10  # PostgreSQL connections per process (and as many again when busy)


def check_file(path: Path) -> int:
    """The schema version of an existing SQLite file, or 0 if there is none yet.

    Read-only, so a file we refuse is left exactly as it was. Raises NotADatabase or
    NewerDatabase. Blocking: call it through asyncio.to_thread.
    """
    try:
        with path.open("rb") as f:
            head = f.read(len(HEADER))
    except FileNotFoundError:
        return 0
    except OSError as exc:
        raise StorageError(f"cannot read the database file {path}: {exc}") from exc
    if not head:
        return 0  # an empty file is an empty database to SQLite
    if head != HEADER:
        raise NotADatabase(f"{path} is not a SQLite database; the bot will not touch it")
    # With no -wal file beside it the file holds everything, and "immutable" stops SQLite
    # from creating -wal/-shm files next to it. With one, SQLite must read it too.
    wal = Path(f"{path}-wal").exists()
    uri = path.resolve().as_uri() + ("?mode=ro" if wal else "?mode=ro&immutable=1")
    try:
        con = sqlite3.connect(uri, uri=True)
        try:
            version: int = con.execute("PRAGMA user_version").fetchone()[0]
            con.execute("SELECT count(*) FROM sqlite_master").fetchone()
        finally:
            con.close()
    except sqlite3.DatabaseError as exc:
        raise NotADatabase(f"{path} is not a readable SQLite database: {exc}") from exc
    if version > upgrade.LATEST:
        raise newer(path, version)
    return version


def check(database: str | os.PathLike[str]) -> int:
    """check_file for a SQLite setting; a server is checked when it is opened. Blocking."""
    target = parse(database)
    return 0 if target.path is None else check_file(target.path)


def newer(path: Path, version: int) -> NewerDatabase:
    return NewerDatabase(
        f"{path} has schema version {version}, but this bot knows only up to "
        f"{upgrade.LATEST}: it was written by a newer version of the bot. Upgrade the bot, "
        "or use another DATABASE_URL or DATABASE_PATH; the file was left untouched."
    )


def sqlite_engine(target: Target, *, durable: bool, readonly: bool = False) -> AsyncEngine:
    url = target.url
    if readonly:
        assert target.path is not None
        uri = target.path.resolve().as_uri()
        url = url.set(database=uri, query={"uri": "true", "mode": "ro"})
    engine = create_async_engine(url, pool_size=1, max_overflow=0)

    @event.listens_for(engine.sync_engine, "connect")
    def setup(dbapi: DBAPIConnection, _record: ConnectionPoolEntry) -> None:
        # The driver's own transaction handling would BEGIN late (DEFERRED); we BEGIN ourselves.
        dbapi.isolation_level = None
        cursor = dbapi.cursor()
        pragmas = ["PRAGMA busy_timeout = 5000"]  # ms to wait while another process writes
        if not readonly:
            pragmas += [
                "PRAGMA journal_mode = WAL",  # readers and the writer do not block each other
                # NORMAL in WAL: a commit survives the process being killed; a power cut can
                # lose the last commits (never corrupts). OFF: the tests' throwaway files.
                f"PRAGMA synchronous = {'NORMAL' if durable else 'OFF'}",
                "PRAGMA foreign_keys = ON",
                # Checkpoints are made on this connection's thread, each followed by a move:
                # sqlite_moves.py says why (the loop's connection must never make one).
                "PRAGMA wal_autocheckpoint = 0",
            ]
        for pragma in pragmas:
            cursor.execute(pragma)
            cursor.fetchall()
        cursor.close()

    if not readonly:

        @event.listens_for(engine.sync_engine, "begin")
        def begin(conn: Any) -> None:
            # IMMEDIATE: take the write lock at once, so a transaction never fails half-way
            # because another process started writing after it read.
            conn.exec_driver_sql("BEGIN IMMEDIATE")

    return engine


def loop_connection(path: Path, *, durable: bool) -> sqlite3.Connection:
    """The event loop's own writer (`Connection.on_loop`): it never waits for a lock
    (busy_timeout 0: SQLITE_BUSY at once) and never checkpoints (sqlite_moves.py says why).
    Only the thread that opens it may use it (check_same_thread)."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=True)
    try:
        for pragma in (
            "PRAGMA busy_timeout = 0",
            f"PRAGMA synchronous = {'NORMAL' if durable else 'OFF'}",
            "PRAGMA foreign_keys = ON",
            "PRAGMA wal_autocheckpoint = 0",
        ):
            db.execute(pragma).close()
    except BaseException:
        db.close()
        raise
    return db


class Connection:
    """Owns the connections. `transaction()` for writes, `fetchall`/`fetchone` for reads."""

    def __init__(
        self,
        target: Target,
        writer: AsyncConnection | None,
        engine: AsyncEngine,
        reader: AsyncEngine | None,
    ) -> None:
        self.target = target
        self.path = target.path  # the SQLite file; None on PostgreSQL
        self.dialect = "sqlite" if target.sqlite else "postgresql"
        self.engine = engine
        self.writer = writer  # SQLite: the one connection that writes
        self.driver_connection: aiosqlite.Connection | None = None  # SQLite: see `driver`
        self.loop_db: sqlite3.Connection | None = None  # SQLite: see `on_loop`
        self.reader = reader  # SQLite: the read-only engine; PostgreSQL: the pool, autocommit
        self.lock = asyncio.Lock()  # SQLite: one writer transaction at a time
        self.read_lock = asyncio.Lock()  # SQLite: the reader connection's statements
        # What every row is dated by; the bot sets its own (Storage.clock).
        self.clock: Callable[[], float] = time.time

    @classmethod
    async def open(cls, target: Target, *, durable: bool) -> Connection:
        """Open (creating if needed) and migrate the database. Refuses newer or foreign files.
        durable=False: see Storage.open."""
        if target.path is not None:
            return await cls._open_sqlite(target, durable)
        settings = {"search_path": target.search_path} if target.search_path else {}
        if not durable:  # the tests' throwaway schemas: commit without waiting for the disk
            settings["synchronous_commit"] = "off"
        engine = create_async_engine(
            target.url,
            pool_size=POOL_SIZE,
            max_overflow=POOL_SIZE,
            pool_recycle=3600,  # connections a server or proxy may have dropped meanwhile
            connect_args={"server_settings": settings},
        )
        try:
            async with engine.begin() as conn:
                if target.search_path:  # ?search_path=NAME: a schema of its own, made if new
                    await conn.run_sync(upgrade.create_schema, target.search_path)
                await conn.run_sync(upgrade.upgrade, str(target))
        except BaseException:
            await engine.dispose()
            raise
        # Reads in autocommit, on the same pool: no BEGIN and ROLLBACK round trips each.
        reader = engine.execution_options(isolation_level="AUTOCOMMIT")
        return cls(target, None, engine, reader)

    @classmethod
    async def _open_sqlite(cls, target: Target, durable: bool) -> Connection:
        path = target.path
        assert path is not None
        path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(check_file, path)
        engine = sqlite_engine(target, durable=durable)
        writer: AsyncConnection | None = None
        try:
            writer = await engine.connect()
            version = (await writer.exec_driver_sql("PRAGMA user_version")).scalar_one()
            await writer.rollback()
            if version > upgrade.LATEST:  # another process upgraded it since check_file
                raise newer(path, version)
            async with writer.begin():
                await writer.run_sync(upgrade.upgrade, str(path))
            reader = sqlite_engine(target, durable=durable, readonly=True)
            # Opened here, on the loop's thread: the one that uses it.
            loop_db = loop_connection(path, durable=durable)
        except BaseException:
            if writer is not None:
                await writer.close()
            await engine.dispose()
            raise
        connection = cls(target, writer, engine, reader)
        connection.loop_db = loop_db
        return connection

    async def close(self) -> None:
        """Close every connection; closing twice is harmless."""
        async with self.lock:  # let a running transaction finish first
            if self.loop_db is not None:
                self.loop_db.close()
                self.loop_db = None
            if self.writer is not None:
                await self.writer.close()
            if self.reader is not None:
                await self.reader.dispose()
            await self.engine.dispose()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """BEGIN ... COMMIT, or ROLLBACK if the block raises."""
        if self.writer is None:
            async with self.engine.begin() as conn:
                yield conn
            return
        async with self.lock, self.writer.begin():
            yield self.writer

    @contextlib.asynccontextmanager
    async def driver(self) -> AsyncIterator[aiosqlite.Connection]:
        """SQLite: the writer's aiosqlite connection itself, under the writer's lock, for
        statements that are atomic alone (sqlite_moves.py says why)."""
        assert self.writer is not None
        async with self.lock:
            if self.driver_connection is None:  # the writer is held for good: it never changes
                raw = await self.writer.get_raw_connection()
                self.driver_connection = raw.driver_connection
            assert self.driver_connection is not None
            yield self.driver_connection

    @contextlib.asynccontextmanager
    async def driver_transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """SQLite: BEGIN IMMEDIATE ... COMMIT on the driver's connection (`driver`)."""
        async with self.driver() as db:
            try:
                await db.execute_fetchall("BEGIN IMMEDIATE")  # its cursor freed on the thread
                yield db
                await db.commit()
            except BaseException:
                # Even when cancelled: the driver runs its queue in order, so this comes after
                # whatever statement was in flight, and a transaction is never left open.
                await asyncio.shield(db.rollback())
                raise

    def loop_free(self) -> bool:
        """SQLite: `on_loop` can be entered without waiting (no transaction of the writer's
        under way in this process)."""
        return self.loop_db is not None and not self.lock.locked()

    def on_loop(self) -> sqlite3.Connection:
        """SQLite: the event loop's own connection, for a statement run right here, with no
        trip to a driver's thread (sqlite_moves.py). Only when `loop_free`, and used without
        awaiting: no transaction of the writer's can begin meanwhile, so the writer's lock
        need not be taken (an async context and the lock cost ~5 us a move)."""
        assert self.loop_db is not None and not self.lock.locked()
        return self.loop_db

    async def fetchall(
        self, statement: Executable | str, params: Mapping[str, Any] | None = None
    ) -> list[Row[Any]]:
        """A read: on SQLite from the read-only connection, so it never waits for writes."""
        stmt: Executable = text(statement) if isinstance(statement, str) else statement
        assert self.reader is not None
        if self.writer is None:  # PostgreSQL: any connection of the pool
            async with self.reader.connect() as conn:
                return list(await conn.execute(stmt, params or {}))
        async with self.read_lock, self.reader.connect() as conn:
            return list(await conn.execute(stmt, params or {}))

    async def fetchone(
        self, statement: Executable | str, params: Mapping[str, Any] | None = None
    ) -> Row[Any] | None:
        rows = await self.fetchall(statement, params)
        return rows[0] if rows else None

    async def schema_version(self) -> int:
        """The schema version: the Alembic revision's number (SQLite's user_version too)."""
        async with self.transaction() as conn:
            revision = await conn.run_sync(upgrade.current)
        return int(revision) if revision else 0
