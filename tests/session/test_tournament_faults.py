"""Tournament faults of issue 32 at the session level, on both backends: a leaver placed
last at their table, a cancel racing the next round's seating, a person forgotten during the
sign-up or while seated at a table whose game has not started."""

from __future__ import annotations

import asyncio

import pytest
from sqlalchemy import insert

from bot.session import SessionError
from bot.session import events as ev
from bot.session.privacy import Seated
from bot.session.tournament import leavers_last
from bot.storage import Storage
from bot.storage.schema import tournament_entrants

from .conftest import GUILD
from .tournament_world import HOST, PEOPLE, World


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


async def test_a_cancel_racing_the_next_rounds_seating_ends_that_round_too(world, storage):
    """The manager cancels while round 1's last step is under way (its standings being
    posted, under the tournament's lock), so round 2 is seated and opened before the cancel
    gets the lock: round 2's games end too, and nothing goes on."""
    ops = world.s.tournaments
    cup = await world.new(rounds=2)
    for p in PEOPLE:
        await ops.join(cup.id, p, GUILD)
    posting, posted = asyncio.Event(), asyncio.Event()

    async def slow_standings(event):
        if isinstance(event, ev.RoundOver):
            posting.set()
            await posted.wait()  # the step holds the lock meanwhile
        await world.heard(event)

    ops.announce = slow_standings
    await ops.start(cup.id)
    while not posting.is_set():  # round 1 played to its end
        await world.play_once()
        await asyncio.sleep(0.001)
    asked = asyncio.Event()
    real_lock_of = ops.lock_of

    def lock_of(tournament_id):
        if asyncio.current_task() is cancelling:
            asked.set()  # the cancel is about to wait for the lock
        return real_lock_of(tournament_id)

    ops.lock_of = lock_of
    cancelling = asyncio.create_task(ops.cancel(cup.id, GUILD, HOST))
    await asked.wait()
    posted.set()  # the step goes on: round 2 seated and opened, then the cancel
    await cancelling
    await ops.settle()
    row = await storage.tournaments.get(cup.id)
    assert (row.status, row.round) == ("cancelled", 2)
    games = [t.game_id for t in await storage.tournaments.tables(cup.id, 2)]
    assert len(games) == 2 and None not in games
    for game_id in games:
        assert (await storage.games.get(game_id)).status == "cancelled"
        assert world.s.table_of(game_id) is None
    assert (await storage.tournaments.tables(cup.id, 3)) == []


async def test_a_join_the_start_overtook_is_told_the_sign_up_closed(world, storage):
    """The join saw the sign-up open, then the start came first: the member is told the
    sign-up is closed (not that they joined already), and is no entrant."""
    ops = world.s.tournaments
    cup = await world.new()
    for p in PEOPLE[:2]:
        await ops.join(cup.id, p, GUILD)
    reading, read = asyncio.Event(), asyncio.Event()
    real = storage.stats.ratings

    async def slow_ratings(*args, **kw):
        reading.set()
        await read.wait()
        return await real(*args, **kw)

    storage.stats.ratings = slow_ratings
    joining = asyncio.create_task(ops.join(cup.id, PEOPLE[2], GUILD))
    await reading.wait()
    storage.stats.ratings = real
    await ops.start(cup.id)
    read.set()
    with pytest.raises(SessionError) as late:
        await joining
    assert late.value.key == "tour.error.signup_closed"
    assert PEOPLE[2] not in {e.entrant for e in await storage.tournaments.entrants(cup.id)}


async def test_a_person_forgotten_during_the_sign_up_no_longer_counts(world, storage):
    """Two signed up, one is forgotten: one real entrant is left, so the tournament cannot
    start (at its time it is cancelled, as any sign-up of fewer than two). An entry a
    forget left behind before this was fixed (a dropped former entrant) does not count
    either."""
    ops = world.s.tournaments
    cup = await world.new()
    for p in PEOPLE[:2]:
        await ops.join(cup.id, p, GUILD)
    await world.s.privacy.forget(PEOPLE[0])
    assert [e.id for e in (await ops.info(cup.id)).entrants] == [PEOPLE[1]]
    with pytest.raises(SessionError) as few:
        await ops.start(cup.id)
    assert few.value.key == "tour.error.too_few"

    async with storage.transaction() as db:  # as an older forget left it
        await db.execute(
            insert(tournament_entrants).values(
                tournament_id=cup.id, entrant="former:1", rating=0.0, joined_at=0.0, dropped=1
            )
        )
    assert [e.id for e in (await ops.info(cup.id)).entrants] == [PEOPLE[1]]
    with pytest.raises(SessionError) as still:
        await ops.start(cup.id)
    assert still.value.key == "tour.error.too_few"
    await ops.join(cup.id, PEOPLE[2], GUILD)
    row = await ops.start(cup.id)
    assert row.rounds == 1  # advised for the two of them
    await ops.settle()
    seated = {e for t in await storage.tournaments.tables(cup.id, 1) for e in t.entrants}
    assert seated == {PEOPLE[1], PEOPLE[2]}


async def test_nobody_is_forgotten_while_seated_at_a_table_whose_game_has_not_started(
    world, storage
):
    """Round 1 is seated but its threads cannot be made, so its games have not started: a
    person seated there is not forgotten (their seat would open as a phantom former
    player's), by themself or by an admin, until the table is settled: here the tournament
    is cancelled."""
    ops = world.s.tournaments
    cup = await world.new()
    for p in PEOPLE[:2]:
        await ops.join(cup.id, p, GUILD)
    world.threads.failing = True
    await ops.start(cup.id)
    while not await storage.tournaments.tables(cup.id, 1):  # the step's first try: seated
        await asyncio.sleep(0.001)
    for where in (None, GUILD):
        with pytest.raises(SessionError) as refused:
            await world.s.privacy.forget(PEOPLE[0], where)
        assert refused.value.key == "error.forget_seated"
        assert isinstance(refused.value, Seated)
    [table] = await storage.tournaments.tables(cup.id, 1)
    assert PEOPLE[0] in table.entrants and table.status == "seated"
    await ops.cancel(cup.id, GUILD, HOST)
    await world.s.privacy.forget(PEOPLE[0])
    [table] = await storage.tournaments.tables(cup.id, 1)
    assert PEOPLE[0] not in table.entrants


def test_leavers_share_the_last_place_and_the_others_keep_their_order():
    assert leavers_last([0, 1, 2, 3], {0}) == [3, 0, 1, 2]
    assert leavers_last([1, 0, 2], {1, 2}) == [0, 1, 1]
    assert leavers_last([0, 0, 1, 2], {3}) == [0, 0, 1, 2]  # a tie stays a tie
    assert leavers_last([0, 1, 1], {0}) == [1, 0, 0]
    assert leavers_last([0, 1], {0, 1}) == [0, 0]  # all of them: shared
    assert leavers_last([2, 0, 1], set()) == [2, 0, 1]
