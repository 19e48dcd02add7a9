"""The SQLite schema up to version 7, as the numbered scripts the bot used before Alembic.
Version N is the schema after MIGRATIONS[N - 1].

Frozen: Alembic's baseline revision (revisions/versions/v0007_baseline.py) runs them to bring
an older file, or a new one, to 7; later changes are Alembic revisions. Each ends by setting
`PRAGMA user_version`, which SQLite commits or rolls back with the rest of the script.
"""

from __future__ import annotations

import contextlib
import sqlite3

import aiosqlite

from .errors import MigrationFailed

MIGRATIONS: tuple[str, ...] = (
    # 1: the first schema.
    """
    CREATE TABLE guild_settings (
        guild_id INTEGER NOT NULL,
        key      TEXT    NOT NULL,
        value    TEXT    NOT NULL,  -- JSON
        PRIMARY KEY (guild_id, key)
    ) WITHOUT ROWID;

    -- One row per game, from lobby to its end. `state` is the engine's to_dict(), JSON.
    CREATE TABLE games (
        id               INTEGER PRIMARY KEY,
        guild_id         INTEGER NOT NULL,
        channel_id       INTEGER NOT NULL,
        host_id          TEXT    NOT NULL,
        status           TEXT    NOT NULL
                         CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        seats            TEXT    NOT NULL,  -- JSON list of player ids
        rules            TEXT    NOT NULL,  -- JSON
        state            TEXT,              -- JSON; NULL while a lobby
        version          INTEGER NOT NULL DEFAULT 0,  -- moves saved so far
        lobby_message_id INTEGER,
        table_message_id INTEGER,
        ping_message_id  INTEGER,
        deadline         REAL,              -- unix time the player to act must move by
        created_at       REAL    NOT NULL,
        updated_at       REAL    NOT NULL
    );

    CREATE TABLE moves (
        game_id INTEGER NOT NULL REFERENCES games (id),
        n       INTEGER NOT NULL,  -- 1 for the first move; equals games.version after it
        move    TEXT    NOT NULL,  -- JSON
        PRIMARY KEY (game_id, n)
    ) WITHOUT ROWID;

    CREATE TABLE history (
        game_id     INTEGER PRIMARY KEY REFERENCES games (id),
        guild_id    INTEGER NOT NULL,
        channel_id  INTEGER NOT NULL,
        finished_at REAL    NOT NULL,
        seats       TEXT    NOT NULL,  -- JSON list of player ids
        places      TEXT    NOT NULL,  -- JSON list: each seat's place, 0 = first
        forfeited   TEXT    NOT NULL,  -- JSON list of player ids
        record      TEXT    NOT NULL   -- JSON engine record
    );

    -- Who played in which finished game, to list a player's history.
    CREATE TABLE history_players (
        game_id INTEGER NOT NULL REFERENCES history (game_id),
        user_id TEXT    NOT NULL,
        PRIMARY KEY (user_id, game_id)
    ) WITHOUT ROWID;

    -- Per guild totals and skill rating (openskill mu and sigma).
    CREATE TABLE players (
        guild_id      INTEGER NOT NULL,
        user_id       TEXT    NOT NULL,
        name          TEXT    NOT NULL DEFAULT '',
        games         INTEGER NOT NULL DEFAULT 0,
        wins          INTEGER NOT NULL DEFAULT 0,
        cards         INTEGER NOT NULL DEFAULT 0,
        steals        INTEGER NOT NULL DEFAULT 0,
        biggest_steal INTEGER NOT NULL DEFAULT 0,
        mu            REAL    NOT NULL,
        sigma         REAL    NOT NULL,
        PRIMARY KEY (guild_id, user_id)
    ) WITHOUT ROWID;

    PRAGMA user_version = 1;
    """,
    # 2: indexes for the start-up load and for history pages.
    """
    CREATE INDEX games_live ON games (status) WHERE status IN ('lobby', 'active');
    CREATE INDEX history_by_guild ON history (guild_id, finished_at DESC, game_id DESC);

    PRAGMA user_version = 2;
    """,
    # 3: a lobby's seat limit, so a restart keeps it.
    """
    ALTER TABLE games ADD COLUMN max_players INTEGER NOT NULL DEFAULT 4;

    PRAGMA user_version = 3;
    """,
    # 4: a lobby's match settings (JSON: games, scoring), so a restart keeps them.
    """
    ALTER TABLE games ADD COLUMN match TEXT;

    PRAGMA user_version = 4;
    """,
    # 5: a game's options taken from the server's settings when its lobby opened (JSON:
    # turn_seconds, pings, ...), so a change of settings never alters a game under way.
    """
    ALTER TABLE games ADD COLUMN options TEXT;

    PRAGMA user_version = 5;
    """,
    # 6: one lobby or game under way per channel, enforced by the database. Older versions
    # could save two live games in one channel: the newest (highest id) of them stays, the
    # older ones are cancelled, as `Games.cancel` would. Finished games are left alone.
    """
    UPDATE games
       SET status = 'cancelled', deadline = NULL,
           updated_at = (julianday('now') - 2440587.5) * 86400.0
     WHERE status IN ('lobby', 'active')
       AND EXISTS (SELECT 1 FROM games AS newer
                    WHERE newer.channel_id = games.channel_id
                      AND newer.status IN ('lobby', 'active')
                      AND newer.id > games.id);
    CREATE UNIQUE INDEX games_live_channel ON games (channel_id)
        WHERE status IN ('lobby', 'active');

    PRAGMA user_version = 6;
    """,
    # 7: the outbox: Discord messages owed for a game (its end screen, a cancellation notice),
    # saved with the end itself, so a restart still sends them. A row is deleted once done.
    """
    -- AUTOINCREMENT: an id is never reused, so marking an item done twice cannot delete a
    -- newer one.
    CREATE TABLE outbox (
        id         INTEGER PRIMARY KEY AUTOINCREMENT,
        game_id    INTEGER NOT NULL REFERENCES games (id),
        kind       TEXT    NOT NULL,
        payload    TEXT    NOT NULL,  -- JSON object
        created_at REAL    NOT NULL
    );

    PRAGMA user_version = 7;
    """,
)

LEGACY_LATEST = len(MIGRATIONS)  # 7


async def schema_version(db: aiosqlite.Connection) -> int:
    async with db.execute("PRAGMA user_version") as cursor:
        row = await cursor.fetchone()
    assert row is not None  # the pragma always answers one row
    version: int = row[0]
    return version


async def migrate(db: aiosqlite.Connection, upto: int = LEGACY_LATEST) -> int:
    """Apply every legacy migration after the file's version, up to `upto`, one transaction
    each: how the bot before Alembic migrated (the tests make older files with it).

    `db` must be in autocommit mode (isolation_level=None). Returns the new version.
    """
    version = await schema_version(db)
    for number in range(version + 1, upto + 1):
        try:
            # executescript would commit an open transaction first, so BEGIN goes inside it.
            await db.executescript("BEGIN IMMEDIATE;\n" + MIGRATIONS[number - 1])
            await db.execute("COMMIT")
        except Exception as exc:
            with contextlib.suppress(sqlite3.Error):  # no transaction left to roll back
                await db.execute("ROLLBACK")
            raise MigrationFailed(f"database migration {number} failed: {exc}") from exc
        version = number
    return version
