"""The lobby as the lobby tests read it: its buttons, its seats, what everyone sees in the
channel, the errors the bot answered, and links to a message."""

from __future__ import annotations

import re

import discord

from .helpers import fields

LOBBY_BUTTONS = ["Start", "Join", "Leave", "Add bot", "Cancel"]


def players_field(message) -> tuple[str, str]:
    """The lobby's "Players (n/max)" field as (name, value)."""
    return next((n, v) for n, v in fields(message).items() if n.startswith("Players"))


def seated(message) -> list[str]:
    """The names in the lobby's seat list, in seat order."""
    return re.findall(r"\*\*(.+?)\*\*", players_field(message)[1])


def public(channel) -> list[discord.Message]:
    """What everyone sees in the channel (no ephemeral messages)."""
    return channel.history()


def answered_errors(env) -> list[str]:
    """The session errors the bot answered slash commands with. SimCord records every error a
    command raised, even one the cog answered; reading them here acknowledges them."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


def jump(guild, channel, message) -> str:
    return f"https://discord.com/channels/{guild.id}/{channel.id}/{message.id}"
