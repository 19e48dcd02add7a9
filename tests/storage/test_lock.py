"""Start-up guards: a second process on one SQLite file, or on a shard another process runs on
PostgreSQL, is refused with a message that says what to do."""

import os

import pytest

from bot.storage.lock import AlreadyRunning, hold_file, hold_shards
from tests import backends
from tests.runs import run_bot


def test_a_second_open_of_one_sqlite_file_is_refused_naming_postgresql(tmp_path):
    database = tmp_path / "data" / "steal.db"
    first = hold_file(database)
    with pytest.raises(AlreadyRunning) as refused:
        hold_file(database)
    message = str(refused.value)
    assert "PostgreSQL" in message and "DATABASE_URL" in message and str(database) in message
    assert f"pid {os.getpid()}" in message
    assert hold_file(tmp_path / "other.db")  # another file is another database
    first.release()
    hold_file(database).release()  # free again once the first lets go


@pytest.fixture
def pg_url():
    """A schema of its own on the test server: lock keys are per schema, so parallel tests
    never meet each other's locks."""
    backends.require_postgres()
    url, schema = backends.new_schema_url()
    yield url
    backends.drop_schema(schema)


async def test_a_process_on_a_shard_another_one_runs_is_refused(pg_url):
    url = pg_url
    first = await hold_shards(url, [0, 1])
    try:
        with pytest.raises(AlreadyRunning, match=r"^shard 1 is already run by another"):
            await hold_shards(url, [1, 2])
        with pytest.raises(AlreadyRunning, match=r"shards 0, 1 are already .* SHARD_IDS"):
            await hold_shards(url, [0, 1, 3])
        other = await hold_shards(url, [2, 3])  # the shards no one runs
        await other.release()
        elsewhere, _ = backends.new_schema_url()  # another bot's database: its own shard 1
        await (await hold_shards(elsewhere, [1])).release()
    finally:
        await first.release()
    again = await hold_shards(url, [1, 2])  # released: free for the next process
    await again.release()


def test_the_bot_will_not_start_on_a_sqlite_file_another_process_uses(tmp_path):
    held = hold_file(tmp_path / "steal.db")  # as a running bot holds it
    try:
        done = run_bot(tmp_path, {"DISCORD_TOKEN": "x", "DATABASE_PATH": "steal.db"})
    finally:
        held.release()
    assert done.returncode == 2  # refused before it reaches Discord
    assert "already using" in done.stderr and "PostgreSQL" in done.stderr


def test_a_shard_subset_on_sqlite_is_refused_naming_postgresql(tmp_path):
    env = {"DISCORD_TOKEN": "x", "DATABASE_PATH": "steal.db", "SHARD_COUNT": "4"}
    done = run_bot(tmp_path, {**env, "SHARD_IDS": "0,1"})
    assert done.returncode == 2
    assert "SHARD_IDS=0,1 of SHARD_COUNT=4" in done.stderr and "PostgreSQL" in done.stderr
