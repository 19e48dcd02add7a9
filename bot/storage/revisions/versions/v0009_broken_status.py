"""9: a game's status may be "broken": a lobby or game whose row cannot be read is set aside
(its channel free, never restored) instead of stopping the bot from starting.

The status CHECK constraint gains the value, and is named games_status. PostgreSQL alters it.
SQLite cannot alter a constraint: its table's stored definition is changed in place, SQLite's
procedure for loosening one (https://sqlite.org/lang_altertable.html, "other kinds of table
schema changes"): every row that met the old constraint meets the new one.
"""

from __future__ import annotations

from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

OLD = "CHECK (status IN ('lobby', 'active', 'finished', 'cancelled'))"
STATUSES = "status IN ('lobby', 'active', 'finished', 'cancelled', 'broken')"
NEW = f"CONSTRAINT games_status CHECK ({STATUSES})"


def upgrade() -> None:
    bind = op.get_bind()
    if bind.dialect.name != "sqlite":
        op.drop_constraint("games_status_check", "games", type_="check")
        op.create_check_constraint(
            "games_status",
            "games",
            "status IN ('lobby', 'active', 'finished', 'cancelled', 'broken')",
        )
        return
    sql = bind.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'games'"
    ).scalar_one()
    if OLD not in sql:
        raise RuntimeError("the games table's status constraint is not the one of version 8")
    # Allowing one more value only loosens the constraint, so every stored row still meets
    # it: SQLite's procedure for such changes edits the table's definition in place and bumps
    # the schema's version, so every connection reads the new one.
    schema_version = bind.exec_driver_sql("PRAGMA schema_version").scalar_one()
    bind.exec_driver_sql("PRAGMA writable_schema = ON")
    bind.exec_driver_sql(
        "UPDATE sqlite_master SET sql = ? WHERE type = 'table' AND name = 'games'",
        (sql.replace(OLD, NEW),),
    )
    bind.exec_driver_sql(f"PRAGMA schema_version = {int(schema_version) + 1}")
    bind.exec_driver_sql("PRAGMA writable_schema = OFF")
    set_sqlite_version(9)
