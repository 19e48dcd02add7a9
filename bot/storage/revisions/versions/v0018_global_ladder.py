"""18: boards and records outside servers, and the global ladder (issue 36).

- `history.board_id`: the board a finished game counted on (a server's id; a group DM's or
  DM's channel id), filled from `guild_id` for the games before it; `history.guild_id` may be
  NULL (a game outside a server). The board's index replaces the guild's.
- `global_ratings`: one openskill rating per person over every rated game anywhere.
- `profiles`: whether a person shows their name on the global ladder, and that name.

SQLite cannot drop a NOT NULL in place: `history` is rebuilt. Its children's rows
(history_players, rated_games) are set aside first and put back after, so the foreign keys,
which stay on, never see a missing parent.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0018"
down_revision = "0017"
branch_labels = None
depends_on = None

HISTORY = "game_id, guild_id, channel_id, finished_at, seats, places, forfeited, record"
CHILDREN = ("history_players", "rated_games")


def history_columns() -> list[sa.Column[object]]:
    return [
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True,
            autoincrement=False,
        ),
        sa.Column("board_id", sa.BigInteger, nullable=False),
        sa.Column("guild_id", sa.BigInteger),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("finished_at", sa.Float(53), nullable=False),
        sa.Column("seats", sa.Text, nullable=False),
        sa.Column("places", sa.Text, nullable=False),
        sa.Column("forfeited", sa.Text, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
    ]  # fmt: skip


def rebuild_sqlite_history() -> None:
    op.create_table("history_v18", *history_columns())
    op.execute(
        f"INSERT INTO history_v18 (board_id, {HISTORY}) SELECT guild_id, {HISTORY} FROM history"
    )
    for child in CHILDREN:  # set aside, so dropping the parent deletes no referenced row
        op.execute(f"CREATE TABLE {child}_v18 AS SELECT * FROM {child}")
        op.execute(f"DELETE FROM {child}")
    op.execute("DROP TABLE history")  # its index goes with it
    op.rename_table("history_v18", "history")
    for child in CHILDREN:
        op.execute(f"INSERT INTO {child} SELECT * FROM {child}_v18")
        op.execute(f"DROP TABLE {child}_v18")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        rebuild_sqlite_history()
    else:
        op.add_column("history", sa.Column("board_id", sa.BigInteger))
        op.execute("UPDATE history SET board_id = guild_id")
        op.alter_column("history", "board_id", nullable=False)
        op.alter_column("history", "guild_id", nullable=True)
        op.drop_index("history_by_guild", table_name="history")
    op.create_index(
        "history_by_board",
        "history",
        ["board_id", sa.text("finished_at DESC"), sa.text("game_id DESC")],
    )
    op.create_table(
        "global_ratings",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("games", sa.Integer, nullable=False, server_default="0"),
        sa.Column("wins", sa.Integer, nullable=False, server_default="0"),
        sa.Column("mu", sa.Float(53), nullable=False),
        sa.Column("sigma", sa.Float(53), nullable=False),
        sa.Column("rating", sa.Float(53), nullable=False),
    )
    op.create_index(
        "global_ratings_by_rating",
        "global_ratings",
        [sa.text("rating DESC"), sa.text("wins DESC"), "user_id", "games"],
        sqlite_where=sa.text("games > 0"),
        postgresql_where=sa.text("games > 0"),
    )
    op.create_table(
        "profiles",
        sa.Column("user_id", sa.Text, primary_key=True),
        sa.Column("show_name", sa.Integer, nullable=False, server_default="0"),
        sa.Column("name", sa.Text, nullable=False, server_default=""),
        sa.Column("updated_at", sa.Float(53), nullable=False),
    )
    set_sqlite_version(18)
