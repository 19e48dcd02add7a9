"""What the admin tests read back after a command: the turn's deadline on the table, the turn
pings, the errors the cogs answered, and a snapshot of everything an admin command could
change."""

from __future__ import annotations

import re

import discord

from .helpers import description

PING = "your turn in Steal the Bundle!"
TURN_LINE = re.compile(r"^\S+ Turn: \*\*(.+?)\*\*(?: · auto-play <t:(\d+):R>)?$")


def turn_deadline(table) -> int | None:
    match = TURN_LINE.match(description(table).splitlines()[0])
    assert match, description(table)
    return int(match.group(2)) if match.group(2) else None


def answered_errors(env) -> list[str]:
    """The errors handlers raised and the cogs answered (SimCord records them; reading them
    here acknowledges them)."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


def pings(channel) -> list[discord.Message]:
    return [m for m in channel.history() if PING in m.content]


async def snapshot(env, guild, *channels) -> tuple:
    """Everything an admin command could change: settings, live lobbies and games, the
    leaderboard, the history and what the channels show."""
    storage = env.bot.storage
    current = await storage.settings.get(guild.id)
    return (
        current.values,
        current.changed,
        dict(env.bot.sessions.channels),
        await storage.stats.all(guild.id),
        [e.game_id for e in await storage.history.by_guild(guild.id)],
        [[(m.id, m.content, len(m.embeds)) for m in c.history()] for c in channels],
    )
