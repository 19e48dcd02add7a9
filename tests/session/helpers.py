"""Helpers for the session tests that production code has no use for."""

from __future__ import annotations

from bot.session import Sessions, Table


def table_in(sessions: Sessions, channel_id: int) -> Table:
    """The table of the game going in a channel (NoGame if there is none)."""
    return sessions.table(sessions.channels.get(channel_id, -1))
