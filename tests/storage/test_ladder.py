"""The global ladder (one rating per person over every rated game, wherever it was played),
the profile that names a person on it, and boards outside servers (a group DM's board is
keyed by its channel id, its records have no server): on both backends."""

from __future__ import annotations

import random

import pytest
from sqlalchemy import select

from bot.domain import ratings as stats
from bot.engine import new_game, preset, to_dict
from bot.engine.playout import play_out
from bot.session import results
from bot.storage import StaleRatings
from bot.storage.schema import history

ANN, BOB, CAT = "100000000000000001", "100000000000000002", "100000000000000003"
SERVER, OTHER = 11, 22
GROUP_DM = 900000000000000001  # a group DM's channel id: its board's key, no server


def played(seats: list[str], seed: int):
    return play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed))


async def finish_at(storage, board_id: int, seats: list[str], seed: int, **details) -> int:
    """A finished game on `board_id`: a server's (its id), or with `serverless` a channel's."""
    game = played(seats, seed)
    serverless = details.pop("serverless", False)
    row = await storage.games.create(board_id, board_id + 1, seats[0], {}, state=to_dict(game))
    done = await results.finish(storage, row.id, board_id, game, serverless=serverless, **details)
    assert done == 0
    return row.id


async def test_a_group_dm_board_is_keyed_by_its_channel_and_its_record_has_no_server(storage):
    game_id = await finish_at(
        storage, GROUP_DM, [ANN, BOB], 1, serverless=True, names={ANN: "Ann", BOB: "Bob"}
    )
    (row,) = await storage.fetchall(
        select(history.c.guild_id, history.c.board_id).where(history.c.game_id == game_id)
    )
    assert (row.guild_id, row.board_id) == (None, GROUP_DM)
    entry = await storage.history.get(game_id)
    assert (entry.guild_id, entry.board_id) == (None, GROUP_DM)
    assert [e.game_id for e in await storage.history.by_board(GROUP_DM)] == [game_id]
    assert [e.game_id for e in await storage.history.by_player(ANN, board_id=GROUP_DM)] == [game_id]
    board = await storage.stats.leaderboard(GROUP_DM)
    assert {s.player.user_id for s in board} == {ANN, BOB}
    assert (await storage.stats.get(GROUP_DM, ANN)).games == 1
    assert [g.game_id for g in await storage.tallies.recent(GROUP_DM, ANN, 5)] == [game_id]
    assert await storage.stats.leaderboard(SERVER) == []


async def test_one_global_rating_counts_every_rated_game_in_every_place(storage):
    await finish_at(storage, SERVER, [ANN, BOB], 1)
    await finish_at(storage, GROUP_DM, [ANN, CAT], 2, serverless=True)
    await finish_at(storage, OTHER, [BOB, CAT], 3)
    # Each board saw one game of ann's; the ladder saw both, rated in turn.
    assert (await storage.stats.get(SERVER, ANN)).games == 1
    assert (await storage.stats.get(GROUP_DM, ANN)).games == 1
    ladder = await storage.ladder.page(10)
    assert {e.user_id: e.games for e in ladder} == {ANN: 2, BOB: 2, CAT: 2}
    assert [e.rank for e in ladder] == [1, 2, 3]
    assert [e.rating for e in ladder] == sorted((e.rating for e in ladder), reverse=True)
    assert await storage.ladder.count() == 3
    for e in ladder:
        assert (await storage.ladder.entry(e.user_id)).rank == e.rank
    start = (stats.START_MU, stats.START_SIGMA)
    ratings = await storage.ladder.ratings([ANN, "100000000000000009"])
    assert ratings["100000000000000009"] == start and ratings[ANN] != start


async def test_ai_seats_and_games_without_two_people_leave_the_ladder_alone(storage):
    await finish_at(storage, SERVER, [ANN, "ai:easy:1"], 1, unrated={"ai:easy:1"})
    assert (await storage.stats.get(SERVER, ANN)).games == 1  # the board counts it
    assert await storage.ladder.page(10) == [] and await storage.ladder.entry(ANN) is None
    await finish_at(storage, SERVER, [ANN, BOB, "ai:easy:1"], 2, unrated={"ai:easy:1"})
    assert {e.user_id for e in await storage.ladder.page(10)} == {ANN, BOB}
    await finish_at(storage, OTHER, [ANN, CAT], 3, counted=False)  # uncounted: nowhere
    assert await storage.ladder.entry(CAT) is None


async def test_names_are_shown_only_to_those_who_chose_it(storage):
    await finish_at(storage, SERVER, [ANN, BOB], 1, names={ANN: "Ann", BOB: "Bob"})
    assert {e.name for e in await storage.ladder.page(10)} == {None}  # hidden by default
    await storage.ladder.set_profile(ANN, True, "Ann Global")
    await storage.ladder.set_profile(BOB, False, "Bob Global")
    names = {e.user_id: e.name for e in await storage.ladder.page(10)}
    assert names == {ANN: "Ann Global", BOB: None}
    assert await storage.ladder.profile(BOB) == (False, "")  # a hidden name is not kept
    await storage.ladder.set_profile(ANN, False, "Ann Global")
    assert (await storage.ladder.entry(ANN)).name is None
    assert await storage.ladder.profile(CAT) is None


async def test_forget_me_deletes_the_global_rating_and_profile_an_admin_cannot(storage):
    await finish_at(storage, SERVER, [ANN, BOB], 1)
    await storage.ladder.set_profile(ANN, True, "Ann")
    await storage.forgetting.forget(ANN, SERVER)  # an admin's forget: their server only
    assert await storage.ladder.entry(ANN) is not None
    assert await storage.ladder.profile(ANN) == (True, "Ann")
    await storage.forgetting.forget(ANN)
    assert await storage.ladder.entry(ANN) is None and await storage.ladder.profile(ANN) is None
    assert [e.user_id for e in await storage.ladder.page(10)] == [BOB]


async def test_a_global_rating_changed_meanwhile_is_refused_whole(storage):
    g1, g2 = played([ANN, BOB], 1), played([ANN, CAT], 2)
    r2 = await storage.games.create(SERVER, 2, ANN, {}, state=to_dict(g2))
    await finish_at(storage, OTHER, [ANN, BOB], 1)  # ann's global rating moves
    start = (stats.START_MU, stats.START_SIGMA)
    stale = results.game_result(g2, {}, ladder={ANN: start, CAT: start})
    with pytest.raises(StaleRatings):
        await storage.games.finish(r2.id, stale, board_id=SERVER, guild_id=SERVER)
    assert await storage.history.get(r2.id) is None  # nothing of it was kept
    assert await storage.stats.get(SERVER, ANN) is None
    assert g1.seats == (ANN, BOB)
