"""Whose language a message is in: ephemeral replies follow the member who acted; public
messages follow the server (its configured language, else its own locale, else English)."""

from __future__ import annotations

import discord

from bot.i18n import language_of

from .services import app_of


def user_lang(interaction: discord.Interaction) -> str:
    """The language of an ephemeral reply: the clicking member's own (English if unsupported)."""
    return language_of(interaction.locale)


async def guild_lang(interaction: discord.Interaction, configured: str | None = None) -> str:
    """The language of public messages in the interaction's server. `configured`: its language
    setting, when the caller has read the settings already."""
    guild_id = interaction.guild_id
    if guild_id is None:
        return language_of(interaction.locale)
    if configured is None:
        configured = (await app_of(interaction).sessions.records.settings(guild_id))["language"]
    if configured != "follow":
        return configured
    guild = interaction.client.get_guild(guild_id)
    locale = guild.preferred_locale if guild is not None else None
    if locale is None:
        locale = interaction.guild_locale
    return language_of(locale)
