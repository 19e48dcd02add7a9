"""Two processes (here: two Storage objects, each with its own connections) finish games of
the same player at the same moment: both games count, and no rating update is lost."""

import asyncio

import pytest

from bot.domain import ratings as stats
from bot.engine import to_dict
from bot.session import results
from bot.storage import StaleRatings, Storage

from .helpers import clear_win, find_game

GUILD = 1


async def opened(database):
    return await Storage.open(database), await Storage.open(database)


def both_read_before_either_writes(storages):
    """Each storage's first ratings read waits until both have read: the race, every time."""
    barrier = asyncio.Barrier(len(storages))
    for storage in storages:
        real = storage.stats.ratings
        first = [True]

        async def ratings(guild_id, user_ids, real=real, first=first):
            found = await real(guild_id, user_ids)
            if first[0]:
                first[0] = False
                await barrier.wait()
            return found

        storage.stats.ratings = ratings


async def test_two_finishes_for_one_player_at_once_both_count_and_rate_in_turn(database):
    one, two = await opened(database)
    try:
        g1 = find_game(2, clear_win, seats=["p", "q"])
        g2 = find_game(2, clear_win, seats=["p", "r"])
        r1 = await one.games.create(GUILD, 1, "p", {}, state=to_dict(g1))
        r2 = await one.games.create(GUILD, 2, "p", {}, state=to_dict(g2))
        both_read_before_either_writes([one, two])
        done = await asyncio.gather(
            results.finish(one, r1.id, GUILD, g1), results.finish(two, r2.id, GUILD, g2)
        )
        assert done == [0, 0]
        p = await one.stats.get(GUILD, "p")
        assert p.games == 2
        # Whichever committed first, the other was rated from its result: as if in turn.
        start = (stats.START_MU, stats.START_SIGMA)
        in_turn = set()
        for first, second in ((g1, g2), (g2, g1)):
            mid = stats.rate([start, start], stats.places(first))[0]
            end = stats.rate([mid, start], stats.places(second))[0]
            in_turn.add(tuple(round(x, 9) for x in end))
        assert (round(p.mu, 9), round(p.sigma, 9)) in in_turn
        assert (await one.stats.get(GUILD, "q")).games == 1
        assert (await one.stats.get(GUILD, "r")).games == 1
    finally:
        await one.close()
        await two.close()


async def test_a_result_worked_out_from_an_old_rating_is_refused_whole(database):
    storage = await Storage.open(database)
    try:
        g1 = find_game(2, clear_win, seats=["p", "q"])
        g2 = find_game(2, clear_win, seats=["p", "r"])
        r1 = await storage.games.create(GUILD, 1, "p", {}, state=to_dict(g1))
        r2 = await storage.games.create(GUILD, 2, "p", {}, state=to_dict(g2))
        stale = results.game_result(g2, await storage.stats.ratings(GUILD, g2.seats))
        assert await results.finish(storage, r1.id, GUILD, g1) == 0
        with pytest.raises(StaleRatings):
            await storage.games.finish(r2.id, stale, owed=[("ended", {})])
        # Nothing of it was saved: still active, r has no row, nothing owed for it.
        assert (await storage.games.get(r2.id)).status == "active"
        assert await storage.stats.get(GUILD, "r") is None
        assert [i.game_id for i in await storage.outbox.pending()] == []
        assert (await storage.stats.get(GUILD, "p")).games == 1
    finally:
        await storage.close()
