"""Who counts as a game manager (Manage Server, or the role a server's admins chose), and who
may see a game's channel."""

from __future__ import annotations

from collections.abc import Collection

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


async def can_see(interaction: discord.Interaction, channel_id: int) -> bool:
    """Whether the member may see what was played in a channel (a game's replay, record and
    history entry): they can view it, by their permissions in that channel. A channel that is
    gone (or never was this server's): managers only."""
    return channel_id in await seen_channels(interaction, {channel_id})


async def seen_channels(interaction: discord.Interaction, channel_ids: Collection[int]) -> set[int]:
    """The channels of `channel_ids` the member may see (can_see), at most one manager check."""
    guild, member = interaction.guild, interaction.user
    if guild is None or not isinstance(member, discord.Member):
        return set()
    found: set[int] = set()
    gone: set[int] = set()
    for channel_id in channel_ids:
        channel = guild.get_channel_or_thread(channel_id)
        if channel is None:
            gone.add(channel_id)
        elif channel.permissions_for(member).view_channel:
            found.add(channel_id)
    if gone and await is_manager(interaction):
        found |= gone
    return found
