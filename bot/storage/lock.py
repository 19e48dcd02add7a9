"""Start-up guards: one process per SQLite file, and each shard in one process on PostgreSQL.

Both locks are held for the life of the process and vanish with it, even when it is killed:
the operating system drops a dead process's `flock`, and PostgreSQL drops the advisory locks of
a connection that closes. So a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import os
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from .errors import StorageError
from .url import parse

# In every shard's advisory lock key, so ours never meet another program's.
SHARD_LOCKS = "steal-the-bundle/shard"


class AlreadyRunning(StorageError):
    """Another process already uses this SQLite file, or runs one of these shards."""


class FileLock:
    """An exclusive `flock` on `<database>.lock`, held until `release` or the process ends."""

    def __init__(self, path: Path, fd: int) -> None:
        self.path, self.fd = path, fd

    def release(self) -> None:
        if self.fd >= 0:
            os.close(self.fd)  # closing the file drops the lock
            self.fd = -1


def hold_file(database: Path) -> FileLock:
    """Claim a SQLite database for this process, or raise AlreadyRunning naming PostgreSQL.

    SQLite is one process's database here: the bot keeps each game in memory and serialises
    its writes on its one connection, so a second process on the same file would play the
    same games from stale copies."""
    import fcntl  # POSIX; imported here so the bot still imports where there is none

    path = database.with_name(database.name + ".lock")
    path.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "unknown"
        os.close(fd)
        raise AlreadyRunning(
            f"another bot process (pid {holder}) is already using {database}. One SQLite file "
            "serves one process: to run several processes (shards), use PostgreSQL, with "
            "DATABASE_URL=postgresql://... in every process (see docs/operations.md)."
        ) from None
    except BaseException:
        os.close(fd)
        raise
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)  # whom a refused process names
    return FileLock(path, fd)


def shard_key(search_path: str | None, shard: int) -> int:
    """A shard's advisory lock key (a signed 64-bit integer). Keys are per database, and
    per schema too: tests, or bots, that each have a schema of one database never meet."""
    digest = hashlib.sha256(f"{SHARD_LOCKS}/{search_path or ''}/{shard}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


class ShardLock:
    """PostgreSQL advisory locks, one per shard id, on a connection of their own."""

    def __init__(self, connection: Any, ids: tuple[int, ...]) -> None:
        self.connection, self.ids = connection, ids

    async def release(self) -> None:
        with contextlib.suppress(Exception):  # a lost connection has dropped its locks already
            await self.connection.close()


async def hold_shards(database: str, ids: Sequence[int]) -> ShardLock:
    """Claim shards `ids` on the PostgreSQL database `database` (a URL), or raise
    AlreadyRunning if another process holds any of them (its games would be played twice)."""
    import asyncpg  # type: ignore[import-untyped]  # only a PostgreSQL bot needs it

    target = parse(database)
    dsn = target.url.set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(dsn)
    try:
        taken = [
            shard
            for shard in ids
            if not await connection.fetchval(
                "SELECT pg_try_advisory_lock($1)", shard_key(target.search_path, shard)
            )
        ]
    except BaseException:
        await connection.close()
        raise
    if taken:
        await connection.close()
        listed = ", ".join(map(str, taken))
        which = f"shards {listed} are" if len(taken) > 1 else f"shard {listed} is"
        raise AlreadyRunning(
            f"{which} already run by another bot process on this database: each "
            "shard must run in one process only. Give each process its own SHARD_IDS "
            "(see docs/operations.md)."
        )
    return ShardLock(connection, tuple(ids))
