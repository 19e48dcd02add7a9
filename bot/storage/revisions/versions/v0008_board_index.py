"""8: a finished game keeps only its history record; the leaderboard reads an index.

- Move rows and the state of finished games go: the record in `history` holds every move and
  replays to the end (the bot now drops them when a game finishes).
- players.rating (mu - 3 sigma, what the board sorts on) is kept as a column, with indexes for
  the board's orders, so a page and a player's rank never sort the whole guild. `games` ends
  each index so it covers the queries: counting and skipping read no table rows.
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

from bot.storage.revisions import set_sqlite_version

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

PLAYED = sa.text("games > 0")


def upgrade() -> None:
    op.execute(
        "DELETE FROM moves WHERE game_id IN (SELECT id FROM games WHERE status = 'finished')"
    )
    op.execute("UPDATE games SET state = NULL WHERE status = 'finished'")
    op.add_column("players", sa.Column("rating", sa.Float(53), nullable=False, server_default="0"))
    op.execute("UPDATE players SET rating = mu - 3 * sigma")
    orders: dict[str, tuple[str, str]] = {
        "rating": ("rating", "wins"),
        "wins": ("wins", "rating"),
        "cards": ("cards", "rating"),
    }
    for name, (first, second) in orders.items():
        columns: list[str | sa.TextClause] = [
            "guild_id", sa.text(f"{first} DESC"), sa.text(f"{second} DESC"), "user_id", "games",
        ]  # fmt: skip
        op.create_index(
            f"players_by_{name}", "players", columns, sqlite_where=PLAYED, postgresql_where=PLAYED
        )
    set_sqlite_version(8)
