"""Two bot processes on one PostgreSQL database, each running its own shards: the test's bot
holds shards 0 and 1 of 4, a second process (tests/e2e/support/processes.py) holds 2 and 3. Each
has its own connections and a simulated Discord of its own, with guilds on its shards only, as
Discord routes them. Each claims its shards as `python -m bot` does (claim_shards)."""

from __future__ import annotations

import asyncio

import pytest

from bot.engine import apply
from bot.shards import Shards
from bot.storage.lock import AlreadyRunning
from tests.e2e.conftest import _made, make_bot
from tests.e2e.support.helpers import is_over, play_one, play_to_end, start_game
from tests.e2e.support.processes import Process
from tests.support import backends

FIRST, SECOND = Shards(4, (0, 1)), Shards(4, (2, 3))


@pytest.fixture
def shared():
    """The one database: a schema of its own on the test server."""
    backends.require_postgres()
    url, schema = backends.new_schema_url()
    yield url
    backends.drop_schema(schema)


def process(database: str, shards: Shards, *, elsewhere: bool = False):
    """A bot as `python -m bot` makes it. `elsewhere`: for a Process on a loop of its own,
    which closes it there (the suite's fixture closes bots on the test's loop)."""
    bot = make_bot(database, shards=shards, claim_shards=True)
    if elsewhere:
        _made.remove(bot)
    return bot


@pytest.fixture
async def simcord_bot(shared):
    """The first process."""
    bot = process(shared, FIRST)
    yield bot
    if bot.app is not None:  # the process ends: its connections close, its shards are free
        await bot.app.close()


def server(env, shard: int):
    guild = env.create_guild(shard_id=shard)
    channels = [guild.create_text_channel(f"steal-{i}") for i in range(2)]
    members = [guild.add_member(env.create_user(n)) for n in ("ann", "bob")]
    return guild, channels, members


async def played(table, members, moves: int):
    hands: dict = {}
    for _ in range(moves):
        await play_one(table, members, hands)


async def second_process(database: str) -> Process:
    """The other process: its own SimCord, whose clock starts a day later so the ids it makes
    (guilds, channels, users) never meet the first one's. It syncs no commands (it does not
    hold shard 0): its SimCord takes them as synced."""
    other = await Process(process(database, SECOND, elsewhere=True), strict_sync=False).start()
    await other.run(other.env.advance_time, 86400)
    return other


async def test_games_on_both_processes_play_to_the_end_across_a_restart(simcord_env, shared):
    other = await second_process(shared)
    try:
        mine = [server(simcord_env, shard) for shard in FIRST.ids]
        theirs = [await other.run(server, other.env, shard) for shard in SECOND.ids]
        tables = []
        for _, channels, members in mine:
            tables.append(await start_game(channels[0], members))
        far = [await other.run(start_game, chs[0], members) for _, chs, members in theirs]
        for table, (_, _, members) in zip(tables, mine, strict=True):
            await played(table, members, 3)
        for table, (_, _, members) in zip(far, theirs, strict=True):
            await other.run(played, table, members, 3)
        first, second = simcord_env.bot.sessions, other.bot.sessions
        assert {t.guild_id for t in first.tables.values()} == {g.id for g, _, _ in mine}
        assert {t.guild_id for t in second.tables.values()} == {g.id for g, _, _ in theirs}
        before = {gid: (t.version, t.game) for gid, t in second.tables.items()}

        # The first process restarts mid-game: it restores its own games, only those.
        await simcord_env.bot.app.close()  # it ends: its shards are free again
        await simcord_env.restart_bot(process(shared, FIRST))
        restored = simcord_env.bot.sessions.tables
        assert {t.guild_id for t in restored.values()} == {g.id for g, _, _ in mine}
        assert all(t.version == 3 for t in restored.values())
        assert {gid: (t.version, t.game) for gid, t in second.tables.items()} == before

        # The first process plays its restored games on to the end through its sessions (the
        # clicks are tested elsewhere); the other one by clicks, as before the restart.
        first = simcord_env.bot.sessions
        for _, channels, _ in mine:
            await play_out(first, first.live_in(channels[0].id).game_id)
        await simcord_env.settle()
        for table, (_, _, members) in zip(far, theirs, strict=True):
            await other.run(play_to_end, table, members)
        assert all(is_over(t) for t in tables) and all(is_over(t) for t in far)
        await simcord_env.bot.app.close()
        storage = simcord_env.bot.storage
        for guild, _, members in [*mine, *theirs]:
            for member in members:
                stats = await storage.stats.get(guild.id, str(member.id))
                assert stats is not None and stats.games == 1
    finally:
        await other.stop()


async def play_out(sessions, game_id: int) -> None:
    """Each seat to act plays its first legal move, as `Sessions.play` takes it, to the end."""
    while True:
        table = await sessions.load(game_id)  # a restored game is read on its first use
        user = table.seats[table.turn]
        hand = await sessions.hand(game_id, user)
        if (await sessions.play(game_id, user, hand.legal[0], hand.version)).ended:
            return


async def to_the_last_move(sessions, game_id: int):
    """Play the game on until one move is left; that move, as `Sessions.play` takes it."""
    while True:
        table = sessions.table(game_id)
        user = table.seats[table.turn]
        hand = await sessions.hand(game_id, user)
        after, _ = apply(table.game, hand.legal[0], seat=table.turn)
        if after.over:
            return user, hand.legal[0], hand.version
        await sessions.play(game_id, user, hand.legal[0], hand.version)


async def test_games_that_end_at_the_same_moment_are_all_counted(simcord_env, shared):
    other = await second_process(shared)
    try:
        guild, channels, members = server(simcord_env, 0)
        for channel in channels:  # the same two players, in two games of one guild
            await start_game(channel, members)
        far_guild, far_channels, far_members = await other.run(server, other.env, 2)
        await other.run(start_game, far_channels[0], far_members)
        first, second = simcord_env.bot.sessions, other.bot.sessions
        ids = [first.live_in(channel.id).game_id for channel in channels]
        far_id = second.live_in(far_channels[0].id).game_id
        last = [await to_the_last_move(first, game_id) for game_id in ids]
        far_last = await other.run(to_the_last_move, second, far_id)

        # The three last moves at once: two in this process, one in the other.
        ends = await asyncio.gather(
            *(first.play(game_id, *move) for game_id, move in zip(ids, last, strict=True)),
            other.run(second.play, far_id, *far_last),
        )
        assert all(played.ended for played in ends)
        storage = simcord_env.bot.storage
        for member, far_member in zip(members, far_members, strict=True):
            both = await storage.stats.get(guild.id, str(member.id))
            one = await storage.stats.get(far_guild.id, str(far_member.id))
            assert both.games == 2 and one.games == 1  # no finish lost another's count
            assert both.sigma < one.sigma  # rated twice: each game narrowed the rating
    finally:
        await other.stop()


async def test_a_third_process_on_a_shard_already_run_is_refused(simcord_env, shared):
    other = await second_process(shared)
    try:
        third = Process(process(shared, Shards(4, (1, 2)), elsewhere=True), strict_sync=False)
        with pytest.raises(AlreadyRunning, match=r"shards 1, 2 are already run"):
            await third.start()
        assert third.bot.app is None  # it never opened the database
        await third.stop()
        # A process on the shards no one runs would start: none is left here, so free one.
        await other.stop()
        free = process(shared, Shards(4, (2, 3)), elsewhere=True)
        fourth = await Process(free, strict_sync=False).start()
        await fourth.stop()
    finally:
        await other.stop()
