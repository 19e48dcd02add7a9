"""17: a game knows its place (issue 36). `games.guild_id` may be NULL (a game in a group DM
or another DM has no server); `games.place` keeps where it is played as JSON (NULL: a server
channel the bot is in, every game before places); `anchor_tokens` keeps the interaction token
that edits the table of a game the bot token cannot reach, under the rules for hand tokens
(a secret for its 15 minutes, dropped once expired, by forget and by the purge).

PostgreSQL drops the NOT NULL. SQLite cannot alter a column: its table's stored definition is
changed in place, SQLite's procedure for loosening a constraint (as revision 9 did): every
row that met the old definition meets the new one.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0017"
down_revision = "0016"
branch_labels = None
depends_on = None

OLD = "guild_id         INTEGER NOT NULL,"
NEW = "guild_id         INTEGER,"


def upgrade() -> None:
    bind = op.get_bind()
    op.add_column("games", sa.Column("place", sa.Text))
    op.create_table(
        "anchor_tokens",
        sa.Column(
            "game_id", sa.Integer, sa.ForeignKey("games.id"), primary_key=True, autoincrement=False
        ),
        sa.Column("token", sa.Text, nullable=False),
        sa.Column("message_id", sa.BigInteger),
        sa.Column("expires_at", sa.Float(53), nullable=False),
        sa.Column("followups", sa.Integer, nullable=False, server_default="0"),
    )
    op.create_index("anchor_tokens_by_expiry", "anchor_tokens", ["expires_at"])
    if bind.dialect.name != "sqlite":
        op.alter_column("games", "guild_id", existing_type=sa.BigInteger, nullable=True)
        return
    sql = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'games'"
    ).scalar_one()
    if OLD not in sql:
        raise RuntimeError("the games table's guild_id is not the one of version 16")
    schema_version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql(
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'games'",
        (sql.replace(OLD, NEW, 1),),
    )
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(schema_version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")
    set_sqlite_version(17)
