"""What /steal-admin shows: the settings beside their defaults, and the allowed channels."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.settings import Setting
from bot.storage import GuildSettings

BLUE = discord.Colour.blurple()


def channel_list(channels: Sequence[int]) -> str:
    if not channels:
        return "Everywhere (no channels chosen)"
    return ", ".join(f"<#{c}>" for c in channels)


def settings_embed(specs: Mapping[str, Setting], current: GuildSettings) -> discord.Embed:
    """Every setting, grouped; changed ones in bold with their default beside them."""
    embed = discord.Embed(
        title="Steal the Bundle: settings",
        description=(
            "Change one with `/steal-admin set`, put it back with `/steal-admin reset`. "
            "Changes apply from the next lobby."
        ),
        colour=BLUE,
    )
    groups: dict[str, list[str]] = {}
    for key, spec in specs.items():
        value = spec.show(current[key])
        if key in current.changed and current[key] != spec.default:
            line = f"`{key}`: **{value}** (default: {spec.show(spec.default)})"
        else:
            line = f"`{key}`: {value} (default)"
        groups.setdefault(spec.group, []).append(line)
    for group, lines in groups.items():
        embed.add_field(name=group, value="\n".join(lines), inline=False)
    embed.add_field(name="Channels", value=channel_list(current["channels"]), inline=False)
    return embed
