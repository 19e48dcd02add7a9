"""A process plays only the games of guilds on its shards: it restores and times those, and
leaves the others (and what they owe Discord) to the process that holds their shard."""

import asyncio

from bot.shards import Shards

from .conftest import RULES, wait_for

TWO = Shards(2, (0, 1))
MINE, THEIRS = 4 << 22, 5 << 22  # guilds on shard 0 and shard 1 of 2
assert TWO.shard_of(MINE) == 0 and TWO.shard_of(THEIRS) == 1


async def started(sessions, guild_id: int, channel_id: int):
    await sessions.open_lobby(guild_id, channel_id, "a", RULES)
    await sessions.join(channel_id, "b")
    return await sessions.start(channel_id, "a")


async def test_only_the_games_of_own_shards_are_restored_and_timed(make, storage):
    everyone = make(turn_seconds=60)
    mine = await started(everyone, MINE, 10)
    theirs = await started(everyone, THEIRS, 11)
    await everyone.open_lobby(THEIRS, 12, "x", RULES)
    await everyone.close()
    for game_id in (mine.game_id, theirs.game_id):  # both turns ran out while it was down
        await storage.games.update(game_id, deadline=everyone.clock() - 1)

    shard0 = make(turn_seconds=60, restore_grace=0, owns=Shards(2, (0,)).holds)
    assert await shard0.restore() == [mine.game_id]
    assert shard0.live_in(11) is None and shard0.live_in(12) is None
    await wait_for(lambda: shard0.table(mine.game_id).version == 1)  # its timer fired
    for _ in range(20):  # the other shard's timer would have fired by now, had it been armed
        await asyncio.sleep(0)
    assert (await storage.games.get(theirs.game_id)).version == 0
    assert await storage.games.moves(theirs.game_id) == []

    shard1 = make(turn_seconds=60, restore_grace=0, owns=Shards(2, (1,)).holds)
    assert sorted(await shard1.restore()) == sorted([theirs.game_id, shard1.live_in(12).game_id])
    await wait_for(lambda: shard1.table(theirs.game_id).version == 1)
    assert (await storage.games.get(mine.game_id)).version == 1  # shard 0's move, untouched


async def test_messages_owed_by_ended_games_go_to_their_shard_only(make):
    everyone = make()
    mine = await started(everyone, MINE, 10)
    theirs = await started(everyone, THEIRS, 11)
    for game in (mine, theirs):
        await everyone.cancel(game.channel_id, "a")
    assert {i.game_id for i in await everyone.owed()} == {mine.game_id, theirs.game_id}

    shard0 = make(owns=Shards(2, (0,)).holds)
    shard1 = make(owns=Shards(2, (1,)).holds)
    assert [i.game_id for i in await shard0.owed()] == [mine.game_id]
    assert [i.game_id for i in await shard1.owed()] == [theirs.game_id]
