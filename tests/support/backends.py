"""The databases the tests run on: a SQLite file, and a real PostgreSQL server.

The server: $TEST_DATABASE_URL, else postgresql://postgres@127.0.0.1:5432/test (CI machines
run one there). With none reachable its tests are skipped, with one line in the summary;
with STEAL_REQUIRE_POSTGRES=1 (.ci/run sets it) they fail instead. Each test gets a schema of
its own (?search_path=; tests/support/templates.py makes it), dropped afterwards, so parallel
tests never see each other's rows.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import functools
import os
import uuid

import asyncpg
import pytest

from bot.storage import parse

DEFAULT_SERVER = "postgresql://postgres@127.0.0.1:5432/test"
SKIP_REASON = "PostgreSQL: no server"


def server_url() -> str:
    return os.environ.get("TEST_DATABASE_URL", "").strip() or DEFAULT_SERVER


def dsn(url: str) -> str:
    """The URL as asyncpg itself reads it (no +driver, no search_path)."""
    target = parse(url)
    return target.url.set(drivername="postgresql").render_as_string(hide_password=False)


def run(coro):
    """Run a coroutine to its end from sync code, even inside a running event loop."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


@functools.cache
def unreachable() -> str | None:
    """Why the server cannot be used, or None if it can."""

    async def probe() -> None:
        con = await asyncpg.connect(dsn(server_url()), timeout=3)
        await con.close()

    try:
        run(probe())
    except Exception as exc:
        return f"{SKIP_REASON} at {parse(server_url())} ({type(exc).__name__}: {exc})"
    return None


def require_postgres() -> None:
    why = unreachable()
    if why is None:
        return
    if os.environ.get("STEAL_REQUIRE_POSTGRES") == "1":
        pytest.fail(f"{why}; STEAL_REQUIRE_POSTGRES=1 forbids skipping", pytrace=False)
    pytest.skip(f"{why}; set TEST_DATABASE_URL to run these tests")


def new_schema_url() -> tuple[str, str]:
    """A URL for a fresh, empty schema of the server (made at the first open), and its name."""
    schema = f"test_{uuid.uuid4().hex[:16]}"
    return schema_url(schema), schema


def schema_url(schema: str) -> str:
    url = server_url()
    return f"{url}{'&' if '?' in url else '?'}search_path={schema}"


def drop_schema(schema: str) -> None:
    async def drop() -> None:
        con = await asyncpg.connect(dsn(server_url()), timeout=10)
        try:
            await con.execute(f'DROP SCHEMA IF EXISTS "{schema}" CASCADE')
        finally:
            await con.close()

    run(drop())


def vacuum_catalogs() -> None:
    """VACUUM the test database: the catalogs that the tests' schemas churn (their tables,
    columns, triggers, types, constraints, dependencies). A run makes and drops about a
    thousand schemas; with autovacuum off (as on the project's machine) their dead rows stayed,
    and each run was slower than the last (the database grew to 875 MB over a dozen runs, and
    a fresh-clone run from 165 s to 188 s). Nothing to do without a server; a user that may
    not vacuum the catalogs gets the server's warning, not an error."""
    if unreachable() is not None:
        return

    async def vacuum() -> None:
        con = await asyncpg.connect(dsn(server_url()), timeout=10)
        try:
            await con.execute("VACUUM")
        finally:
            await con.close()

    run(vacuum())
