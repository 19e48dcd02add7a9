"""/steal-admin set's values: bad ones refused naming the allowed ones, every change logged
with who made it, and the value suggestions for each setting."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.support.admin_effects import (
    snapshot,
)
from tests.e2e.support.admin_panel import (
    change,
    make_admin,
    set_setting,
)


@pytest.mark.parametrize(
    ("setting", "value", "error"),
    [
        ("turn_timer", "5 s", "`turn_timer` can't be '5 s'; it can be off, or 15 s to 24 h."),
        ("turn_timer", "25h", "`turn_timer` can't be '25h'; it can be off, or 15 s to 24 h."),
        ("lobby_timeout", "30 s", "`lobby_timeout` can't be '30 s'; it can be 1 min to 24 h."),
        ("max_games", "0", "`max_games` can't be '0'; it can be a whole number from 1 to 100."),
        ("max_games", "lots",
         "`max_games` can't be 'lots'; it can be a whole number from 1 to 100."),
        ("deck", "tarot",
         "`deck` can't be 'tarot'; it can be preset, french52, spanish40, spanish48, italian40."),
        ("stealing", "sometimes",
         "`stealing` can't be 'sometimes'; it can be on or off, or preset."),
        ("preset", "chaos",
         "`preset` can't be 'chaos'; it can be standard, classic, casita, rubamazzo, friendly, "
         "traditional."),
        ("manager_role", "Wizards",
         "`manager_role` can't be 'Wizards'; it can be a role of this server, or none."),
        ("manager_role", "<@&123456789>",
         "There's no such role on this server; it can be a role of this server, or none."),
    ],
)  # fmt: skip
async def test_bad_values_are_refused_naming_the_allowed_ones(
    simcord_env, guild, channel, setting, value, error, caplog
):
    admin = make_admin(simcord_env, guild)
    before = await snapshot(simcord_env, guild)

    with caplog.at_level(logging.INFO, logger="cogs.admin"):
        result = await admin.slash(channel, "steal-admin set", setting=setting, value=value)

    assert result.ephemeral
    assert result.response.content == error
    assert await snapshot(simcord_env, guild) == before
    assert [r for r in caplog.records if r.name == "cogs.admin"] == []  # nothing changed


async def test_every_change_is_logged_with_who_made_it(simcord_env, guild, channel, caplog):
    admin = make_admin(simcord_env, guild)
    other = guild.create_text_channel("other")
    who = f"{admin.name} ({admin.id})"

    with caplog.at_level(logging.INFO, logger="cogs.admin"):
        await change(admin, channel, "turn_timer", "1h30m")
        await admin.slash(channel, "steal-admin reset", setting="turn_timer")
        await admin.slash(channel, "steal-admin channels add", channel=other)
        await admin.slash(channel, "steal-admin channels remove", channel=other)
        asked = await admin.slash(channel, "steal-admin reset")
        await admin.click(asked.response, label="Yes, reset every setting")
        await admin.slash(channel, "steal-admin settings")  # reading changes nothing

    logged = [r.getMessage() for r in caplog.records if r.name == "cogs.admin"]
    assert logged == [
        f"guild {guild.id}: {who} set turn_timer to 1 h 30 min (was 2 min)",
        f"guild {guild.id}: {who} reset turn_timer to 2 min (was 1 h 30 min)",
        f"guild {guild.id}: {who} allowed games in channel {other.id}",
        f"guild {guild.id}: {who} removed channel {other.id} from the allowed channels",
        f"guild {guild.id}: {who} reset every setting",
    ]


def choice_names(choices) -> list[str]:
    return [c["name"] for c in choices]


async def test_value_suggestions_follow_the_setting(simcord_env, guild, channel):
    admin = make_admin(simcord_env, guild)
    role = guild.create_role("Game managers")

    async def suggest(setting: str, typed: str):
        return await admin.autocomplete(channel, "steal-admin set", "value", typed, setting=setting)

    timer = await suggest("turn_timer", "")
    assert choice_names(timer) == [
        "off", "15 s", "30 s", "1 min", "2 min", "5 min", "15 min", "1 h", "24 h",
    ]  # fmt: skip
    assert all(c["name"] == c["value"] for c in timer)
    assert choice_names(await suggest("turn_timer", "min")) == ["1 min", "2 min", "5 min", "15 min"]
    assert choice_names(await suggest("lobby_timeout", "")) == [
        "1 min", "2 min", "5 min", "15 min", "1 h", "24 h",
    ]  # fmt: skip
    assert choice_names(await suggest("deck", "")) == [
        "preset", "french52", "spanish40", "spanish48", "italian40",
    ]  # fmt: skip
    assert choice_names(await suggest("deck", "SPAN")) == ["spanish40", "spanish48"]
    assert choice_names(await suggest("stealing", "")) == ["on", "off", "preset"]
    assert choice_names(await suggest("pings", "")) == ["on", "off"]
    assert choice_names(await suggest("max_games", "")) == ["1", "5", "10", "20", "50", "100"]
    assert choice_names(await suggest("language", "")) == ["follow", "en", "es", "fr", "it"]
    assert choice_names(await suggest("preset", "c")) == ["classic", "casita"]
    roles = await suggest("manager_role", "")
    assert {"name": "Game managers", "value": str(role.id)} in roles
    mods = next(r for r in guild.roles.values() if r.name == "Mods")
    assert {"name": "Mods", "value": str(mods.id)} in roles
    assert roles[-1] == {"name": "none", "value": "none"}
    assert "@everyone" not in choice_names(roles)
    assert choice_names(await suggest("manager_role", "game")) == ["Game managers"]

    # a suggested role's value (its id) is what the member sends
    said = await set_setting(admin, channel, "manager_role", str(role.id))
    assert said == f"`manager_role` is now **<@&{role.id}>** (was none). It applies now."
