import asyncio
import random
import time

import pytest

from bot.engine import from_dict, preset, to_dict
from bot.storage import StaleVersion, Storage

from .play import deal, step

GAMES, MOVES = 50, 20


async def test_fifty_games_saving_at_once_all_persist_in_order(storage):
    async def play(number: int):
        rng = random.Random(number)
        game = deal(2 + number % 3, seed=number)
        row = await storage.games.create(1, number, game.seats[0], {}, state=to_dict(game))
        saved = []
        for version in range(1, MOVES + 1):
            game, move = step(game, rng)
            saved.append(move)
            await storage.games.save_move(row.id, to_dict(game), move, version)
            await asyncio.sleep(0)  # let the other games in between every move
        return row.id, game, saved

    played = await asyncio.gather(*(play(n) for n in range(GAMES)))
    live = {row.id: row for row in await storage.games.live()}
    assert len(live) == GAMES
    for game_id, game, saved in played:
        assert await storage.games.moves(game_id) == saved
        assert live[game_id].version == MOVES
        assert from_dict(live[game_id].state) == game


async def test_two_saves_of_the_same_move_race_and_exactly_one_wins(storage):
    game = deal(2)
    row = await storage.games.create(
        1, 2, "1000", preset("standard").to_dict(), state=to_dict(game)
    )
    a, move_a = step(game, random.Random(1))
    b, move_b = step(game, random.Random(2))
    results = await asyncio.gather(
        storage.games.save_move(row.id, to_dict(a), move_a, 1),
        storage.games.save_move(row.id, to_dict(b), move_b, 1),
        return_exceptions=True,
    )
    assert results[0] is None and isinstance(results[1], StaleVersion)
    assert await storage.games.moves(row.id) == [move_a]
    with pytest.raises(StaleVersion):
        await storage.games.save_move(row.id, to_dict(b), move_b, 1)


async def test_saves_cancelled_at_any_point_leave_the_database_consistent(storage):
    game = deal(2)
    row = await storage.games.create(1, 2, "1000", {}, state=to_dict(game))
    rng = random.Random(5)
    started = time.perf_counter()
    await storage.games.update(row.id, deadline=1.0)  # a write, to time one
    took = time.perf_counter() - started
    version = tries = 0
    while tries < 60 and game.result is None:
        tries += 1
        after, move = step(game, rng)
        task = asyncio.create_task(
            storage.games.save_move(row.id, to_dict(after), move, version + 1)
        )
        # Cancel it before it starts, while it waits for its batch (group commit), during the
        # batch's transaction, or after.
        wait = rng.choice([None, 0, rng.uniform(0, 2 * took)])
        if wait is not None:
            await asyncio.sleep(wait)
        task.cancel()
        await asyncio.wait([task])
        assert task.cancelled() or task.exception() is None  # cancelled or saved, no error
        saved = await storage.games.get(row.id)
        moves = await storage.games.moves(row.id)
        assert len(moves) == saved.version  # the move and the state, both or neither
        if saved.version == version + 1:
            game, version = after, version + 1
        assert from_dict(saved.state) == game
    assert 0 < version < tries  # some saves got through, and some were cancelled


async def test_moves_waiting_together_are_committed_together_and_each_is_durable(storage, database):
    """Group commit: fifty clicks at once cost a few transactions, not fifty; each save
    returns only once committed (another connection sees it)."""
    rows, games = [], []
    for number in range(GAMES):
        game = deal(2, seed=number)
        rows.append(await storage.games.create(1, number, game.seats[0], {}, state=to_dict(game)))
        games.append(game)
    before = storage.games.group.batches
    other = await Storage.open(database)
    try:

        async def save(i: int) -> int:
            after, move = step(games[i], random.Random(i))
            await storage.games.save_move(rows[i].id, to_dict(after), move, 1)
            return len(await other.games.moves(rows[i].id))  # committed: visible elsewhere

        seen = await asyncio.gather(*(save(i) for i in range(GAMES)))
    finally:
        await other.close()
    assert seen == [1] * GAMES
    assert storage.games.group.batches - before <= 3


async def test_one_stale_move_in_a_batch_is_refused_alone(storage):
    rows, afters = [], []
    for number in range(5):
        game = deal(2, seed=number)
        rows.append(await storage.games.create(1, number, game.seats[0], {}, state=to_dict(game)))
        afters.append(step(game, random.Random(number)))
    results = await asyncio.gather(
        *(
            storage.games.save_move(row.id, to_dict(after), move, 2 if i == 3 else 1)
            for i, (row, (after, move)) in enumerate(zip(rows, afters, strict=True))
        ),
        return_exceptions=True,
    )
    assert [type(r).__name__ for r in results] == ["NoneType"] * 3 + ["StaleVersion", "NoneType"]
    assert [len(await storage.games.moves(row.id)) for row in rows] == [1, 1, 1, 0, 1]
