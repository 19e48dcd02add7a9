"""The bot's one SQLite connection: opening, checking, migrating, and serialised transactions."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import time
from collections.abc import AsyncIterator, Callable, Mapping
from pathlib import Path
from typing import Any

import aiosqlite

from .errors import NewerDatabase, NotADatabase, StorageError
from .games import Games
from .history import History
from .leaderboard import Stats
from .migrations import LATEST, migrate, schema_version
from .outbox import Outbox
from .settings import Settings

DEFAULT_PATH = "data/steal.db"
HEADER = b"SQLite format 3\x00"


def database_path(environ: Mapping[str, str] = os.environ) -> Path:
    """The database file: $DATABASE_PATH, or data/steal.db (relative to the working folder)."""
    return Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_PATH)


def check_file(path: Path) -> int:
    """The schema version of an existing database file, or 0 if there is none yet.

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
    if version > LATEST:
        raise newer(path, version)
    return version


def newer(path: Path, version: int) -> NewerDatabase:
    return NewerDatabase(
        f"{path} has schema version {version}, but this bot knows only up to {LATEST}: "
        "it was written by a newer version of the bot. Upgrade the bot, or use another "
        "DATABASE_PATH; the file was left untouched."
    )


class Storage:
    """Owns the connection. Every statement runs under one lock, so the transactions of many
    games never interleave on the shared connection; aiosqlite runs them off the event loop.
    """

    def __init__(
        self, db: aiosqlite.Connection, path: Path, setting_defaults: Mapping[str, Any]
    ) -> None:
        self.db = db
        self.path = path
        self.lock = asyncio.Lock()
        self.clock: Callable[[], float] = time.time
        self.settings = Settings(self, setting_defaults)
        self.games = Games(self)
        self.history = History(self)
        self.stats = Stats(self)
        self.outbox = Outbox(self)

    @classmethod
    async def open(
        cls,
        path: str | os.PathLike[str],
        *,
        setting_defaults: Mapping[str, Any] | None = None,
        durable: bool = True,
    ) -> Storage:
        """Open (creating if needed) and migrate the database. Refuses newer or foreign files.

        durable=False is for the tests' throwaway databases only: no fsync at each commit
        (synchronous = OFF), so a committed move survives the process being killed but not a
        power cut. The bot always opens durably.
        """
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        await asyncio.to_thread(check_file, path)
        db = await aiosqlite.connect(path, isolation_level=None)  # we issue BEGIN ourselves
        try:
            db.row_factory = sqlite3.Row
            for pragma in (
                "PRAGMA busy_timeout = 5000",  # ms to wait while another process writes
                "PRAGMA journal_mode = WAL",  # readers and the writer do not block each other
                # FULL: a saved move survives a power cut, not just a crash.
                f"PRAGMA synchronous = {'FULL' if durable else 'OFF'}",
                "PRAGMA foreign_keys = ON",
            ):
                await db.execute_fetchall(pragma)  # fetched, so no statement is left open
            version = await schema_version(db)
            if version > LATEST:  # another process upgraded it since check_file
                raise newer(path, version)
            await migrate(db)
        except BaseException:
            await db.close()
            raise
        return cls(db, path, setting_defaults or {})

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        async with self.lock:  # let a running transaction finish first
            await self.db.close()

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """BEGIN IMMEDIATE ... COMMIT, or ROLLBACK if the block raises."""
        async with self.lock:
            try:
                # Inside the try: a task cancelled while waiting here still has its BEGIN run
                # (aiosqlite's queue keeps it), so the ROLLBACK below must follow it.
                await self.db.execute("BEGIN IMMEDIATE")
                yield self.db
                await self.db.execute("COMMIT")
            except BaseException:
                # A failed COMMIT leaves the transaction open; SQLite may have ended it itself.
                with contextlib.suppress(sqlite3.Error):
                    await self.db.execute("ROLLBACK")
                raise

    async def fetchall(self, sql: str, params: tuple[Any, ...] = ()) -> list[sqlite3.Row]:
        async with self.lock:
            return list(await self.db.execute_fetchall(sql, params))

    async def fetchone(self, sql: str, params: tuple[Any, ...] = ()) -> sqlite3.Row | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def schema_version(self) -> int:
        async with self.lock:
            return await schema_version(self.db)
