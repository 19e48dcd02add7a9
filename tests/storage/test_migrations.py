import shutil
import sqlite3
from pathlib import Path

import aiosqlite
import pytest
from sqlalchemy.exc import OperationalError

from bot.storage import (
    LATEST,
    LEGACY_LATEST,
    MIGRATIONS,
    ChannelTaken,
    MigrationFailed,
    NewerDatabase,
    NotADatabase,
    Storage,
    StorageError,
    database_path,
    migrate,
)

# What a first open makes, and every upgrade: the real migrations, no template.
pytestmark = pytest.mark.fresh_schema


async def build(path: Path, upto: int) -> None:
    """A database as an older bot left it: only the first `upto` migrations applied."""
    path.parent.mkdir(parents=True, exist_ok=True)
    async with aiosqlite.connect(path, isolation_level=None) as db:
        await db.execute("PRAGMA journal_mode = WAL")
        assert await migrate(db, upto) == upto


def user_version(path: Path) -> int:
    con = sqlite3.connect(path)
    try:
        return con.execute("PRAGMA user_version").fetchone()[0]
    finally:
        con.close()


def names(path: Path, kind: str) -> set[str]:
    con = sqlite3.connect(path)
    try:
        rows = con.execute("SELECT name FROM sqlite_master WHERE type = ?", (kind,)).fetchall()
    finally:
        con.close()
    return {r[0] for r in rows if not r[0].startswith("sqlite_")}


async def pragma(storage, name: str):
    """A PRAGMA as the writer connection has it (reads go to the read-only one)."""
    async with storage.transaction() as db:
        return (await db.exec_driver_sql(f"PRAGMA {name}")).scalar()


async def test_reads_go_to_a_read_only_connection_that_sees_every_commit(db_path):
    async with await Storage.open(db_path) as storage:
        with pytest.raises(OperationalError, match="readonly"):
            await storage.fetchall("DELETE FROM games")
        lobby = await storage.games.create(1, 2, "3", {})
        assert (await storage.games.get(lobby.id)).status == "lobby"
        assert await pragma(storage, "query_only") == 0


def test_there_are_several_versions_and_each_records_its_number():
    assert LATEST >= 2
    for number, sql in enumerate(MIGRATIONS, start=1):
        assert f"PRAGMA user_version = {number};" in sql


@pytest.mark.durable
async def test_a_new_database_is_created_in_a_new_folder_and_migrated(db_path):
    assert not db_path.parent.exists()
    storage = await Storage.open(db_path)
    try:
        assert await storage.schema_version() == LATEST
        assert await pragma(storage, "journal_mode") == "wal"
        assert await pragma(storage, "synchronous") == 1  # NORMAL: see docs/operations.md
        assert await pragma(storage, "foreign_keys") == 1
        assert await pragma(storage, "busy_timeout") > 0
    finally:
        await storage.close()
    tables = {"guild_settings", "games", "moves", "history", "history_players", "players"}
    assert tables <= names(db_path, "table")
    assert {"games_live", "history_by_board"} <= names(db_path, "index")


async def test_durable_false_skips_the_fsync_and_nothing_else(db_path):
    """What the tests open their throwaway databases with (tests/conftest.py)."""
    async with await Storage.open(db_path, durable=False) as storage:
        assert await pragma(storage, "synchronous") == 0  # OFF
        assert await pragma(storage, "journal_mode") == "wal"
        assert await pragma(storage, "foreign_keys") == 1
        assert await storage.schema_version() == LATEST


async def test_an_empty_file_is_an_empty_database(db_path):
    db_path.parent.mkdir()
    db_path.write_bytes(b"")
    async with await Storage.open(db_path) as storage:
        assert await storage.schema_version() == LATEST
    assert user_version(db_path) == LATEST


@pytest.mark.parametrize("version", range(LEGACY_LATEST + 1))
async def test_a_database_at_an_older_version_migrates_and_keeps_its_data(db_path, version):
    await build(db_path, version)
    if version >= 1:
        con = sqlite3.connect(db_path)
        with con:
            con.execute("INSERT INTO guild_settings VALUES (7, 'turn_seconds', '30')")
            con.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, status, seats, rules,"
                " created_at, updated_at) VALUES (7, 8, '9', 'lobby', '[\"9\"]', '{}', 1, 1)"
            )
        con.close()
    storage = await Storage.open(db_path, setting_defaults={"turn_seconds": 120})
    try:
        assert await storage.schema_version() == LATEST
        if version >= 1:
            assert (await storage.settings.get(7))["turn_seconds"] == 30
            [lobby] = await storage.games.live()
            assert (lobby.guild_id, lobby.seats, lobby.status) == (7, ("9",), "lobby")
    finally:
        await storage.close()
    assert {"games_live", "history_by_board"} <= names(db_path, "index")


async def test_a_failed_migration_is_rolled_back_whole(db_path):
    await build(db_path, 1)
    con = sqlite3.connect(db_path)
    # Migration 2's second index name is taken, so it fails after its first statement.
    con.execute("CREATE TABLE history_by_guild (x)")
    con.commit()
    con.close()
    with pytest.raises(MigrationFailed, match="history_by_guild"):
        await Storage.open(db_path)
    assert user_version(db_path) == 1
    assert "games_live" not in names(db_path, "index")


def snapshot(folder: Path) -> dict[str, bytes]:
    return {p.name: p.read_bytes() for p in folder.iterdir()}


async def test_a_newer_database_is_refused_and_left_untouched(db_path):
    await build(db_path, LEGACY_LATEST)
    con = sqlite3.connect(db_path)
    con.execute(f"PRAGMA user_version = {LATEST + 1}")
    con.close()
    before = snapshot(db_path.parent)
    with pytest.raises(NewerDatabase, match=r"newer version of the bot") as caught:
        await Storage.open(db_path)
    assert isinstance(caught.value, StorageError)
    assert str(LATEST + 1) in str(caught.value)
    assert snapshot(db_path.parent) == before  # not even a -wal or -shm file appeared


async def test_a_newer_database_still_in_its_wal_file_is_refused_too(tmp_path):
    # A newer bot migrated, then was killed before SQLite copied the WAL into the main file.
    live = tmp_path / "live" / "steal.db"
    await build(live, LEGACY_LATEST)
    con = sqlite3.connect(live)
    con.execute("PRAGMA wal_autocheckpoint = 0")
    con.execute(f"PRAGMA user_version = {LATEST + 1}")
    con.commit()
    crashed = tmp_path / "crashed"
    crashed.mkdir()
    for suffix in ("", "-wal"):
        shutil.copyfile(f"{live}{suffix}", crashed / f"steal.db{suffix}")
    con.close()
    copy = crashed / "steal.db"
    before = copy.read_bytes()
    assert int.from_bytes(before[60:64], "big") == LEGACY_LATEST  # the main file looks fine
    with pytest.raises(NewerDatabase):
        await Storage.open(copy)
    assert copy.read_bytes() == before


@pytest.mark.parametrize(
    "content",
    [
        b"not a database, just some text\n" * 200,
        b"SQLite format 3\x00" + bytes(range(256)) * 20,  # the right header, then garbage
        b"SQLite",
    ],
    ids=["text", "garbage-after-header", "short"],
)
async def test_a_file_that_is_not_sqlite_is_refused_and_left_untouched(db_path, content):
    db_path.parent.mkdir()
    db_path.write_bytes(content)
    with pytest.raises(NotADatabase, match=str(db_path.name)):
        await Storage.open(db_path)
    assert snapshot(db_path.parent) == {db_path.name: content}


def test_database_path_comes_from_the_environment():
    assert database_path({}) == Path("data/steal.db")
    assert database_path({"DATABASE_PATH": "  "}) == Path("data/steal.db")
    assert database_path({"DATABASE_PATH": "/srv/bot/games.db"}) == Path("/srv/bot/games.db")


async def test_two_live_games_in_one_channel_upgrade_to_one_and_the_newest_stays(db_path):
    # Version 5 let two lobbies or games be saved in one channel; version 6 allows one.
    await build(db_path, 5)
    con = sqlite3.connect(db_path)
    rows = [  # (channel, status, created_at); ids 1.. in this order
        (8, "finished", 1),
        (8, "active", 2),
        (8, "lobby", 3),
        (8, "active", 4),  # the newest live game in channel 8: kept
        (8, "cancelled", 5),
        (9, "lobby", 6),  # alone in its channel: kept
    ]
    with con:
        for channel, status, created in rows:
            con.execute(
                "INSERT INTO games (guild_id, channel_id, host_id, status, seats, rules,"
                " deadline, created_at, updated_at)"
                " VALUES (7, ?, '9', ?, '[\"9\"]', '{}', 50, ?, ?)",
                (channel, status, created, created),
            )
        con.execute(
            "INSERT INTO history VALUES (1, 7, 8, 1, '[\"9\"]', '[0]', '[]', '{}')"
        )  # the finished game's record, which must survive
    con.close()

    async with await Storage.open(db_path) as storage:
        assert await storage.schema_version() == LATEST
        assert [(g.id, g.channel_id, g.status) for g in await storage.games.live()] == [
            (4, 8, "active"),
            (6, 9, "lobby"),
        ]
        saved = await storage.fetchall("SELECT id, status, deadline FROM games")
        assert {r[0]: (r[1], r[2]) for r in saved} == {
            1: ("finished", 50),
            2: ("cancelled", None),
            3: ("cancelled", None),
            4: ("active", 50),
            5: ("cancelled", 50),
            6: ("lobby", 50),
        }
        assert (await storage.history.get(1)).channel_id == 8
        with pytest.raises(ChannelTaken):
            await storage.games.create(7, 8, "9", {})
        assert await storage.outbox.pending() == []
    assert {"games_live", "games_live_channel", "history_by_board"} <= names(db_path, "index")
    assert "outbox" in names(db_path, "table")
