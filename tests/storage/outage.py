"""The database failing for real during chosen storage calls, then coming back.

SQLite: an authorizer on the writer's connection, and on the event loop's (which saves moves),
refuses every INSERT, UPDATE and DELETE while the database is down (BEGIN, COMMIT and ROLLBACK
still run, so a failed transaction rolls back as it would after a disk error). PostgreSQL:
every connection of the storage's pool is terminated with pg_terminate_backend, as a server
restart or failover would; the next statement on each fails, and the pool connects again.
"""

from __future__ import annotations

import sqlite3
from typing import Any

import asyncpg
from sqlalchemy import event

from bot.storage import Storage
from tests.support import backends

WRITES = {sqlite3.SQLITE_INSERT, sqlite3.SQLITE_UPDATE, sqlite3.SQLITE_DELETE}


def refuse_writes(action: int, *_args: Any) -> int:
    return sqlite3.SQLITE_DENY if action in WRITES else sqlite3.SQLITE_OK


class Outage:
    def __init__(self, storage: Storage) -> None:
        self.storage = storage
        self.pids: set[int] = set()  # PostgreSQL: the backends of the storage's pool
        self.failed: dict[str, int] = {}  # storage call -> calls made while down

    async def install(self) -> Outage:
        if self.storage.dialect == "postgresql":
            engine = self.storage.engine.sync_engine
            event.listen(engine, "connect", self._connected)
            await self.storage.engine.dispose()  # every connection from now on is known
        return self

    def _connected(self, dbapi_connection: Any, _record: Any) -> None:
        self.pids.add(dbapi_connection._connection.get_server_pid())

    async def down(self) -> None:
        if self.storage.dialect == "postgresql":
            # A connection in the pool to kill, even straight after the last outage (which
            # left none): else the failing call would connect anew and not fail at all.
            async with self.storage.engine.connect() as connection:
                await connection.exec_driver_sql("SELECT 1")
            admin = await asyncpg.connect(backends.dsn(backends.server_url()))
            try:
                await admin.execute(
                    "SELECT pg_terminate_backend(pid) FROM unnest($1::int[]) AS pid",
                    sorted(self.pids),
                )
            finally:
                await admin.close()
            self.pids.clear()
            return
        async with self.storage.connection.driver() as db:
            await db.set_authorizer(refuse_writes)
        if self.storage.connection.loop_db is not None:
            self.storage.connection.loop_db.set_authorizer(refuse_writes)

    async def up(self) -> None:
        if self.storage.dialect != "postgresql":
            async with self.storage.connection.driver() as db:
                await db.set_authorizer(None)
            if self.storage.connection.loop_db is not None:
                self.storage.connection.loop_db.set_authorizer(None)

    def during(self, name: str, times: int = 1) -> None:
        """The first `times` calls of `storage.games.<name>` run with the database down; it
        is back when each returns (or raises)."""
        games = self.storage.games
        real = getattr(games, name)
        self.failed[name] = 0

        async def failing(*args: Any, **kwargs: Any) -> Any:
            if self.failed[name] >= times:
                return await real(*args, **kwargs)
            self.failed[name] += 1
            await self.down()
            try:
                return await real(*args, **kwargs)
            finally:
                await self.up()

        setattr(games, name, failing)
