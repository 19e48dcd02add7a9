"""Where no PostgreSQL server can be had, its tests are skipped with one line; with
STEAL_REQUIRE_POSTGRES=1 (as .ci/run sets it) they fail instead, never skip."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
NOWHERE = "postgresql://postgres@127.0.0.1:9/none"  # port 9 (discard): nothing answers


def run(**env: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        # One small file, and none of the plugins it does not use (each costs start-up time).
        [sys.executable, "-m", "pytest", "-p", "no:xdist", "-p", "no:cacheprovider",
         "-p", "no:hypothesispytest", "-p", "no:simcord",
         "tests/storage/test_settings.py", "-o", "addopts="],
        capture_output=True, text=True, cwd=ROOT, timeout=120,
        env={**os.environ, "TEST_DATABASE_URL": NOWHERE, **env},
    )  # fmt: skip


def test_without_a_server_the_postgresql_half_is_skipped_with_one_line():
    done = run(STEAL_REQUIRE_POSTGRES="")
    assert done.returncode == 0, done.stdout[-2000:]
    assert "3 passed, 3 skipped" in done.stdout
    [line] = [x for x in done.stdout.splitlines() if "PostgreSQL tests skipped" in x]
    assert "3 PostgreSQL tests skipped: PostgreSQL: no server at" in line


def test_with_the_ci_flag_no_server_is_a_failure():
    done = run(STEAL_REQUIRE_POSTGRES="1")
    assert done.returncode == 1
    # The `database` fixture fails: each PostgreSQL test is an error, none is skipped.
    assert "3 passed, 3 errors" in done.stdout and "skipped" not in done.stdout
    assert "STEAL_REQUIRE_POSTGRES=1 forbids skipping" in done.stdout


def test_a_run_leaves_the_servers_catalogs_vacuumed():
    """The run's end vacuums the catalogs the tests' schemas churn (autovacuum may be off)."""
    import asyncpg

    from tests.support import backends

    backends.require_postgres()

    async def last_vacuum():
        con = await asyncpg.connect(backends.dsn(backends.server_url()))
        try:
            return await con.fetchval(
                "SELECT last_vacuum FROM pg_stat_sys_tables WHERE relid = 'pg_attribute'::regclass"
            )
        finally:
            await con.close()

    before = backends.run(last_vacuum())
    backends.vacuum_catalogs()
    after = backends.run(last_vacuum())
    assert after is not None and (before is None or after > before)
