"""Tournament faults of issue 32 at the session level, on both backends: a leaver placed
last at their table, a cancel racing the next round's seating, a person forgotten during the
sign-up or while seated at a table whose game has not started."""

from __future__ import annotations

import pytest

from bot.session.tournaments import leavers_last
from bot.storage import Storage

from .conftest import GUILD
from .tournament_world import PEOPLE, World


@pytest.fixture
async def storage(database: str):
    s = await Storage.open(database)
    yield s
    await s.close()


@pytest.fixture
async def world(storage):
    w = World(storage)
    yield w
    await w.s.close()


@pytest.mark.parametrize("path", ["at its end", "by the next step"])
async def test_who_leaves_during_a_game_places_last_at_that_table(world, storage, path):
    """Three people at a table of 3; two leave the tournament mid-game (the game plays on, their
    turns played for them). The game itself ranks one of the leavers first, but the table's
    places are the game's with the leavers last: the one who stayed is first. `path`: the
    result recorded when the game ends, or (that write failed) by the step after."""
    ops = world.s.tournaments
    cup = await world.new(table_size=3, rounds=1)
    for p in PEOPLE[:3]:
        await ops.join(cup.id, p, GUILD)
    await ops.start(cup.id)
    await ops.settle()
    for _ in range(6):
        await world.play_once()
    stayer, leavers = PEOPLE[0], PEOPLE[1:3]
    for p in leavers:
        await ops.leave(cup.id, p, GUILD)
    real = storage.tournaments.record
    failed: list[int] = []
    if path == "by the next step":

        async def record_fails_once(*args, **kw):
            if not failed:
                failed.append(1)
                raise ConnectionError("the database is away")
            return await real(*args, **kw)

        storage.tournaments.record = record_fails_once
    await world.drive(cup.id)
    assert len(failed) == (path == "by the next step")
    [table] = await storage.tournaments.tables(cup.id, 1)
    game = await storage.history.get(table.game_id)
    seat = {e: i for i, e in enumerate(table.entrants)}
    assert game.places[seat[stayer]] > 0, "the game itself must rank the stayer below a leaver"
    places = dict(zip(table.entrants, table.result["places"], strict=True))
    assert places[stayer] == 0 and {places[p] for p in leavers} == {1}, places
    rows = {r.entrant: r for r in await ops.standings(cup.id)}
    assert (rows[stayer].points, rows[stayer].rank) == (6, 1)
    assert [rows[p].points for p in leavers] == [1.5, 1.5]  # 3rd and 2nd's points, shared
    assert (await storage.tournaments.get(cup.id)).settings["champion"] == stayer


def test_leavers_share_the_last_place_and_the_others_keep_their_order():
    assert leavers_last([0, 1, 2, 3], {0}) == [3, 0, 1, 2]
    assert leavers_last([1, 0, 2], {1, 2}) == [0, 1, 1]
    assert leavers_last([0, 0, 1, 2], {3}) == [0, 0, 1, 2]  # a tie stays a tie
    assert leavers_last([0, 1, 1], {0}) == [1, 0, 0]
    assert leavers_last([0, 1], {0, 1}) == [0, 0]  # all of them: shared
    assert leavers_last([2, 0, 1], set()) == [2, 0, 1]
