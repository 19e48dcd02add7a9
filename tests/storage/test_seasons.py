"""Seasons in storage (both backends): ending one archives its board, soft-resets the ratings,
begins the next and owes the announcement, in one transaction, once."""

from __future__ import annotations

import asyncio

from bot.domain import ratings
from bot.engine import to_dict
from bot.storage import Storage
from tests.storage.play import finish as finish_game

from .helpers import clear_win, find_game

GUILD = 1
P0, P1, P2 = "100000000000000001", "100000000000000002", "100000000000000003"


async def played(storage, guild=GUILD, seats=(P0, P1, P2)):
    """A finished, counted game of `seats` in `guild`; its id and the game."""
    game = find_game(len(seats), clear_win, seats=list(seats))
    row = await storage.games.create(
        guild, 10 + guild, game.seats[0], game.rules.to_dict(), state=to_dict(game)
    )
    await finish_game(storage, row.id, game, names={s: s.upper() for s in seats})
    return row.id, game


def halve(mu, sigma):
    return mu / 2, sigma


async def test_ending_a_season_archives_its_board_and_soft_resets_every_rating(storage):
    game_id, _ = await played(storage)
    before = {s.player.user_id: s for s in await storage.stats.leaderboard(GUILD)}
    at = storage.clock() + 5000.0
    ended = await storage.seasons.end(GUILD, 1, at, ratings.soft_reset, owed=("season", {}))

    assert ended is not None and ended.number == 1 and ended.players == 3
    assert ended.game_id == game_id and ended.channel_id == 10 + GUILD
    archived = await storage.seasons.standings(GUILD, 1)
    assert [(s.rank, s.player.user_id) for s in archived] == [
        (s.rank, s.player.user_id) for s in before.values()
    ]
    assert archived[0].player == before[archived[0].player.user_id].player  # totals as they were
    assert [s.player.user_id for s in ended.top] == [s.player.user_id for s in archived]
    # The board starts again: nobody on it, every rating soft-reset, the stats card's rows gone.
    assert await storage.stats.count(GUILD) == 0
    for user, old in before.items():
        now = await storage.stats.get(GUILD, user)
        assert (now.games, now.wins, now.cards) == (0, 0, 0)
        assert (now.mu, now.sigma) == ratings.soft_reset(old.player.mu, old.player.sigma)
        assert await storage.tallies.recent(GUILD, user, 10) == []
    # Season 2 is under way; season 1 is the one past, started at its first game.
    current = await storage.seasons.current(GUILD)
    assert (current.number, current.started_at, current.ended_at) == (2, at, None)
    [past] = await storage.seasons.past(GUILD)
    assert past.number == 1 and past.ended_at == at and past.started_at < at - 4000
    # The announcement is owed to the latest game's channel, with the top three.
    [item] = await storage.outbox.pending()
    assert (item.id, item.game_id, item.kind) == (ended.announcement, game_id, "season")
    assert item.payload["season"] == 1 and [t[1] for t in item.payload["top"]] == [
        s.player.user_id for s in archived
    ]
    winner = archived[0].player.user_id
    assert await storage.seasons.medals(GUILD, winner) == (1, 0, 0)


async def test_a_season_ends_once_however_often_it_is_asked(storage):
    await played(storage)
    mu = (await storage.stats.get(GUILD, P0)).mu
    tries = await asyncio.gather(
        *(storage.seasons.end(GUILD, 1, 100.0, halve, owed=("season", {})) for _ in range(3))
    )
    assert sum(t is not None for t in tries) == 1
    assert await storage.seasons.end(GUILD, 1, 200.0, halve) is None  # a retry, a late click
    assert await storage.seasons.count(GUILD, 1) == 3  # archived once
    assert len(await storage.outbox.pending()) == 1  # announced once
    assert (await storage.stats.get(GUILD, P0)).mu == mu / 2  # halved once, not three times
    assert [s.number for s in await storage.seasons.past(GUILD)] == [1]
    assert (await storage.seasons.current(GUILD)).number == 2
    # The next one is ended by its own number; another server's seasons are its own.
    assert await storage.seasons.end(GUILD, 2, 300.0, halve) is not None
    assert await storage.seasons.count(GUILD, 2) == 0  # nobody played season 2
    assert (await storage.seasons.current(2)) is None


async def test_timed_servers_and_a_season_begun_once(database):
    storage = await Storage.open(database, setting_defaults={"season_length": 0})
    try:
        await timed_and_begun(storage)
    finally:
        await storage.close()


async def timed_and_begun(storage):
    await storage.settings.set(GUILD, "season_length", 4)
    await storage.settings.set(2, "season_length", 0)
    assert await storage.seasons.timed() == {GUILD: 4}
    first = await storage.seasons.begin(GUILD, 50.0)
    assert (first.number, first.started_at) == (1, 50.0)
    assert (await storage.seasons.begin(GUILD, 99.0)).started_at == 50.0  # stored: kept


async def test_forgetting_a_person_removes_their_places_in_past_seasons(storage):
    await played(storage)
    await played(storage, guild=2)
    for guild in (GUILD, 2):
        await storage.seasons.end(guild, 1, 100.0, halve)
    await storage.forgetting.forget(P0, GUILD)
    assert await storage.seasons.standing(GUILD, 1, P0) is None
    assert await storage.seasons.medals(GUILD, P0) == (0, 0, 0)
    assert {s.player.user_id for s in await storage.seasons.standings(GUILD, 1)} == {P1, P2}
    assert await storage.seasons.standing(2, 1, P0) is not None  # only in that server
    await storage.forgetting.forget(P1)  # everywhere
    assert await storage.seasons.standing(2, 1, P1) is None
    # A purged server keeps no season.
    await storage.forgetting.purge_guild(2)
    assert await storage.seasons.standings(2, 1) == [] and await storage.seasons.past(2) == []
