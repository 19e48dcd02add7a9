"""14: leaderboard seasons: each server's seasons (`seasons`) and the standings of each one
that ended (`season_standings`), the archive `/steal leaderboard season:` and the medals on
the stats card read."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0014"
down_revision = "0013"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seasons",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("number", sa.Integer, nullable=False),
        sa.Column("started_at", sa.Float(53), nullable=False),
        sa.Column("ended_at", sa.Float(53)),
        sa.PrimaryKeyConstraint("guild_id", "number"),
    )
    op.create_table(
        "season_standings",
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("season", sa.Integer, nullable=False),
        sa.Column("rank", sa.Integer, nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("name", sa.Text, nullable=False, server_default=""),
        sa.Column("games", sa.Integer, nullable=False),
        sa.Column("wins", sa.Integer, nullable=False),
        sa.Column("cards", sa.Integer, nullable=False),
        sa.Column("steals", sa.Integer, nullable=False),
        sa.Column("biggest_steal", sa.Integer, nullable=False),
        sa.Column("mu", sa.Float(53), nullable=False),
        sa.Column("sigma", sa.Float(53), nullable=False),
        sa.PrimaryKeyConstraint("guild_id", "season", "rank"),
    )
    # A player's medals: their rows in the top three, of every season.
    op.create_index("season_standings_by_user", "season_standings", ["guild_id", "user_id", "rank"])
    set_sqlite_version(14)
