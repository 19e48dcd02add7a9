"""A file made by the bot of schema 7 (fixtures/make_schema7.py) upgrades in place, losing
nothing; and `python -m bot.storage copy` moves every table to PostgreSQL and back."""

import json
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import insert

from bot.domain.values import PlayerStats
from bot.storage import LATEST, Storage, StorageError
from bot.storage.__main__ import main as storage_command
from bot.storage.copy import copy
from bot.storage.schema import TABLES, global_ratings
from tests.engine.helpers import record_moves
from tests.support import backends

FIXTURE = Path(__file__).with_name("fixtures") / "schema7.db"
ROOT = Path(__file__).parents[2]

# Upgrades of old files and schemas: the real migrations, no template.
pytestmark = pytest.mark.fresh_schema


def raw(path: Path) -> dict[str, list[tuple]]:
    """Every row of every table of a SQLite file, in primary key order (the tables it has: a
    schema 7 file has none of the newer ones)."""
    con = sqlite3.connect(path)
    try:
        found = {}
        has = {n for (n,) in con.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        for table in (t for t in TABLES if t.name in has):
            order = ", ".join(c.name for c in table.primary_key.columns)
            found[table.name] = con.execute(
                f"SELECT * FROM {table.name} ORDER BY {order}"
            ).fetchall()
        return found
    finally:
        con.close()


@pytest.fixture
def old_file(tmp_path) -> Path:
    path = tmp_path / "steal.db"
    shutil.copyfile(FIXTURE, path)
    return path


async def read_back(storage: Storage, before: dict[str, list[tuple]]) -> None:
    """Every row of the old file, read through storage's API as the bot reads it."""
    for g in before["games"]:
        (gid, guild, channel, host, status, seats, rules, state, version, lobby_msg, table_msg,
         ping_msg, deadline, created, updated, max_players, match, options) = g  # fmt: skip
        row = await storage.games.get(gid)
        assert (row.guild_id, row.channel_id, row.host_id, row.status) == (
            guild, channel, host, status
        )  # fmt: skip
        assert row.seats == tuple(json.loads(seats)) and row.rules == json.loads(rules)
        if status == "finished":  # the record replays to the end: no state kept beside it
            assert row.state is None
        else:
            assert row.state == (json.loads(state) if state else None)
        assert (row.version, row.lobby_message_id, row.table_message_id, row.ping_message_id) == (
            version, lobby_msg, table_msg, ping_msg
        )  # fmt: skip
        assert (row.deadline, row.created_at, row.updated_at) == (deadline, created, updated)
        assert row.max_players == max_players
        assert row.match == (json.loads(match) if match else None)
        assert row.options == (json.loads(options) if options else {})
        moves = [json.loads(m) for game_id, _n, m in before["moves"] if game_id == gid]
        if status == "finished":  # its moves are kept once: in its history record
            assert await storage.games.moves(gid) == []
            entry = await storage.history.get(gid)
            assert moves and record_moves(entry.record) == moves
        else:
            assert await storage.games.moves(gid) == moves
    live = [g[0] for g in before["games"] if g[4] in ("lobby", "active")]
    assert [g.id for g in await storage.games.live()] == live
    for gid, guild, channel, finished, seats, places, forfeited, record in before["history"]:
        entry = await storage.history.get(gid)
        assert (entry.guild_id, entry.channel_id, entry.finished_at) == (guild, channel, finished)
        assert entry.seats == tuple(json.loads(seats))
        assert entry.places == tuple(json.loads(places))
        assert entry.forfeited == tuple(json.loads(forfeited))
        assert entry.record == json.loads(record)
    for user in {u for _g, u in before["history_players"]}:
        games = sorted(g for g, u in before["history_players"] if u == user)
        assert sorted(e.game_id for e in await storage.history.by_player(user)) == games
    for p in before["players"]:
        assert await storage.stats.get(p[0], p[1]) == PlayerStats(*p[:10])
    for guild, key, value in before["guild_settings"]:
        assert (await storage.settings.get(guild))[key] == json.loads(value)
    pending = [
        (i.id, i.game_id, i.kind, i.payload, i.created_at) for i in await storage.outbox.pending()
    ]
    assert pending == [(i, g, k, json.loads(p), c) for i, g, k, p, c in before["outbox"]]


async def test_a_schema_7_file_upgrades_in_place_and_keeps_every_row(old_file):
    before = raw(old_file)
    assert all(before.values()), "the fixture holds rows of every table it has"
    defaults = {"turn_seconds": 120, "lang": "en"}
    async with await Storage.open(old_file, setting_defaults=defaults) as storage:
        assert await storage.schema_version() == LATEST
        await read_back(storage, before)
    async with await Storage.open(old_file, setting_defaults=defaults) as storage:
        await read_back(storage, before)  # opening again changes nothing


async def test_copy_moves_every_table_to_postgresql_and_back_unchanged(old_file, tmp_path):
    backends.require_postgres()
    original = raw(old_file)
    async with await Storage.open(old_file) as upgraded:  # first, so both are of one schema
        await upgraded.forgetting.schedule_purge(77, 1e9)  # and a row of the table it added
        # and of the global ladder's (revision 18)
        await upgraded.ladder.set_profile("42", True, "Ann")
        async with upgraded.transaction() as db:
            await db.execute(
                insert(global_ratings).values(
                    user_id="42", games=3, wins=2, mu=27.5, sigma=6.25, rating=27.5 - 18.75
                )
            )
    before = raw(old_file)
    url, schema = backends.new_schema_url()
    back = tmp_path / "back" / "steal.db"
    try:
        there = await copy(old_file, url)
        assert there == {t: len(rows) for t, rows in before.items()}
        assert await copy(url, back) == there
        # The copy into a database that has rows is refused, changing nothing.
        with pytest.raises(StorageError, match="empty"):
            await copy(old_file, url)
        async with await Storage.open(url, setting_defaults={"turn_seconds": 1, "lang": "x"}) as s:
            await read_back(s, original)
            # New rows are numbered after the copied ones.
            lobby = await s.games.create(1, 999, "1", {})
            assert lobby.id == max(g[0] for g in before["games"]) + 1
    finally:
        backends.drop_schema(schema)
    assert raw(back) == before


def test_the_copy_command_reports_each_table(old_file, tmp_path, capsys):
    to = tmp_path / "copy.db"
    done = subprocess.run(
        [sys.executable, "-m", "bot.storage", "copy", "--from", str(old_file), "--to", f"sqlite:///{to}"],
        capture_output=True, text=True, cwd=ROOT, timeout=60,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "games                     6 rows, counts match" in done.stdout
    assert raw(to)["moves"] == raw(old_file)["moves"]
    # Again, onto the copy: refused. The same command, in this process (its command line
    # was checked above; a second interpreter costs two seconds of imports).
    assert storage_command(["copy", "--from", str(old_file), "--to", str(to)]) == 1
    assert "empty database" in capsys.readouterr().err
