"""Who counts as a game manager: Manage Server, or the role a server's admins chose."""

from __future__ import annotations

import discord

from bot.i18n import t

from .language import user_lang
from .services import app_of


def refused(interaction: discord.Interaction) -> str:
    """Why a member may not do that, in their own language (it is always an ephemeral reply)."""
    return t(user_lang(interaction), "admin.refused")


async def is_manager(interaction: discord.Interaction) -> bool:
    perms = interaction.permissions
    if perms is not None and perms.manage_guild:
        return True
    if interaction.guild_id is None:
        return False
    settings = await app_of(interaction).sessions.records.settings(interaction.guild_id)
    role = settings["manager_role"]
    roles = getattr(interaction.user, "roles", ())
    return role is not None and any(r.id == role for r in roles)
