"""SQLite: a move saved on the event loop's own connection (bot/storage/sqlite_moves.py). It
makes no trip to the driver's thread, never waits for a lock, never starts the WAL over (the
one fsync a write can cost), leaves nothing behind when it fails half-way, and the writer's
thread closes every cursor it makes for a move (CPython gh-118172)."""

from __future__ import annotations

import asyncio
import random
import sqlite3
import time
from pathlib import Path

import aiosqlite
import pytest

from bot.engine import to_dict
from bot.storage import Storage
from bot.storage.errors import StorageError

from .play import deal, step


async def new_game(storage: Storage, number: int):
    game = deal(2, seed=number)
    row = await storage.games.create(1, number, game.seats[0], {}, state=to_dict(game))
    return row.id, game


async def play(storage: Storage, moves: int, rng: random.Random, on_move=None) -> list[int]:
    """`moves` moves, game after game; returns the games' ids."""
    game_id, game = await new_game(storage, 0)
    ids, version = [game_id], 0
    for _ in range(moves):
        if game.result is not None:
            game_id, game = await new_game(storage, len(ids))
            ids.append(game_id)
            version = 0
        game, move = step(game, rng)
        version += 1
        if on_move is not None:
            on_move()
        await storage.games.save_move(game_id, to_dict(game), move, version)
    return ids


@pytest.fixture
async def sqlite_storage(db_path: Path):
    storage = await Storage.open(db_path)
    yield storage
    await storage.close()


def trips(monkeypatch) -> list[object]:
    """Every call handed to an aiosqlite thread from now on."""
    made: list[object] = []
    real = aiosqlite.Connection._execute

    async def counted(self, fn, *args, **kwargs):
        made.append(fn)
        return await real(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.Connection, "_execute", counted)
    return made


async def test_a_move_is_committed_on_the_loop_without_a_trip_to_a_thread(
    sqlite_storage, db_path, monkeypatch
):
    storage = sqlite_storage
    rng = random.Random(1)
    game_id, game = await new_game(storage, 1)
    game, move = step(game, rng)
    await storage.games.save_move(game_id, to_dict(game), move, 1)  # the first: on the thread
    made = trips(monkeypatch)
    saved = [move]
    for version in range(2, 22):
        game, move = step(game, rng)
        saved.append(move)
        await storage.games.save_move(game_id, to_dict(game), move, version)
    assert made == []
    other = await Storage.open(db_path)  # committed: another connection reads every move
    try:
        assert await other.games.moves(game_id) == saved
    finally:
        await other.close()


async def test_the_loops_connection_is_the_loops_thread_s_alone(sqlite_storage):
    db = sqlite_storage.connection.loop_db
    assert db.execute("SELECT 1").fetchall() == [(1,)]
    with pytest.raises(sqlite3.ProgrammingError, match="thread"):
        await asyncio.to_thread(db.execute, "SELECT 1")


async def test_a_locked_database_never_holds_the_loop_and_the_move_waits_on_the_thread(
    sqlite_storage, db_path
):
    """Another process holding the write lock: the loop's connection is refused at once
    (busy_timeout 0), the move goes to the writer's thread, which waits for the lock."""
    storage = sqlite_storage
    ids = await play(storage, 3, random.Random(2))
    assert storage.games.move_saves.fast.ready()  # the next move would go on the loop
    game_id = ids[-1]
    row = await storage.games.get(game_id)
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")  # the write lock, as another process would hold it
    try:
        state = {**row.state, "marker": 1}
        move = {"seat": 0, "type": "marker"}
        started = time.perf_counter()
        saving = asyncio.create_task(storage.games.save_move(game_id, state, move, row.version + 1))
        await asyncio.sleep(0)  # the save runs up to its first wait
        assert time.perf_counter() - started < 1.0  # never the lock's 5 s, on the loop
        for _ in range(20):
            await asyncio.sleep(0)
        assert not saving.done()  # waiting for the lock, on the thread
    finally:
        other.execute("COMMIT")
        other.close()
    await saving
    stored = await storage.games.get(game_id)
    assert stored.version == row.version + 1 and stored.state["marker"] == 1


async def test_a_save_failing_half_way_on_the_loop_leaves_the_game_as_it_was(
    sqlite_storage, db_path
):
    """The move's row cannot be inserted (one is there already) after its state was
    updated: the statement fails whole, the game is at the move before."""
    storage = sqlite_storage
    ids = await play(storage, 3, random.Random(3))
    game_id = ids[-1]
    row = await storage.games.get(game_id)
    assert storage.games.move_saves.fast.ready()  # on the loop's connection
    other = sqlite3.connect(db_path, isolation_level=None)
    other.execute(
        "INSERT INTO moves (game_id, n, move) VALUES (?, ?, ?)",
        (game_id, row.version + 1, '{"seat": 9}'),
    )
    other.close()
    with pytest.raises((sqlite3.IntegrityError, StorageError)):
        await storage.games.save_move(
            game_id, {**row.state, "marker": 1}, {"seat": 0}, row.version + 1
        )
    stored = await storage.games.get(game_id)
    assert (stored.version, stored.state) == (row.version, row.state)


def wal_restarts(db_path: Path) -> bytes:
    """The WAL header's checkpoint sequence: it changes when the WAL starts over."""
    with open(f"{db_path}-wal", "rb") as wal:
        return wal.read(16)[12:16]


async def test_the_wal_starts_over_only_on_the_writer_s_thread_and_stays_small(
    sqlite_storage, db_path, monkeypatch
):
    """Starting the WAL over syncs its header (synchronous NORMAL): never on the loop. The
    checkpoints made every so many moves keep the WAL small."""
    storage = sqlite_storage
    fast = storage.games.move_saves.fast
    real = fast.now
    on_loop = []

    def now(db, payload):
        before = wal_restarts(db_path)
        saved = real(db, payload)
        on_loop.append(saved)
        assert wal_restarts(db_path) == before, "the loop's write started the WAL over"
        return saved

    monkeypatch.setattr(fast, "now", now)
    sequences = set()
    await play(storage, 450, random.Random(4), on_move=lambda: sequences.add(wal_restarts(db_path)))
    assert on_loop.count(True) > 400  # nearly every move was the loop's
    assert len(sequences) >= 3  # the WAL started over, several times: on the thread
    assert Path(f"{db_path}-wal").stat().st_size < 2_000_000


async def test_every_cursor_a_move_makes_on_the_writer_is_closed_on_its_thread(
    sqlite_storage, monkeypatch
):
    """Moves through the writer's thread (its lock held meanwhile), alone and in a batch:
    an unclosed cursor would be reset where it is freed, on the loop, while the thread runs
    the same cached statement (CPython gh-118172)."""
    storage = sqlite_storage
    made, closed = [], []
    real_init, real_close = aiosqlite.Cursor.__init__, aiosqlite.Cursor.close

    def init(self, *args, **kwargs):
        made.append(self)
        real_init(self, *args, **kwargs)

    async def close(self):
        closed.append(self)
        await real_close(self)

    monkeypatch.setattr(aiosqlite.Cursor, "__init__", init)
    monkeypatch.setattr(aiosqlite.Cursor, "close", close)
    games = [await new_game(storage, n) for n in range(6)]
    rng = random.Random(5)
    for version in range(1, 4):
        played = [(game_id, *step(game, rng)) for game_id, game in games]
        async with storage.connection.lock:  # a transaction of the writer's under way
            saves = [
                asyncio.create_task(storage.games.save_move(game_id, to_dict(after), move, version))
                for game_id, after, move in played
            ]
            await asyncio.sleep(0)
        await asyncio.gather(*saves)
        games = [(game_id, after) for game_id, after, _ in played]
    assert made  # some went through the thread
    assert set(map(id, made)) <= set(map(id, closed))
