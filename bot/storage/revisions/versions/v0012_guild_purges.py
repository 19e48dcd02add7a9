"""12: the servers whose data is to be deleted, and when.

When the bot is removed from a server, that server's data is deleted after a grace period
(docs/privacy.md); the pending deletion is a row here, so it survives restarts and is retried
until done. Re-adding the bot within the grace deletes the row.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "guild_purges",
        sa.Column("guild_id", sa.BigInteger, primary_key=True, autoincrement=False),
        sa.Column("due_at", sa.Float(53), nullable=False),
        sa.Column("requested_at", sa.Float(53), nullable=False),
    )
    set_sqlite_version(12)
