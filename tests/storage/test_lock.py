"""Start-up guards: a second process on one SQLite file, or on a shard another process runs on
PostgreSQL, is refused with a message that says what to do."""

import asyncio
import os

import asyncpg
import pytest

from bot.storage import parse
from bot.storage.lock import AlreadyRunning, hold_file, hold_shards
from tests.support import backends
from tests.support.runs import run_bot


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
    first = await hold_shards(url, 4, [0, 1])
    try:
        with pytest.raises(AlreadyRunning, match=r"^shard 1 is already run by another"):
            await hold_shards(url, 4, [1, 2])
        with pytest.raises(AlreadyRunning, match=r"shards 0, 1 are already .* SHARD_IDS"):
            await hold_shards(url, 4, [0, 1, 3])
        other = await hold_shards(url, 4, [2, 3])  # the shards no one runs
        await other.release()
        elsewhere, _ = backends.new_schema_url()  # another bot's database: its own shard 1
        await (await hold_shards(elsewhere, 4, [1])).release()
    finally:
        await first.release()
    again = await hold_shards(url, 4, [1, 2])  # released: free for the next process
    await again.release()


@pytest.mark.parametrize("running, starting", [((4, [2, 3]), (2, [0])), ((2, [0]), (4, [2, 3]))])
async def test_a_process_with_another_shard_count_is_refused(pg_url, running, starting):
    """Shard 2 of 4 and shard 0 of 2 hold the same servers (those with (id >> 22) % 4 == 2):
    under different counts shards overlap, so a second count is refused, either way round."""
    count, ids = starting
    assert any(g % running[0] in running[1] and g % count in ids for g in range(8))  # overlap
    first = await hold_shards(pg_url, *running)
    try:
        with pytest.raises(AlreadyRunning, match=rf"SHARD_COUNT={running[0]}, not {count}"):
            await hold_shards(pg_url, count, ids)
        with pytest.raises(AlreadyRunning, match=r"SHARD_COUNT"):
            await hold_shards(pg_url, 3, [1])  # no shard number in common: still other servers
    finally:
        await first.release()
    await (await hold_shards(pg_url, count, ids)).release()  # alone, any count starts


async def terminate(url: str, pid: int) -> None:
    """What a server restart, a failover or an idle timeout does to the lock's connection."""
    target = parse(url)
    other = await asyncpg.connect(
        target.url.set(drivername="postgresql").render_as_string(hide_password=False)
    )
    try:
        assert await other.fetchval("SELECT pg_terminate_backend($1)", pid)
    finally:
        await other.close()


async def listeners_called(lock) -> None:
    """Once the lock's connection is closed, asyncpg has queued each termination listener on the
    loop (call_soon): a turn of the loop runs them all, so nothing told by then never will be."""
    assert lock.connection.is_closed()
    await asyncio.sleep(0)
    await asyncio.sleep(0)


async def test_a_lost_shard_lock_is_noticed(pg_url):
    """The lock's backend is terminated from another connection: the holder is told (so it
    stops serving its shards), and the shards are free for the process that takes over."""
    lock = await hold_shards(pg_url, 4, [0, 1])
    told: asyncio.Queue[str] = asyncio.Queue()
    lock.watch(told.put_nowait)
    try:
        assert await lock.connection.fetchval("SELECT 1") == 1  # a round trip: still held
        assert told.empty() and not lock.lost  # held: nothing to tell
        await terminate(pg_url, lock.pid)
        why = await asyncio.wait_for(told.get(), 5)
        assert lock.lost and ("closed" in why or "failed" in why)
        await listeners_called(lock)
        assert told.empty()  # told once
        again = await hold_shards(pg_url, 4, [0, 1])  # what a second process now gets
        await again.release()
    finally:
        await lock.release()


async def test_a_lock_released_on_purpose_is_not_lost(pg_url):
    lock = await hold_shards(pg_url, 2, [0])
    told: list[str] = []
    lock.watch(told.append)
    await lock.release()
    await listeners_called(lock)
    assert told == [] and not lock.lost


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
