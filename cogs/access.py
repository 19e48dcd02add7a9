"""Who counts as a game manager: Manage Server, or the role a server's admins chose."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import t

from .language import user_lang

if TYPE_CHECKING:
    from bot.client import StealBot


def refused(interaction: discord.Interaction) -> str:
    """Why a member may not do that, in their own language (it is always an ephemeral reply)."""
    return t(user_lang(interaction), "admin.refused")


async def is_manager(bot: StealBot, interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    if perms is not None and perms.manage_guild:
        return True
    if interaction.guild_id is None:
        return False
    role = (await bot.storage.settings.get(interaction.guild_id))["manager_role"]
    roles = getattr(interaction.user, "roles", ())
    return role is not None and any(r.id == role for r in roles)
