"""11: each counted game's ratings and captures per player, for the stats card.

- `rated_games`: one row per counted game per rated player (the ratings before and after it,
  the captures by rank), written with the finish; `/steal stats` reads a player's last rows
  instead of replaying the server's history.
- `stats_backfill`: the guilds that already had finished games. Working out their rows needs
  the rules engine and the ratings, which storage does not import: the session layer does it
  at start-up (bot/session/records.py `backfill`), and deletes each guild's row as it does.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0011"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    real = sa.Float(53)
    op.create_table(
        "rated_games",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("n", sa.Integer, nullable=False),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("history.game_id"), nullable=False),
        sa.Column("mu0", real, nullable=False),
        sa.Column("sigma0", real, nullable=False),
        sa.Column("mu", real, nullable=False),
        sa.Column("sigma", real, nullable=False),
        sa.Column("captures", sa.Text, nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "user_id", "n"),
    )
    op.create_table(
        "stats_backfill",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
    )
    op.execute("INSERT INTO stats_backfill (guild_id) SELECT DISTINCT guild_id FROM history")
    set_sqlite_version(11)
