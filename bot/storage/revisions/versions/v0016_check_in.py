"""16: a tournament's check-in: `tournament_entrants.checked_in`, set when an entrant checks
in before the start (a tournament made with check-in drops, at its start, the people who did
not)."""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0016"
down_revision = "0015"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tournament_entrants",
        sa.Column("checked_in", sa.Integer, nullable=False, server_default="0"),
    )
    set_sqlite_version(16)
