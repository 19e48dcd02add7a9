"""Alembic's migration scripts (versions/), run by bot/storage/upgrade.py at every open.

A revision's id is the schema version it makes, zero-padded ("0008"); on SQLite each revision
also sets PRAGMA user_version to it, so a bot of an older version refuses the file as newer
instead of misreading it. Never edit a released revision: add a new one.
"""

from __future__ import annotations

from alembic import op


def set_sqlite_version(number: int) -> None:
    """PRAGMA user_version = number, on SQLite only (it rolls back with the migration)."""
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        bind.exec_driver_sql(f"PRAGMA user_version = {int(number)}")
