"""The /steal-admin settings panel as staff use it: each kind of setting changed by a menu or a
toggle (preset, on/off, timer, role, channels), the change logged with who made it and applied
from the next lobby, the panel refreshed; refused once the member lost the right to change."""

from __future__ import annotations

import logging

import pytest
from simcord.components import walk_components
from simcord.results import ResponseMessage

from bot.ui import ids
from tests.e2e.support.admin_panel import (
    channels_shown,
    make_admin,
    panel_sections,
    panel_texts,
    picked,
    set_setting,
)
from tests.e2e.support.boards import bot_message
from tests.e2e.support.helpers import description, footer

REFUSED = (
    "You need the Manage Server permission to do that: setting up Steal the Bundle is for"
    " server admins. Ask someone who has it."
)


def component(message, custom_id: str) -> dict:
    return next(c for c in walk_components(message.components) if c.get("custom_id") == custom_id)


def note(message) -> str:
    """The line the panel shows about the last change (the head's last paragraph)."""
    return panel_texts(message)[0].split("\n\n")[-1]


async def open_panel(member, room) -> ResponseMessage:
    shown = await member.slash(room, "steal-admin settings")
    assert shown.ephemeral
    return shown.response


async def test_the_panel_groups_settings_by_topic_with_changed_ones_first(
    simcord_env, guild, channel
):
    admin = make_admin(simcord_env, guild)
    await set_setting(admin, channel, "pings", "off")

    panel = await open_panel(admin, channel)

    # The rules topic is open, first; of the others, only those with a change, in one line.
    assert panel_sections(panel) == {
        "Rules": "",
        "Timers and pings": "Pings: **off** (default: on)",
    }
    assert picked(panel, ids.topics()) == ["Rules"]  # the topic menu shows the open topic
    # The rules topic's menus and toggles show their current values, by name, never by key.
    assert component(panel, ids.setting("preset"))["type"] == 3
    assert picked(panel, ids.setting("preset")) == ["Preset: Standard"]
    assert picked(panel, ids.setting("short_deal")) == ["Last deal in fours"]
    # One menu for the on/off rules: those picked are on.
    assert picked(panel, ids.switches("rules")) == ["Host picks preset", "Stealing", "Refill pool"]
    assert "`" not in "\n".join(panel_texts(panel)[1:])
    assert not [c for c in walk_components(panel.components) if c.get("custom_id") == "turn_timer"]
    assert len(list(walk_components(panel.components))) <= 40  # Discord's limit


async def test_preset_by_menu_is_logged_and_applies_at_the_next_lobby(
    simcord_env, guild, channel, players, caplog
):
    admin = make_admin(simcord_env, guild)
    panel = await open_panel(admin, channel)

    with caplog.at_level(logging.INFO, logger="cogs.admin"):
        await admin.select(panel, ["classic"], custom_id=ids.setting("preset"))

    assert note(panel) == "✅ Preset is now **Classic** (was Standard)."
    assert panel_sections(panel)["Rules"].splitlines()[0] == (
        "Preset: **Classic** (default: Standard)"
    )
    picked = [o for o in component(panel, ids.setting("preset"))["options"] if o.get("default")]
    assert [o["value"] for o in picked] == ["classic"]
    logged = [r.getMessage() for r in caplog.records if r.name == "cogs.admin"]
    who = f"{admin.name} ({admin.id})"
    assert logged == [f"guild {guild.id}: {who} set preset to classic (was standard) by menu"]
    lobby = await players[0].slash(channel, "steal new")
    assert footer(lobby.response).startswith("Classic · ")


async def test_the_on_off_menu_sets_them_and_back_to_the_preset(simcord_env, guild, channel):
    admin = make_admin(simcord_env, guild)
    panel = await open_panel(admin, channel)

    on = ["host_picks_preset", "refill_pool", "wild_jacks"]  # stealing off, wild jacks on
    await admin.select(panel, on, custom_id=ids.switches("rules"))

    assert note(panel) == (
        "✅ Stealing is now **off** (was as the preset). "
        "Wild jacks is now **on** (was as the preset)."
    )
    assert picked(panel, ids.switches("rules")) == [
        "Host picks preset",
        "Refill pool",
        "Wild jacks",
    ]
    assert "Stealing: **off** (default: as the preset)" in panel_sections(panel)["Rules"]
    stored = await simcord_env.bot.storage.settings.get(guild.id)
    assert (stored["stealing"], stored["wild_jacks"]) == (False, True)
    # Stealing on again is what the preset says: the setting follows the preset once more.
    await admin.select(panel, [*on, "stealing"], custom_id=ids.switches("rules"))
    stored = await simcord_env.bot.storage.settings.get(guild.id)
    assert (stored["stealing"], stored["wild_jacks"]) == (None, True)
    # A toggle button of an older panel still sets its value; a second click, the same again.
    for _ in range(2):
        await admin.click(bot_message(simcord_env, channel, [ids.toggle("pings", False)]),
                          custom_id=ids.toggle("pings", False))  # fmt: skip
    assert (await simcord_env.bot.storage.settings.get(guild.id))["pings"] is False


async def test_a_timer_from_its_menu_times_the_next_game(simcord_env, guild, channel, players):
    admin = make_admin(simcord_env, guild)
    panel = await open_panel(admin, channel)

    await admin.select(panel, ["timers"], custom_id=ids.topics())
    menu = component(panel, ids.setting("turn_timer"))
    assert [o["label"].removeprefix("Turn timer: ") for o in menu["options"]] == [
        "off", "15 s", "30 s", "1 min", "2 min", "5 min", "15 min", "1 h", "24 h",
    ]  # fmt: skip
    assert [o["label"] for o in menu["options"] if o.get("default")] == ["Turn timer: 2 min"]
    await admin.select(panel, ["5 min"], custom_id=ids.setting("turn_timer"))

    assert note(panel) == "✅ Turn timer is now **5 min** (was 2 min)."
    assert panel_sections(panel)["Timers and pings"].splitlines()[0] == (
        "Turn timer: **5 min** (default: 2 min)"
    )
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    turn = description(lobby).splitlines()[0]
    assert turn.endswith(f"auto-play <t:{int(simcord_env.now().timestamp()) + 300}:R>"), turn


async def test_the_manager_role_and_channels_from_their_selects(simcord_env, guild, channel):
    admin = make_admin(simcord_env, guild)
    role = guild.create_role("Game managers")
    games = guild.create_text_channel("games")
    panel = await open_panel(admin, channel)

    await admin.select(panel, ["roles"], custom_id=ids.topics())
    await admin.select(panel, [role], custom_id=ids.setting("manager_role"))
    assert note(panel) == f"✅ Manager role is now **<@&{role.id}>** (was none). It applies now."
    defaults = component(panel, ids.setting("manager_role"))["default_values"]
    assert [(int(d["id"]), d["type"]) for d in defaults] == [(role.id, "role")]
    await admin.select(panel, ["channels"], custom_id=ids.topics())
    await admin.select(panel, [games, channel], custom_id=ids.setting("channels"))

    shown = panel_sections(panel)
    assert channels_shown(shown) == f"<#{games.id}>, <#{channel.id}>"
    assert shown["Roles"] == f"Manager role: **<@&{role.id}>** (default: none)"
    stored = await simcord_env.bot.storage.settings.get(guild.id)
    assert (stored["manager_role"], stored["channels"]) == (role.id, [games.id, channel.id])
    # None picked: games anywhere again, and no manager role.
    await admin.select(panel, [], custom_id=ids.setting("channels"))
    assert channels_shown(panel_sections(panel)) == ""  # anywhere, as by default
    await admin.select(panel, ["roles"], custom_id=ids.topics())
    await admin.select(panel, [], custom_id=ids.setting("manager_role"))
    stored = await simcord_env.bot.storage.settings.get(guild.id)
    assert (stored["manager_role"], stored["channels"]) == (None, [])


@pytest.mark.parametrize(
    ("custom_id", "values"),
    [
        (ids.setting("preset"), ["nonsense"]),
        (ids.setting("turn_timer"), ["7 s"]),  # a duration parse would read, never offered
        (ids.setting("max_games"), ["1", "5"]),
        (ids.switches("rules"), ["pings"]),  # an on/off setting of another topic
    ],
)
async def test_values_the_panel_never_offered_are_refused(
    simcord_env, guild, channel, custom_id, values
):
    admin = make_admin(simcord_env, guild)
    options = [{"label": v, "value": v} for v in ["nonsense", "7 s", "1", "5", "pings"]]
    menu = {"type": 3, "custom_id": custom_id, "options": options, "max_values": 2}
    stored = simcord_env.backend.create_message(
        channel.id, simcord_env.backend.bot_user.id, "crafted",
        components=[{"type": 1, "components": [menu]}],
    )  # fmt: skip
    before = (await simcord_env.bot.storage.settings.get(guild.id)).values

    said = await admin.select(ResponseMessage(simcord_env, stored), values, custom_id=custom_id)

    assert said.response.content.startswith("That isn't a value this setting takes")
    assert (await simcord_env.bot.storage.settings.get(guild.id)).values == before
