"""13: the interaction tokens of players' open hand messages, so they follow their games
across a restart (each for its 15 minutes; expired ones are dropped)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0013"
down_revision = "0012"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "hand_tokens",
        sa.Column("game_id", sa.Integer, sa.ForeignKey("games.id"), nullable=False),
        sa.Column("user_id", sa.Text, nullable=False),
        sa.Column("token", sa.Text, nullable=False),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("origin", sa.BigInteger, nullable=False),
        sa.Column("lang", sa.Text, nullable=False),
        sa.Column("expires_at", sa.Float(53), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "user_id"),
    )
    op.create_index("hand_tokens_by_expiry", "hand_tokens", ["expires_at"])
    set_sqlite_version(13)
