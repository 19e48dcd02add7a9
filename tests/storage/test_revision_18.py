"""Revision 18 (boards outside servers, the global ladder) upgrades a database of revision 16
that holds finished games, on both backends: every game stays on its server's board, with
its players and stats-card rows (SQLite rebuilds `history` under its foreign keys)."""

from __future__ import annotations

import pytest
from sqlalchemy import text

from bot.storage import Storage, upgrade

pytestmark = pytest.mark.fresh_schema  # a database of revision 16, migrated from nothing

GUILD, CHANNEL, ANN, BOB = 7, 70, "100000000000000001", "100000000000000002"
SEATS = f'["{ANN}", "{BOB}"]'
ROWS = (
    "INSERT INTO games (id, guild_id, channel_id, host_id, status, seats, rules, created_at,"
    " updated_at) VALUES (5, :g, :c, :ann, 'finished', :seats, '{}', 1, 2)",
    "INSERT INTO history (game_id, guild_id, channel_id, finished_at, seats, places, forfeited,"
    " record) VALUES (5, :g, :c, 2, :seats, '[0, 1]', '[]', '{}')",
    "INSERT INTO history_players (game_id, user_id) VALUES (5, :ann), (5, :bob)",
    "INSERT INTO rated_games (guild_id, user_id, n, game_id, mu0, sigma0, mu, sigma, captures)"
    " VALUES (:g, :ann, 1, 5, 25, 8, 27, 7, '{}')",
)


async def test_finished_games_stay_on_their_servers_board(database, monkeypatch):
    monkeypatch.setattr(upgrade, "head", lambda: "0016")  # a bot of revision 16
    async with await Storage.open(database) as old:
        assert await old.schema_version() == 16
        async with old.transaction() as db:
            for statement in ROWS:
                await db.execute(
                    text(statement),
                    {"g": GUILD, "c": CHANNEL, "ann": ANN, "bob": BOB, "seats": SEATS},
                )
    monkeypatch.undo()
    async with await Storage.open(database) as storage:
        assert await storage.schema_version() == upgrade.LATEST
        entry = await storage.history.get(5)
        assert (entry.board_id, entry.guild_id, entry.channel_id) == (GUILD, GUILD, CHANNEL)
        assert [e.game_id for e in await storage.history.by_board(GUILD)] == [5]
        assert [e.game_id for e in await storage.history.by_player(BOB)] == [5]
        (kept,) = await storage.tallies.recent(GUILD, ANN, 5)
        assert (kept.game_id, kept.before, kept.after) == (5, (25, 8), (27, 7))
        assert await storage.ladder.count() == 0
        if storage.dialect == "sqlite":  # the rebuilt table is what its children refer to
            async with storage.transaction() as db:
                assert (await db.exec_driver_sql("PRAGMA foreign_key_check")).all() == []
                await db.exec_driver_sql("DELETE FROM history_players WHERE game_id = 5")
                await db.exec_driver_sql("DELETE FROM rated_games WHERE game_id = 5")
                await db.exec_driver_sql("DELETE FROM history WHERE game_id = 5")
