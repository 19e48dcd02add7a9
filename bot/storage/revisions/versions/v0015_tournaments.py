"""15: tournaments: the event, its entrants and its tables round by round (each table's game
is an ordinary game, played in its own thread)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0015"
down_revision = "0014"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tournaments",
        sa.Column("id", sa.Integer, primary_key=True),
        sa.Column("guild_id", sa.BigInteger, nullable=False),
        sa.Column("channel_id", sa.BigInteger, nullable=False),
        sa.Column("name", sa.Text, nullable=False),
        sa.Column("host_id", sa.Text, nullable=False),
        sa.Column("format", sa.Text, nullable=False),
        sa.Column("table_size", sa.Integer, nullable=False),
        sa.Column("rounds", sa.Integer, nullable=False),
        sa.Column("preset", sa.Text, nullable=False),
        sa.Column("turn_seconds", sa.Integer),
        sa.Column("signup_ends", sa.Float(53)),
        sa.Column("starts_at", sa.Float(53)),
        sa.Column("check_in", sa.Integer, nullable=False, server_default="0"),
        sa.Column("counted", sa.Integer, nullable=False, server_default="1"),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("round", sa.Integer, nullable=False, server_default="0"),
        sa.Column("seed", sa.BigInteger, nullable=False),
        sa.Column("settings", sa.Text, nullable=False),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("created_at", sa.Float(53), nullable=False),
        sa.Column("updated_at", sa.Float(53), nullable=False),
        sa.CheckConstraint(
            "status IN ('signup', 'running', 'finished', 'cancelled')", name="tournaments_status"
        ),
    )
    op.create_index("tournaments_by_guild", "tournaments", ["guild_id", sa.text("id DESC")])
    op.create_table(
        "tournament_entrants",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("entrant", sa.Text, nullable=False),
        sa.Column("rating", sa.Float(53), nullable=False),
        sa.Column("joined_at", sa.Float(53), nullable=False),
        sa.Column("dropped", sa.Integer, nullable=False, server_default="0"),
        sa.PrimaryKeyConstraint("tournament_id", "entrant"),
    )
    op.create_table(
        "tournament_tables",
        sa.Column("tournament_id", sa.Integer, sa.ForeignKey("tournaments.id"), nullable=False),
        sa.Column("round", sa.Integer, nullable=False),
        sa.Column("table_no", sa.Integer, nullable=False),
        sa.Column("entrants", sa.Text, nullable=False),
        sa.Column("thread_id", sa.BigInteger),
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id")),
        sa.Column("status", sa.Text, nullable=False),
        sa.Column("result", sa.Text),
        sa.PrimaryKeyConstraint("tournament_id", "round", "table_no"),
    )
    op.create_index("tournament_tables_by_game", "tournament_tables", ["game_id"])
    set_sqlite_version(15)
