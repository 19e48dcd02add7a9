"""The leaderboard, a player's stats, the history of finished games and a game's record
(_boards.py). Its commands are declared by the `/steal` cog (cogs/steal)."""

from __future__ import annotations

from ._boards import Boards

__all__ = ["Boards"]
