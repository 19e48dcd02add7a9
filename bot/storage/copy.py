"""Copy every table from one database to another (SQLite to PostgreSQL, or back), with the
row counts of each table checked. Stop the bot first: the copy reads table by table."""

from __future__ import annotations

import os
from collections.abc import Callable

from sqlalchemy import Table, func, insert, select, text

from .db import Storage
from .errors import StorageError
from .schema import TABLES, games, outbox

PAGE = 2000  # rows read and written at a time


async def count(storage: Storage, table: Table) -> int:
    row = await storage.fetchone(select(func.count()).select_from(table))
    assert row is not None  # count(*) always answers one row
    return int(row[0])


async def copy(
    source: str | os.PathLike[str],
    destination: str | os.PathLike[str],
    *,
    progress: Callable[[str, int], None] | None = None,
) -> dict[str, int]:
    """Copy everything from `source` into the empty database `destination` (both are opened,
    and so migrated to this bot's schema). One transaction on the destination: a failure, or
    a count that differs, leaves it as it was. Returns the rows copied per table."""
    src = await Storage.open(source)
    try:
        dst = await Storage.open(destination)
        try:
            return await _copy(src, dst, progress)
        finally:
            await dst.close()
    finally:
        await src.close()


async def _copy(
    src: Storage, dst: Storage, progress: Callable[[str, int], None] | None
) -> dict[str, int]:
    for table in TABLES:
        if await count(dst, table):
            raise StorageError(
                f"the destination already has rows in {table.name}: copy only into an empty "
                "database"
            )
    copied: dict[str, int] = {}
    async with dst.transaction() as out:
        for table in TABLES:
            order = list(table.primary_key.columns)
            done = 0
            while True:
                rows = await src.fetchall(select(table).order_by(*order).limit(PAGE).offset(done))
                if not rows:
                    break
                await out.execute(insert(table), [dict(r._mapping) for r in rows])
                done += len(rows)
            written = (await out.execute(select(func.count()).select_from(table))).scalar_one()
            expected = await count(src, table)
            if written != done or done != expected:
                raise StorageError(
                    f"{table.name}: {expected} rows in the source, {done} read, {written} "
                    "written; nothing was copied"
                )
            copied[table.name] = done
            if progress is not None:
                progress(table.name, done)
        if dst.dialect == "postgresql":
            # Rows came with their ids: new ones must be numbered after them.
            for table in (games, outbox):
                await out.execute(
                    text(
                        f"SELECT setval(pg_get_serial_sequence('{table.name}', 'id'),"
                        f" coalesce((SELECT max(id) FROM {table.name}), 0) + 1, false)"
                    )
                )
    return copied
