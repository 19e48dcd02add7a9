"""What players see of a running game, read by the tests of its commands: the turn ping, the
table's turn line and buttons, and the errors the bot answered commands with."""

from __future__ import annotations

import re

import discord

PING = "your turn in Steal the Bundle!"
TURN_LINE = re.compile(r"^\S+ Turn: \*\*(.+?)\*\* · auto-play <t:(\d+):R>$")
TABLE_BUTTONS = ["My hand", "Rules"]


def pings(channel) -> list[discord.Message]:
    return [m for m in channel.history() if PING in m.content]


def answered_errors(env) -> list[str]:
    """The session errors the bot answered slash commands with. SimCord records every error a
    command raised, even one the cog answered; reading them here acknowledges them."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]
