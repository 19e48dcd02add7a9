"""/steal-admin as the tests drive it: an admin member, settings set and read back, and
the panel's text."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import discord
import pytest
from simcord import SetupError


def make_admin(env, guild, name: str = "alice"):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(env.create_user(name), roles=[mods])


async def set_setting(member, room, setting: str, value: str) -> str:
    """`/steal-admin set`; returns what the member was told (ephemerally)."""
    result = await member.slash(room, "steal-admin set", setting=setting, value=value)
    assert result.ephemeral
    return result.response.content


async def change(member, room, setting: str, value: str) -> None:
    said = await set_setting(member, room, setting, value)
    assert said.startswith(f"`{setting}` is now **"), said
    assert said.endswith("It applies from the next lobby."), said


def panel_texts(message) -> list[str]:
    """Every text of a Components V2 message, in order."""
    from simcord.components import walk_components

    return [c["content"] for c in walk_components(message.components) if c.get("type") == 10]


def panel_sections(message) -> dict[str, str]:
    """The settings panel's topics: title (without its emoji) -> its lines, which are the
    settings that differ from their defaults (and the chosen channels). The open topic comes
    first, as a heading over its menus; the others with changes, one line each after it."""
    out = {}
    for text in panel_texts(message):
        if text.startswith("### "):
            title, _, body = text.partition("\n")
            body = "\n".join(line.removeprefix("-# ") for line in body.splitlines())
            out[title.removeprefix("### ").split(" ", 1)[1]] = body
        elif text.startswith("**"):
            for line in text.splitlines():
                title, _, rest = line.partition("** · ")
                out[title.removeprefix("**").split(" ", 1)[1]] = "\n".join(rest.split(" · "))
    return out


def picked(message, custom_id: str) -> list[str]:
    """The labels of a panel menu's picked options: what it shows as its current value."""
    from simcord.components import walk_components

    menu = next(c for c in walk_components(message.components) if c.get("custom_id") == custom_id)
    return [o["label"] for o in menu["options"] if o.get("default")]


async def settings_shown(member, room) -> dict[str, str]:
    """The `/steal-admin settings` panel: topic -> its lines."""
    result = await member.slash(room, "steal-admin settings")
    assert result.ephemeral
    assert panel_texts(result.response)[0].startswith("## Steal the Bundle: settings\n")
    return panel_sections(result.response)


def channels_shown(shown: dict[str, str]) -> str:
    """The channels the panel says games are allowed in; "" when none are chosen (then the
    panel says nothing: games may start anywhere, the default)."""
    lines = shown.get("Channels and limits", "").splitlines()
    line = next((line for line in lines if line.startswith(CHANNELS_LINE)), CHANNELS_LINE)
    return line.removeprefix(CHANNELS_LINE)


def setting_line(shown: dict[str, str], key: str) -> str:
    """A setting's line in the panel, found by its English name ("Turn timer" for turn_timer)."""
    name = key.replace("_", " ") + ":"
    return next(
        line
        for value in shown.values()
        for line in value.splitlines()
        if line.lower().startswith(name)
    )


CHANNELS_LINE = "Channels for new games: "


@dataclass
class Staff:
    admin: Any  # a role with Manage Server
    manager: Any  # the server's game manager role, opened the command in Integrations
    role: Any  # that role
    command_id: int  # /steal-admin


def admin_command_id(env) -> int:
    return int(env.backend.find_command("steal-admin", None)["id"])


async def make_staff(env, guild, room) -> Staff:
    """An admin, and a member of the role the admin made the game manager role (which the
    server owner then allowed to see /steal-admin under Integrations)."""
    admin = make_admin(env, guild)
    role = guild.create_role("Game managers")
    manager = guild.add_member(env.create_user("mo"), roles=[role])
    with pytest.raises(SetupError, match="default-member-permissions"):
        await manager.slash(room, "steal-admin settings")  # hidden until the owner allows it
    said = await admin.slash(room, "steal-admin set", setting="manager_role", value="Game managers")
    assert said.response.content == (
        f"`manager_role` is now **<@&{role.id}>** (was none). It applies now."
    )
    command_id = admin_command_id(env)
    guild.set_command_permissions(command_id, {role: True})
    return Staff(admin, manager, role, command_id)
