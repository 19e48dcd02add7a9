"""The shard guard as processes meet it on one PostgreSQL database: a process whose
SHARD_COUNT differs from a running one's is refused (their servers overlap), and a process
whose shard lock is lost (its connection dropped) stops serving and closes, for its
supervisor to start it again."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from bot.shards import Shards
from bot.storage import parse
from bot.storage.lock import AlreadyRunning
from tests.e2e.conftest import _made, make_bot
from tests.e2e.support.helpers import start_game
from tests.e2e.support.processes import Process
from tests.support import backends


@pytest.fixture
def shared():
    backends.require_postgres()
    url, schema = backends.new_schema_url()
    yield url
    backends.drop_schema(schema)


@pytest.fixture
async def simcord_bot(shared):
    """This process: shards 0 and 1 of 4, claimed as `python -m bot` claims them."""
    bot = make_bot(shared, shards=Shards(4, (0, 1)), claim_shards=True)
    yield bot
    if bot.app is not None:
        await bot.app.close()


async def test_a_process_with_another_shard_count_is_refused(simcord_env, shared):
    """Shards 4 and 5 of 8 hold servers of shards 0 and 1 of 4 (those with (id >> 22) % 8 in
    4, 5), which this process runs: no shard number in common, yet the same servers."""
    assert any(Shards(8, (4, 5)).holds(g << 22) and Shards(4, (0, 1)).holds(g << 22)
               for g in range(8))  # fmt: skip
    bot = make_bot(shared, shards=Shards(8, (4, 5)), claim_shards=True)
    _made.remove(bot)
    other = Process(bot, strict_sync=False)
    try:
        with pytest.raises(AlreadyRunning, match=r"SHARD_COUNT=4, not 8"):
            await other.start()
        assert bot.app is None  # it never opened the database
    finally:
        await other.stop()


async def test_a_process_that_loses_its_shard_lock_stops_serving(simcord_env, shared):
    """The lock's backend is terminated (as a failover or an idle timeout would drop it): the
    bot closes at once, saying why, and its shards are free for the process that replaces it."""
    bot = simcord_env.bot
    guild = simcord_env.create_guild(shard_id=1)
    room = guild.create_text_channel("games")
    ann, bob = (guild.add_member(simcord_env.create_user(n)) for n in ("ann", "bob"))
    await start_game(room, [ann, bob])  # serving: a game on its shard
    lock = bot.app.shard_lock
    dsn = parse(shared).url.set(drivername="postgresql").render_as_string(hide_password=False)
    killer = await asyncpg.connect(dsn)
    try:
        assert await killer.fetchval(
            "SELECT pg_terminate_backend($1)", lock.connection.get_server_pid()
        )
    finally:
        await killer.close()

    for _ in range(100):
        if bot.is_closed():
            break
        await asyncio.sleep(0.05)
    assert bot.is_closed()
    assert "connection" in (getattr(bot, "lost_shards", None) or "")
    # The shards are free: the process that replaces it claims them.
    again = make_bot(shared, shards=Shards(4, (0, 1)), claim_shards=True)
    _made.remove(again)
    replacement = await Process(again, strict_sync=False).start()
    await replacement.stop()
