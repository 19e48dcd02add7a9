"""Migrated templates: a test's fresh database starts as a copy of one migrated once per worker.

Running the 18 Alembic revisions costs about 0.25 s of CPU for a SQLite file and about a second
of server DDL for a PostgreSQL schema, and most tests open a fresh database. So each pytest
process migrates one template per backend, with the project's own code (Storage.open), and:

- SQLite: a test's Storage.open of a file that does not exist yet first copies the template
  there (closed and checkpointed: one file, no -wal). The open itself then runs as always,
  finding the schema at head.
- PostgreSQL: the `database` fixture gives each test a schema of its own as before, made by
  one script: pg_dump's of the worker's migrated template schema, its name changed (about
  0.3 s of server time against 0.8 s for the revisions, and 0.03 s of CPU here against 0.22 s).
  Dropped on a background thread after the test; the worker waits for the drops, then drops
  its template, at its end. Without a pg_dump that can dump the server, tests migrate their
  schemas as before.

  A database of its own per test (CREATE DATABASE ... TEMPLATE) was tried: quicker to make
  (0.15 s), but each writes the 7.5 MB of a database's catalogs, and DROP DATABASE makes the
  server checkpoint: on this machine, busy, the drops fell seconds behind the tests.

Tests about making or upgrading a schema (from nothing, or from an old revision) are marked
`fresh_schema` and get the real thing: an empty file, a fresh schema (backends.new_schema_url).
So are `durable` tests, and every test with STEAL_TESTS_FRESH_SCHEMA=1.
"""

from __future__ import annotations

import concurrent.futures
import contextlib
import os
import shutil
import sqlite3
import subprocess
import uuid
from pathlib import Path

import asyncpg

from bot.storage import Storage, StorageError, parse, upgrade
from tests.support import backends

_real_head = upgrade.head  # a test that patches it plays an older bot: no template for it


def wanted() -> bool:
    return not os.environ.get("STEAL_TESTS_FRESH_SCHEMA")


async def make_sqlite(path: Path) -> Path:
    """A migrated, closed SQLite file with nothing beside it."""
    storage = await Storage.open(path, durable=False)
    await storage.close()
    con = sqlite3.connect(path)
    try:
        con.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # everything in the main file
    finally:
        con.close()
    for side in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.remove(f"{path}{side}")
    return path


def copy_if_new(database: str | os.PathLike[str], template: Path) -> None:
    """Before a test's Storage.open: a new SQLite file starts as the template."""
    if upgrade.head is not _real_head:
        return
    try:
        path = parse(database).path
    except StorageError:
        return  # the real open says what is wrong with it
    if path is None or path.exists() or Path(f"{path}-wal").exists():
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(template, path)


class Postgres:
    """One worker's migrated template schema on the server, and the schemas made from it.

    The template is migrated by Storage.open, then dumped once (pg_dump, schema and rows): a
    test's schema is that script with the name changed, run in one round trip. Where pg_dump
    cannot dump the server (none installed, older than the server) `new` gives None and the
    test migrates a schema of its own, as before."""

    def __init__(self) -> None:
        self.template: str | None = None
        self.script: str | None = None
        self.refused = False
        self.dropping = concurrent.futures.ThreadPoolExecutor(1, thread_name_prefix="drop")
        self.drops: list[concurrent.futures.Future[None]] = []

    def _made_script(self) -> str | None:
        if self.script is None and not self.refused:
            self.template = f"template_{uuid.uuid4().hex[:16]}"
            url = backends.schema_url(self.template)

            async def make() -> None:
                storage = await Storage.open(url, durable=False)
                await storage.close()

            backends.run(make())
            server = parse(backends.server_url()).url.set(drivername="postgresql")
            dump = [
                shutil.which("pg_dump") or "pg_dump", "--no-owner", "--no-privileges",
                "--no-comments", "--inserts", "--schema", self.template,
                f"--dbname={server._replace(password=None).render_as_string()}",
            ]  # fmt: skip
            env = dict(os.environ)
            if server.password:  # not on a command line
                env["PGPASSWORD"] = str(server.password)
            try:
                done = subprocess.run(dump, capture_output=True, text=True, timeout=60, env=env)
            except OSError:
                done = None
            if done is None or done.returncode != 0 or self.template not in done.stdout:
                self.refused = True
                return None
            # psql's own commands (\restrict) are not SQL
            lines = [line for line in done.stdout.splitlines() if not line.startswith("\\")]
            self.script = "\n".join(lines)
        return self.script

    def new(self) -> tuple[str, str] | None:
        """A URL for a schema of its own, at the head revision, and its name; None where
        pg_dump cannot dump the server."""
        script = self._made_script()
        if script is None or self.template is None:
            return None
        url, schema = backends.new_schema_url()
        script = script.replace(self.template, schema)

        async def create() -> None:
            con = await asyncpg.connect(
                backends.dsn(backends.server_url()),
                timeout=10,
                server_settings={"synchronous_commit": "off"},  # as a test's own connections
            )
            try:
                async with con.transaction():
                    await con.execute(script)
            finally:
                await con.close()

        backends.run(create())
        return url, schema

    def drop(self, schema: str) -> None:
        """Later, on another thread: the test goes on to its next while the server drops it."""
        self.drops.append(self.dropping.submit(backends.drop_schema, schema))

    def close(self) -> None:
        """The worker's end: every drop done, then the template's."""
        self.dropping.shutdown(wait=True)
        errors = [f.exception() for f in self.drops if f.exception() is not None]
        if self.template is not None:
            backends.drop_schema(self.template)
        if errors:
            raise RuntimeError(f"dropping the tests' schemas failed: {errors[0]!r}")
