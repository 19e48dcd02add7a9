"""What a member who may not do something is told. Who counts as a game manager and who may
see a game's channel are the Edge's (bot/adapter/edge.py): they read the server's settings."""

from __future__ import annotations

import discord

from bot.i18n import t

from .language import user_lang


def refused(interaction: discord.Interaction) -> str:
    """Why a member may not do that, in their own language (it is always an ephemeral reply)."""
    return t(user_lang(interaction), "admin.refused")
