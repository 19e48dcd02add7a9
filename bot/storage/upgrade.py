"""Runs Alembic's revisions (revisions/versions/) on an open connection, without alembic.ini
or env.py: the bot migrates itself at every open, as it always has."""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from alembic.config import Config
from alembic.runtime.environment import EnvironmentContext
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, text

from .errors import MigrationFailed, NewerDatabase

REVISIONS = Path(__file__).with_name("revisions")
# Any fixed number: PostgreSQL's advisory lock that keeps two processes from migrating at once.
MIGRATION_LOCK = 0x5354_4541_4C  # "STEAL"


@functools.cache
def scripts() -> ScriptDirectory:
    config = Config()
    config.set_main_option("script_location", str(REVISIONS))
    return ScriptDirectory.from_config(config)


def head() -> str:
    found = scripts().get_current_head()
    assert found is not None  # there is at least the baseline
    return found


LATEST = int(head())  # the schema version this bot makes; SQLite keeps it in user_version


def known(revision: str) -> bool:
    return any(script.revision == revision for script in scripts().walk_revisions())


def current(conn: Connection) -> str | None:
    """The database's Alembic revision; None before Alembic ever ran on it."""
    return MigrationContext.configure(conn).get_current_revision()


def create_schema(conn: Connection, name: str) -> None:
    """CREATE SCHEMA IF NOT EXISTS for the first schema of a search_path (PostgreSQL)."""
    first = name.split(",")[0].strip()
    quoted = conn.dialect.identifier_preparer.quote_identifier(first)
    conn.execute(text(f"CREATE SCHEMA IF NOT EXISTS {quoted}"))


def upgrade(conn: Connection, where: str) -> None:
    """Bring the database to the head revision inside the caller's transaction. Raises
    NewerDatabase (changing nothing) for a revision this bot does not know."""
    if conn.dialect.name == "postgresql":
        conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
    revision = current(conn)
    if revision is not None and not known(revision):
        raise NewerDatabase(
            f"{where} has schema revision {revision}, but this bot knows only up to {head()}: "
            "it was written by a newer version of the bot. Upgrade the bot, or use another "
            "database; it was left untouched."
        )
    if revision == head():
        return
    script = scripts()
    config = Config()
    config.set_main_option("script_location", str(REVISIONS))

    def steps(rev: Any, context: Any) -> Any:
        return script._upgrade_revs(head(), rev)  # what `alembic upgrade head` runs

    try:
        with EnvironmentContext(config, script, fn=steps, destination_rev=head()) as env:
            env.configure(connection=conn, transaction_per_migration=False)
            env.run_migrations()
    except Exception as exc:
        raise MigrationFailed(f"database migration to {head()} failed: {exc}") from exc
