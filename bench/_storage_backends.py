"""The databases bench/storage.py measures: a SQLite file in a temporary folder, or a schema
of its own on a PostgreSQL server; each makes fresh databases, tells their size on disk, and
drops them all afterwards."""

from __future__ import annotations

import shutil
import sqlite3
import tempfile
import uuid
from pathlib import Path
from typing import Protocol

import asyncpg  # type: ignore[import-untyped]

from bot.storage import Storage, parse


class Backend(Protocol):
    name: str

    def new(self) -> str: ...

    async def size(self, database: str) -> int: ...

    async def drop(self) -> None: ...


class Sqlite:
    name = "sqlite"

    def __init__(self) -> None:
        self.folder = Path(tempfile.mkdtemp(prefix="steal-bench-"))
        self.n = 0

    def new(self) -> str:
        self.n += 1
        return str(self.folder / f"db{self.n}" / "steal.db")

    async def size(self, database: str) -> int:
        path = Path(database)
        if not path.exists():
            storage = await Storage.open(database)
            await storage.close()
        con = sqlite3.connect(path)
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        con.execute("VACUUM")
        con.close()
        return path.stat().st_size

    async def drop(self) -> None:
        shutil.rmtree(self.folder, ignore_errors=True)


class Postgres:
    name = "postgresql"

    def __init__(self, url: str) -> None:
        self.url = url
        self.schemas: list[str] = []

    def new(self) -> str:
        schema = f"bench_{uuid.uuid4().hex[:12]}"
        self.schemas.append(schema)
        return f"{self.url}{'&' if '?' in self.url else '?'}search_path={schema}"

    def dsn(self) -> str:
        return (
            parse(self.url).url.set(drivername="postgresql").render_as_string(hide_password=False)
        )

    async def size(self, database: str) -> int:
        storage = await Storage.open(database)  # makes the schema if it is new
        await storage.close()
        schema = database.rsplit("search_path=", 1)[1]
        con = await asyncpg.connect(self.dsn())
        try:
            await con.execute(f'SET search_path = "{schema}"')
            total = 0
            for t in (
                "guild_settings",
                "games",
                "moves",
                "history",
                "history_players",
                "players",
                "outbox",
            ):
                await con.execute(f"VACUUM FULL {t}")
                total += await con.fetchval("SELECT pg_total_relation_size($1)", t)
            return int(total)
        finally:
            await con.close()

    async def drop(self) -> None:
        con = await asyncpg.connect(self.dsn())
        try:
            for schema in self.schemas:
                await con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await con.close()
