"""Privacy (docs/privacy.md): a server's data goes after the bot leaves it (the cog, _cog.py),
and a member's on request (`/steal forget-me`, `/steal-admin forget`: _forget.py)."""

from __future__ import annotations

from discord.ext import commands

from bot.adapter.services import Services

from ._cog import Privacy
from ._forget import Forget, ask, ask_self

__all__ = ["Forget", "Privacy", "ask", "ask_self", "setup"]


async def setup(bot: commands.Bot, services: Services) -> None:
    """The cog, with the parts it uses; it registers the forget buttons as it loads."""
    forget = Forget(services.sessions.privacy, services.edge)
    await bot.add_cog(Privacy(bot, services.sessions.privacy, forget, services.buttons))
