"""Baseline: the schema of version 7, the last one kept with PRAGMA user_version alone.

SQLite: the numbered scripts of bot/storage/migrations.py bring a file of any older version
(or a new, empty one) to 7, exactly as the bot before Alembic did; a file already at 7 is left
as it is. PostgreSQL: the same tables, made from the frozen copy below.
"""

from __future__ import annotations

import sqlite3

from alembic import op
from sqlalchemy import (
    BigInteger,
    CheckConstraint,
    Column,
    Float,
    ForeignKey,
    Index,
    Integer,
    MetaData,
    PrimaryKeyConstraint,
    Table,
    Text,
    text,
)

from bot.storage.migrations import LEGACY_LATEST, MIGRATIONS

revision = "0007"
down_revision = None
branch_labels = None
depends_on = None


def statements(script: str) -> list[str]:
    """A legacy script's statements, one by one (the driver runs one at a time)."""
    found, pending = [], ""
    for line in script.splitlines(keepends=True):
        pending += line
        if sqlite3.complete_statement(pending):
            found.append(pending.strip())
            pending = ""
    assert not pending.strip(), "a legacy migration ends in an incomplete statement"
    return found


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name == "sqlite":
        version = int(bind.exec_driver_sql("PRAGMA user_version").scalar_one())
        for number in range(version + 1, LEGACY_LATEST + 1):
            for statement in statements(MIGRATIONS[number - 1]):
                bind.exec_driver_sql(statement)
        return
    schema7().create_all(bind)


def schema7() -> MetaData:
    """The tables of version 7, frozen here (bot/storage/schema.py moves on)."""
    m = MetaData()
    real = Float(53)
    live = text("status IN ('lobby', 'active')")
    Table(
        "guild_settings", m,
        Column("guild_id", BigInteger, nullable=False),
        Column("key", Text, nullable=False),
        Column("value", Text, nullable=False),
        PrimaryKeyConstraint("guild_id", "key"),
    )  # fmt: skip
    games = Table(
        "games", m,
        Column("id", Integer, primary_key=True),
        Column("guild_id", BigInteger, nullable=False),
        Column("channel_id", BigInteger, nullable=False),
        Column("host_id", Text, nullable=False),
        Column("status", Text, nullable=False),
        Column("seats", Text, nullable=False),
        Column("rules", Text, nullable=False),
        Column("state", Text),
        Column("version", Integer, nullable=False, server_default="0"),
        Column("lobby_message_id", BigInteger),
        Column("table_message_id", BigInteger),
        Column("ping_message_id", BigInteger),
        Column("deadline", real),
        Column("created_at", real, nullable=False),
        Column("updated_at", real, nullable=False),
        Column("max_players", Integer, nullable=False, server_default="4"),
        Column("match", Text),
        Column("options", Text),
        CheckConstraint("status IN ('lobby', 'active', 'finished', 'cancelled')"),
    )  # fmt: skip
    Index("games_live", games.c.status, postgresql_where=live)
    Index("games_live_channel", games.c.channel_id, unique=True, postgresql_where=live)
    Table(
        "moves", m,
        Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
        Column("n", Integer, nullable=False),
        Column("move", Text, nullable=False),
        PrimaryKeyConstraint("game_id", "n"),
    )  # fmt: skip
    history = Table(
        "history", m,
        Column("game_id", Integer, ForeignKey("games.id"), primary_key=True,
               autoincrement=False),
        Column("guild_id", BigInteger, nullable=False),
        Column("channel_id", BigInteger, nullable=False),
        Column("finished_at", real, nullable=False),
        Column("seats", Text, nullable=False),
        Column("places", Text, nullable=False),
        Column("forfeited", Text, nullable=False),
        Column("record", Text, nullable=False),
    )  # fmt: skip
    Index(
        "history_by_guild", history.c.guild_id, history.c.finished_at.desc(),
        history.c.game_id.desc(),
    )  # fmt: skip
    Table(
        "history_players", m,
        Column("game_id", Integer, ForeignKey("history.game_id"), nullable=False),
        Column("user_id", Text, nullable=False),
        PrimaryKeyConstraint("user_id", "game_id"),
    )  # fmt: skip
    Table(
        "players", m,
        Column("guild_id", BigInteger, nullable=False),
        Column("user_id", Text, nullable=False),
        Column("name", Text, nullable=False, server_default=""),
        Column("games", Integer, nullable=False, server_default="0"),
        Column("wins", Integer, nullable=False, server_default="0"),
        Column("cards", Integer, nullable=False, server_default="0"),
        Column("steals", Integer, nullable=False, server_default="0"),
        Column("biggest_steal", Integer, nullable=False, server_default="0"),
        Column("mu", real, nullable=False),
        Column("sigma", real, nullable=False),
        PrimaryKeyConstraint("guild_id", "user_id"),
    )  # fmt: skip
    Table(
        "outbox", m,
        Column("id", Integer, primary_key=True),
        Column("game_id", Integer, ForeignKey("games.id"), nullable=False),
        Column("kind", Text, nullable=False),
        Column("payload", Text, nullable=False),
        Column("created_at", real, nullable=False),
    )  # fmt: skip
    return m
