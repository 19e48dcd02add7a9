"""What every `/steal-admin` module shares: who may use it, the server's settings as the
session layer keeps them, and the log of who changed what."""

from __future__ import annotations

import logging
from collections.abc import Mapping

import discord

from bot.adapter.edge import Edge
from bot.adapter.interactions import guild_of
from bot.adapter.language import user_lang
from bot.domain.server_settings import Setting
from bot.domain.values import GuildSettings
from bot.i18n import t
from bot.session import Sessions

# One logger for every admin change, whichever module makes it: docs/admin.md and
# docs/operations.md tell operators to follow `cogs.admin`.
log = logging.getLogger("cogs.admin")

MAX_CHANNELS = 50
Channel = discord.TextChannel | discord.Thread


def is_admin(interaction: discord.Interaction) -> bool:
    """The one permission of every admin action, command or button: Manage Server, as
    Discord computes it for this member here (Administrator includes it). Not the game
    manager role: Discord hides `/steal-admin` from it, so its clicks must not reach the
    settings either; the role manages games (`/steal cancel`), see docs/admin.md."""
    perms = interaction.permissions
    return interaction.guild_id is not None and perms is not None and perms.manage_guild


def refused(interaction: discord.Interaction) -> str:
    """What a member who is not an admin is told (ephemerally), in their language."""
    return t(user_lang(interaction), "admin.refused")


def changed(interaction: discord.Interaction, what: str) -> None:
    user = interaction.user
    log.info("guild %s: %s (%s) %s", interaction.guild_id, user.name, user.id, what)


class Common:
    """What the admin modules read and write of the running bot."""

    def __init__(self, sessions: Sessions, specs: Mapping[str, Setting], edge: Edge) -> None:
        self.sessions = sessions
        self.specs = specs  # every setting, with its bot-wide default
        self.edge = edge

    async def current(self, interaction: discord.Interaction) -> GuildSettings:
        return await self.sessions.records.settings(guild_of(interaction))

    async def set_channels(self, interaction: discord.Interaction, allowed: list[int]) -> None:
        await self.sessions.records.set_setting(guild_of(interaction), "channels", allowed)
