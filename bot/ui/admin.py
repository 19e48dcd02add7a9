"""What /steal-admin shows: the settings beside their defaults, and the allowed channels.
Ephemeral: in the language of the admin who asked."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.i18n import t
from bot.rows import GuildSettings
from bot.settings import Setting

BLUE = discord.Colour.blurple()
FIELD_LIMIT = 1024  # Discord's limit on an embed field's value


def admin_command(lang: str, sub: str) -> str:
    """A /steal-admin subcommand as its reader types it: "/steal-admin set"."""
    return f"/{t(lang, 'cmd.steal-admin.name')} {t(lang, f'cmd.steal-admin.{sub}.name')}"


def channel_list(lang: str, channels: Sequence[int]) -> str:
    if not channels:
        return t(lang, "admin.channels.everywhere")
    return ", ".join(f"<#{c}>" for c in channels)


def setting_name(lang: str, spec: Setting) -> str:
    """The key an admin types, with the setting's name beside it where the name says more
    than the key (in English "Turn timer" is `turn_timer` already)."""
    label = spec.label(lang)
    if label.lower().replace(" ", "_") == spec.key:
        return f"`{spec.key}`"
    return t(lang, "setting.name", setting=spec.key, label=label)


def setting_line(lang: str, spec: Setting, value, changed: bool) -> str:
    name, shown = setting_name(lang, spec), spec.show(value, lang)
    if changed and value != spec.default:
        default = spec.show(spec.default, lang)
        return t(lang, "setting.line_changed", name=name, value=shown, default=default)
    return t(lang, "setting.line", name=name, value=shown)


def settings_embed(
    specs: Mapping[str, Setting], current: GuildSettings, lang: str = "en"
) -> discord.Embed:
    """Every setting, grouped; changed ones in bold with their default beside them."""
    embed = discord.Embed(
        title=t(lang, "setting.title"),
        description=t(
            lang,
            "setting.description",
            set=admin_command(lang, "set"),
            reset=admin_command(lang, "reset"),
        ),
        colour=BLUE,
    )
    groups: dict[str, list[str]] = {}
    for key, spec in specs.items():
        line = setting_line(lang, spec, current[key], key in current.changed)
        groups.setdefault(spec.group, []).append(line)
    for group, lines in groups.items():
        name = t(lang, f"setting.group.{group}")
        for value in _fields(lines):  # a long group goes on in a second field of the same name
            embed.add_field(name=name, value=value, inline=False)
    embed.add_field(
        name=t(lang, "setting.channels"),
        value=channel_list(lang, current["channels"])[:FIELD_LIMIT],
        inline=False,
    )
    return embed


def _fields(lines: Sequence[str]) -> list[str]:
    values: list[str] = []
    for line in lines:
        if values and len(values[-1]) + 1 + len(line) <= FIELD_LIMIT:
            values[-1] += "\n" + line
        else:
            values.append(line[:FIELD_LIMIT])
    return values
