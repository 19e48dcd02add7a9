"""`/steal-admin`: a server's settings, where games may start, stuck games, the leaderboard
reset, an export and forgetting a member (cogs/admin/_cog.py)."""

from __future__ import annotations

from discord.ext import commands

from bot.adapter.services import Services

from ._cog import Admin
from ._common import Common

__all__ = ["Admin", "setup"]


async def setup(bot: commands.Bot, services: Services) -> None:
    """The cog, with the parts it uses; it registers its button families as it loads."""
    common = Common(services.sessions, services.settings, services.edge)
    await bot.add_cog(Admin(common, services.edge, services.buttons))
