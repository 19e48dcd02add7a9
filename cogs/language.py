"""Whose language a message is in: ephemeral replies follow the member who acted; public
messages follow the server (its configured language, else its own locale, else English)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord

from bot.i18n import language_of

if TYPE_CHECKING:
    from bot.client import StealBot


def user_lang(interaction: discord.Interaction) -> str:
    """The language of an ephemeral reply: the clicking member's own (English if unsupported)."""
    return language_of(interaction.locale)


async def guild_lang(
    bot: StealBot,
    guild_id: int | None,
    interaction: discord.Interaction | None = None,
    configured: str | None = None,
) -> str:
    """The language of public messages in a server. `configured`: its language setting, when
    the caller has read the settings already."""
    if guild_id is None:
        return language_of(interaction.locale if interaction else None)
    if configured is None:
        configured = (await bot.storage.settings.get(guild_id))["language"]
    if configured != "follow":
        return configured
    guild = bot.get_guild(guild_id)
    locale = guild.preferred_locale if guild is not None else None
    if locale is None and interaction is not None:
        locale = interaction.guild_locale
    return language_of(locale)
