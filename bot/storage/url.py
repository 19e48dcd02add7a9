"""Which database: DATABASE_URL (sqlite:///... or postgresql://...), or the DATABASE_PATH file."""

from __future__ import annotations

import hashlib
import os
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from sqlalchemy.engine import URL, make_url
from sqlalchemy.exc import ArgumentError

from .errors import StorageError

DEFAULT_PATH = "data/steal.db"


def database_path(environ: Mapping[str, str] = os.environ) -> Path:
    """The SQLite file: $DATABASE_PATH, or data/steal.db (relative to the working folder)."""
    return Path(environ.get("DATABASE_PATH", "").strip() or DEFAULT_PATH)


def database_url(environ: Mapping[str, str] = os.environ) -> str:
    """$DATABASE_URL; else the SQLite file of database_path, as a path (so nothing changes for
    a bot that never set DATABASE_URL)."""
    return environ.get("DATABASE_URL", "").strip() or str(database_path(environ))


@dataclass(frozen=True)
class Target:
    """A parsed database setting: a SQLite file (`path`) or a PostgreSQL server."""

    url: URL  # with the async driver: sqlite+aiosqlite or postgresql+asyncpg
    path: Path | None  # the SQLite file; None for PostgreSQL
    search_path: str | None = None  # PostgreSQL schema (the tests' isolation), ?search_path=

    @property
    def sqlite(self) -> bool:
        return self.path is not None

    def __str__(self) -> str:
        return str(self.path) if self.path is not None else self.url.render_as_string()


def parse(database: str | os.PathLike[str]) -> Target:
    """A file path, sqlite:///path (sqlite:////absolute), or postgresql://user@host/db.
    Raises StorageError for anything else."""
    raw = os.fspath(database).strip()
    if "://" not in raw:
        return sqlite(Path(raw))
    try:
        url = make_url(raw)
    except ArgumentError as exc:
        raise StorageError(f"DATABASE_URL is not a database URL: {exc}") from None
    backend = url.get_backend_name()
    if backend == "sqlite":
        if not url.database or url.database == ":memory:":
            raise StorageError("a sqlite:/// URL needs a file: sqlite:///data/steal.db")
        return sqlite(Path(url.database))
    if backend in ("postgresql", "postgres"):
        search_path = url.query.get("search_path")
        if isinstance(search_path, tuple):
            search_path = search_path[-1]
        url = url.set(drivername="postgresql+asyncpg").difference_update_query(["search_path"])
        return Target(url, None, search_path)
    raise StorageError(
        f"DATABASE_URL {url.drivername}://... is not supported: use sqlite:///path/to/file.db "
        "or postgresql://user:password@host:5432/database"
    )


def sqlite(path: Path) -> Target:
    return Target(URL.create("sqlite+aiosqlite", database=str(path)), path)


def sync_marker(database: str | os.PathLike[str]) -> Path:
    """Where the bot notes that it synced its commands for this database: beside a SQLite
    file; in data/ for a server, named by the URL (without its password)."""
    target = parse(database)
    if target.path is not None:
        return target.path.with_name(target.path.name + ".commands-synced")
    name = hashlib.sha256(str(target).encode()).hexdigest()[:16]
    return Path("data") / f"postgresql-{name}.commands-synced"
