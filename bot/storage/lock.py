"""Start-up guards: one process per SQLite file, and each shard in one process on PostgreSQL.

Both locks are held for the life of the process and vanish with it, even when it is killed:
the operating system drops a dead process's `flock`, and PostgreSQL drops the advisory locks of
a connection that closes. So a crash never leaves a stale lock behind.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import socket
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from .errors import StorageError
from .url import parse

# In every shard's advisory lock key, so ours never meet another program's.
SHARD_LOCKS = "steal-the-bundle/shard"
# TCP keepalives on the lock's connection: idle seconds before the first probe, seconds
# between probes, probes unanswered before the connection counts as dead. A server that
# vanished without closing (a failover, a network cut) is noticed within about 25 s.
KEEPALIVE = (10, 5, 3)


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


def _key(search_path: str | None, what: str) -> int:
    """A signed 64-bit advisory lock key. Keys are per database, and per schema too: tests, or
    bots, that each have a schema of one database never meet."""
    digest = hashlib.sha256(f"{SHARD_LOCKS}/{search_path or ''}/{what}".encode()).digest()
    return int.from_bytes(digest[:8], "big", signed=True)


def shard_key(search_path: str | None, count: int, shard: int) -> int:
    """The lock of shard `shard` of `count`: the same shard number of another count is
    another shard (other guilds), so the count is in the key."""
    return _key(search_path, f"{count}/{shard}")


def count_class(search_path: str | None) -> int:
    """The first half of the two-part key of a count lock, (count_class, SHARD_COUNT): every
    process holds one, shared, so a process can see which counts the running ones have (in
    pg_locks). Kept within 31 bits: pg_locks shows it as an oid."""
    return _key(search_path, "count") & 0x7FFFFFFF


# Under this lock a process checks the running counts and takes its own locks, so two
# processes starting at once with different counts cannot both pass the check.
def admission_key(search_path: str | None) -> int:
    return _key(search_path, "admission")


# The counts other than $2 that processes of this database (and schema) run with.
OTHER_COUNTS = """
SELECT DISTINCT objid::bigint FROM pg_locks
WHERE locktype = 'advisory' AND granted AND objsubid = 2 AND classid::bigint = $1
  AND objid::bigint <> $2
  AND database = (SELECT oid FROM pg_database WHERE datname = current_database())
  AND pid <> pg_backend_pid()
ORDER BY 1
"""

log = logging.getLogger(__name__)


class ShardLock:
    """PostgreSQL advisory locks on a connection of their own: one per shard id (of the
    count), and a shared one on the count. `watch` notices when they are lost."""

    def __init__(self, connection: Any, count: int, ids: tuple[int, ...]) -> None:
        self.connection, self.count, self.ids = connection, count, ids
        self.lost = False  # the locks went while held (see watch)
        self.releasing = False

    @property
    def pid(self) -> int:
        """The PostgreSQL backend that holds the locks (pg_stat_activity.pid)."""
        return int(self.connection.get_server_pid())

    def watch(self, on_lost: Callable[[str], object]) -> None:
        """Call `on_lost(why)` once if the locks go: their connection closed (a server restart
        or failover, a terminated backend) or its peer stopped answering (TCP keepalives, set
        when it connected, break it within about KEEPALIVE seconds). Without the locks another
        process may be admitted to these shards, so the caller must stop serving them."""

        def closed(_: object) -> None:
            if not self.releasing and not self.lost:
                self.lost = True
                why = "its database connection closed"
                log.critical("lost the lock of shards %s of %d: %s", self.ids, self.count, why)
                on_lost(why)

        self.connection.add_termination_listener(closed)
        if self.connection.is_closed():  # lost before anyone listened
            closed(self.connection)

    async def release(self) -> None:
        self.releasing = True
        with contextlib.suppress(Exception):  # a lost connection has dropped its locks already
            await self.connection.close()


async def _keep_alive(connection: Any) -> None:
    """The lock's connection is idle for the life of the process: the server must not close it
    for that (idle_session_timeout, PostgreSQL 14+), and a dead peer must break it (TCP
    keepalives, both ways) so the termination listener of `watch` hears of it."""
    idle, interval, count = KEEPALIVE
    if connection.get_server_version().major >= 14:
        await connection.execute("SET idle_session_timeout = 0")
    await connection.execute(
        f"SET tcp_keepalives_idle = {idle}; SET tcp_keepalives_interval = {interval}; "
        f"SET tcp_keepalives_count = {count}"
    )  # constants of ours, not input
    # asyncpg sets no keepalive of its own: the client side is set on its socket.
    sock = connection._transport.get_extra_info("socket")
    if sock is not None and sock.family in (socket.AF_INET, socket.AF_INET6):
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_KEEPALIVE, 1)
        for option, value in (("TCP_KEEPIDLE", idle), ("TCP_KEEPINTVL", interval),
                              ("TCP_KEEPCNT", count)):  # fmt: skip
            if hasattr(socket, option):  # Linux names; other systems keep their defaults
                sock.setsockopt(socket.IPPROTO_TCP, getattr(socket, option), value)


async def hold_shards(database: str, count: int, ids: Sequence[int]) -> ShardLock:
    """Claim shards `ids` of `count` on the PostgreSQL database `database` (a URL), or raise
    AlreadyRunning if another process holds any of them, or runs with another SHARD_COUNT
    (its guilds would overlap these: the games would be played twice)."""
    import asyncpg  # type: ignore[import-untyped]  # only a PostgreSQL bot needs it

    target = parse(database)
    dsn = target.url.set(drivername="postgresql").render_as_string(hide_password=False)
    connection = await asyncpg.connect(dsn)
    path = target.search_path
    taken: list[int] = []
    try:
        await _keep_alive(connection)
        await connection.execute("SELECT pg_advisory_lock($1)", admission_key(path))
        others = [row[0] for row in await connection.fetch(OTHER_COUNTS, count_class(path), count)]
        if not others:
            await connection.execute(
                "SELECT pg_advisory_lock_shared($1, $2)", count_class(path), count
            )
            taken = [
                shard
                for shard in ids
                if not await connection.fetchval(
                    "SELECT pg_try_advisory_lock($1)", shard_key(path, count, shard)
                )
            ]
        await connection.execute("SELECT pg_advisory_unlock($1)", admission_key(path))
    except BaseException:
        await connection.close()
        raise
    if others:
        await connection.close()
        counts = ", ".join(map(str, others))
        raise AlreadyRunning(
            f"another bot process on this database runs with SHARD_COUNT={counts}, not "
            f"{count}: under different counts the same servers fall on shards of both, so "
            "every process must have the same SHARD_COUNT. To change it, stop them all first "
            "(see docs/operations.md)."
        )
    if taken:
        await connection.close()
        listed = ", ".join(map(str, taken))
        which = f"shards {listed} are" if len(taken) > 1 else f"shard {listed} is"
        raise AlreadyRunning(
            f"{which} already run by another bot process on this database: each "
            "shard must run in one process only. Give each process its own SHARD_IDS "
            "(see docs/operations.md)."
        )
    return ShardLock(connection, count, tuple(ids))
