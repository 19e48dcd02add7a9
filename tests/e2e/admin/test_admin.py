"""/steal-admin as server staff and members see it: who may use it, every setting taking effect in
the next game, validation and its log, suggestions, allowed channels, ending a stuck game,
resetting the leaderboard (and the settings) with an expiring confirmation, and the export.

SimCord notes used below:
- `/steal-admin` requires Manage Server by default; SimCord hides it from anyone else (SetupError,
  reason default-member-permissions), as Discord's command picker does. What a server owner
  does in Server Settings → Integrations is `guild.set_command_permissions(command_id, ...)`.
- An ephemeral answer the bot edits later (the 30 s confirmation) is read live through the
  interaction result's `response`.
"""

from __future__ import annotations

import csv
import io
import json
import logging
import re
from dataclasses import dataclass
from typing import Any

import discord
import pytest
from simcord import SetupError

from bot.ui import ids
from tests.e2e.support.admin_panel import (
    change,
    channels_shown,
    make_admin,
    make_staff,
    panel_sections,
    panel_texts,
    picked,
    set_setting,
    setting_line,
    settings_shown,
)
from tests.e2e.support.helpers import (
    buttons,
    description,
    fields,
    footer,
    is_over,
    labels,
    plain,
    play_one,
    play_to_end,
    start_game,
    title,
    whose_turn,
)
from tests.e2e.support.play import crafted_click_target
from tests.e2e.support.screens import figures
from tests.e2e.support.screens import text as screen_text

REFUSED = (
    "You need the Manage Server permission to do that: setting up Steal the Bundle is for"
    " server admins. Ask someone who has it."
)
PING = "your turn in Steal the Bundle!"
TURN_LINE = re.compile(r"^\S+ Turn: \*\*(.+?)\*\*(?: · auto-play <t:(\d+):R>)?$")
EXPIRED = (
    "That question expired after 30 seconds; nothing changed. Run the command again to be"
    " asked again."
)
QUESTION_BUTTONS = {
    "reset-leaderboard": ["Yes, reset the leaderboard", "Cancel"],
    "reset": ["Yes, reset every setting", "Cancel"],
}


# ----- people and helpers


def last_moves(table) -> list[str]:
    return fields(table).get("Last moves", "").splitlines()


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


async def board_players(member, room) -> str:
    """What `/steal leaderboard` shows."""
    return screen_text((await member.slash(room, "steal leaderboard")).response)


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


# ----- who may use /steal-admin


@dataclass
class Case:
    """One subcommand: its options for the admin, the manager and the plain member, what it
    needs first, and what staff are shown."""

    command: str
    options: dict[str, Any]  # who -> options (values "c1".."c3" name channels)
    seed: dict[str, Any]  # settings stored first
    shows: dict[str, str]  # who -> the reply's text (an embed's title, or the file's name)
    lobby: bool = False  # ann opens a lobby in c1 first


CASES = [
    Case("settings", {}, {}, {"admin": "panel:## Steal the Bundle: settings",
                              "manager": "panel:## Steal the Bundle: settings"}),
    Case(
        "set",
        {"admin": {"setting": "pings", "value": "off"},
         "manager": {"setting": "max_games", "value": "5"},
         "plain": {"setting": "turn_timer", "value": "30 s"}},
        {},
        {"admin": "`pings` is now **off** (was on). It applies from the next lobby.",
         "manager": "`max_games` is now **5** (was 10). It applies from the next lobby."},
    ),
    Case(
        "reset",
        {"admin": {"setting": "pings"}, "manager": {"setting": "max_games"},
         "plain": {"setting": "turn_timer"}},
        {"pings": False, "max_games": 5, "turn_timer": 30},
        {"admin": "`pings` is back to its default, **on**.",
         "manager": "`max_games` is back to its default, **10**."},
    ),
    Case(
        "channels add",
        {"admin": {"channel": "c1"}, "manager": {"channel": "c2"}, "plain": {"channel": "c3"}},
        {},
        {"admin": "Games may now be started in: <#c1>.",
         "manager": "Games may now be started in: <#c1>, <#c2>."},
    ),
    Case(
        "channels remove",
        {"admin": {"channel": "c1"}, "manager": {"channel": "c2"}, "plain": {"channel": "c3"}},
        {"channels": ["c1", "c2", "c3"]},
        {"admin": "Games may now be started in: <#c2>, <#c3>.",
         "manager": "Games may now be started in: <#c3>."},
    ),
    Case(
        "channels list",
        {},
        {"channels": ["c1"]},
        {"admin": "Games may be started in: <#c1>.", "manager": "Games may be started in: <#c1>."},
    ),
    Case(
        "end-game",
        {"admin": {"channel": "c1"}, "manager": {"channel": "c1"}, "plain": {"channel": "c1"}},
        {},
        {"admin": "End the lobby in <#c1>? Its players are told, and nothing is recorded.\n"
                  "This question expires in 30 seconds.",
         "manager": "End the lobby in <#c1>? Its players are told, and nothing is recorded.\n"
                    "This question expires in 30 seconds."},
        lobby=True,
    ),
    Case(
        "reset-leaderboard",
        {},
        {},
        {"admin": "Reset this server's leaderboard?",
         "manager": "Reset this server's leaderboard?"},
    ),
    Case(
        "season-new",
        {},
        {},
        {"admin": "End season 1 and start season 2?",
         "manager": "End season 1 and start season 2?"},
    ),
    Case("export", {}, {}, {"admin": "file:leaderboard.csv", "manager": "file:leaderboard.csv"}),
]  # fmt: skip


@pytest.mark.parametrize("case", CASES, ids=[c.command for c in CASES])
async def test_who_may_use_each_subcommand(simcord_env, guild, players, case):
    env = simcord_env
    room = guild.create_text_channel("mods")
    rooms = {f"c{i}": guild.create_text_channel(f"games-{i}") for i in (1, 2, 3)}
    staff = await make_staff(env, guild, room)
    plain = players[3]

    def resolve(value):
        if isinstance(value, str) and value in rooms:
            return rooms[value]
        return value

    def text(expected: str) -> str:
        for key, ch in rooms.items():
            expected = expected.replace(f"<#{key}>", ch.mention)
        return expected

    for key, value in case.seed.items():
        if key == "channels":
            value = [rooms[c].id for c in value]
        await env.bot.storage.settings.set(guild.id, key, value)
    if case.lobby:
        await players[0].slash(rooms["c1"], "steal new")
    name = f"steal-admin {case.command}"

    for who, member in (("admin", staff.admin),):
        options = {k: resolve(v) for k, v in case.options.get(who, {}).items()}
        result = await member.slash(room, name, **options)
        assert result.ephemeral, who
        reply = result.response
        expected = text(case.shows[who])
        if expected.startswith("panel:"):
            assert panel_texts(reply)[0].startswith(expected.removeprefix("panel:")), who
        elif expected.startswith("file:"):
            assert [a.filename for a in reply.attachments] == [expected.removeprefix("file:")]
        else:
            assert reply.content.startswith(expected), (who, reply.content)
            if case.command in ("end-game", "reset-leaderboard", "season-new"):
                assert labels(reply)[1] == "Cancel" and labels(reply)[0].startswith("Yes, ")

    # the game manager role, though the owner opened the command to it under Integrations:
    # admin actions need Manage Server (docs/admin.md), so the bot refuses it
    before = await snapshot(env, guild, room, *rooms.values())
    options = {k: resolve(v) for k, v in case.options.get("manager", {}).items()}
    result = await staff.manager.slash(room, name, **options)
    assert result.ephemeral and result.response.content == REFUSED
    assert await snapshot(env, guild, room, *rooms.values()) == before
    assert answered_errors(env) == ["CheckFailure"]

    # a plain member: Discord does not even offer the command
    options = {k: resolve(v) for k, v in case.options.get("plain", {}).items()}
    with pytest.raises(SetupError, match="default-member-permissions"):
        await plain.slash(room, name, **options)

    # the owner opens it to @everyone under Integrations: the bot still refuses
    guild.set_command_permissions(staff.command_id, {staff.role: True, guild.default_role: True})
    result = await plain.slash(room, name, **options)

    assert result.ephemeral
    reply = result.response
    assert reply.content == REFUSED
    assert reply.embeds == [] and reply.components == [] and reply.attachments == []
    assert result.followups == []
    assert await snapshot(env, guild, room, *rooms.values()) == before
    assert answered_errors(env) == ["CheckFailure", "CheckFailure"]  # the manager's, this one


# ----- each setting applies to the next game


async def test_preset_is_the_next_lobbys_rules(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)

    said = await set_setting(admin, channel, "preset", "casita")
    assert said == "`preset` is now **Casita** (was Standard). It applies from the next lobby."
    # Before any game, /steal rules shows what a new game here would play.
    rules = await bob.slash(channel, "steal rules")
    assert screen_text(rules.response).startswith("## 📖 Casita rules\n")

    lobby = (await ann.slash(channel, "steal new")).response
    assert footer(lobby).startswith("Casita · Spanish")
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    assert footer(lobby).startswith("Casita · Spanish")
    rules = await bob.slash(channel, "steal rules")
    assert screen_text(rules.response).startswith("## 📖 Casita rules\n")


async def test_rule_options_override_the_preset(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)

    await change(admin, channel, "stealing", "off")
    await change(admin, channel, "deck", "spanish48")
    shown = await settings_shown(admin, channel)
    assert setting_line(shown, "stealing") == "Stealing: **off** (default: as the preset)"
    assert setting_line(shown, "deck") == (
        "Deck: **Spanish 48-card deck** (default: as the preset)"
    )

    table = await start_game(channel, [ann, bob])
    assert footer(table).startswith("Custom · Spanish · no stealing")
    rules = (await bob.slash(channel, "steal rules")).response
    assert screen_text(rules).startswith("## 📖 This game's rules: Friendly, Spanish\n")
    await bob.click(rules, label="Full rules")
    assert "Spanish 48-card deck" in screen_text(rules) and "No stealing." in screen_text(rules)

    # "preset" hands the option back to the preset, for the next lobby only
    said = await set_setting(admin, channel, "deck", "preset")
    assert said == (
        "`deck` is now **as the preset** (was Spanish 48-card deck). "
        "It applies from the next lobby."
    )
    assert footer(table).startswith("Custom · Spanish · no stealing")
    other = guild.create_text_channel("other")
    lobby = (await ann.slash(other, "steal new")).response
    assert footer(lobby).startswith("Friendly · French")  # standard without stealing


async def test_host_may_not_pick_another_preset_when_turned_off(
    simcord_env, guild, channel, players
):
    ann = players[0]
    admin = make_admin(simcord_env, guild)
    said = await set_setting(admin, channel, "host_picks_preset", "off")
    assert said == ("`host_picks_preset` is now **off** (was on). It applies from the next lobby.")

    refused = await ann.slash(channel, "steal new", rules="classic")

    assert refused.ephemeral
    assert plain(refused.response.content) == (
        "On this server every game uses the **standard** rules; a server admin can change "
        "that with /steal-admin settings."
    )
    assert channel.history() == []  # no lobby
    allowed = await ann.slash(channel, "steal new", rules="standard")  # the server's own preset
    assert not allowed.ephemeral
    assert footer(allowed.response).startswith("Standard · ")


async def test_host_picks_a_preset_over_the_servers_by_default(
    simcord_env, guild, channel, players
):
    admin = make_admin(simcord_env, guild)
    await change(admin, channel, "preset", "casita")

    lobby = (await players[0].slash(channel, "steal new", rules="classic")).response

    assert footer(lobby).startswith("Classic · ")


async def test_turn_timer_plays_for_the_player_after_the_set_time(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    said = await set_setting(admin, channel, "turn_timer", "30s")
    assert said == "`turn_timer` is now **30 s** (was 2 min). It applies from the next lobby."

    table = await start_game(channel, [ann, bob])
    start = simcord_env.now().timestamp()
    first = whose_turn(table, players)
    assert turn_deadline(table) == int(start + 30)

    await simcord_env.advance_time(29)
    assert whose_turn(table, players) is first
    assert last_moves(table) == []

    await simcord_env.advance_time(1)
    (moved,) = last_moves(table)
    assert moved.startswith(f"{first.name} ") and moved.endswith("(auto)")
    assert whose_turn(table, players) is not first


async def test_turn_timer_off_means_no_auto_move(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    said = await set_setting(admin, channel, "turn_timer", "off")
    assert said == "`turn_timer` is now **off** (was 2 min). It applies from the next lobby."

    table = await start_game(channel, [ann, bob])
    first = whose_turn(table, players)
    assert turn_deadline(table) is None  # no countdown on the table
    hand = (await first.click(table, label="My hand")).response
    assert "Auto-play" not in hand.content

    await simcord_env.advance_time(3 * 3600)

    assert whose_turn(table, players) is first
    assert last_moves(table) == []


async def test_an_open_lobby_keeps_the_settings_it_opened_with(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    lobby = (await ann.slash(channel, "steal new")).response
    await change(admin, channel, "turn_timer", "30 s")
    await change(admin, channel, "pings", "off")

    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    start = simcord_env.now().timestamp()
    first = whose_turn(lobby, players)

    assert turn_deadline(lobby) == int(start + 120)  # the old 2 minutes
    assert len(pings(channel)) == 1  # pings were on when the lobby opened
    await simcord_env.advance_time(30)
    assert last_moves(lobby) == []
    await simcord_env.advance_time(90)
    (moved,) = last_moves(lobby)
    assert moved.startswith(f"{first.name} ") and moved.endswith("(auto)")


async def test_lobby_timeout_closes_the_lobby_after_the_set_time(
    simcord_env, guild, channel, players
):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    said = await set_setting(admin, channel, "lobby_timeout", "2 min")
    assert said == "`lobby_timeout` is now **2 min** (was 10 min). It applies from the next lobby."

    lobby = (await ann.slash(channel, "steal new")).response
    opened = simcord_env.now().timestamp()
    assert f"Expires <t:{int(opened + 120)}:R>" in footer(lobby)
    await bob.click(lobby, label="Join")

    await simcord_env.advance_time(119)
    assert "Start" in labels(lobby)  # not yet

    await simcord_env.advance_time(1)
    assert title(lobby) == "Steal the Bundle: lobby closed"
    assert "within 2 min." in description(lobby)  # the server's own timeout
    assert buttons(lobby) == []
    again = await bob.slash(channel, "steal new")
    assert not again.ephemeral and title(again.response) == "Steal the Bundle: new game"


async def test_max_games_refuses_the_next_lobby_in_another_channel(
    simcord_env, guild, channel, players
):
    ann, bob, cat, _ = players
    admin = make_admin(simcord_env, guild)
    said = await set_setting(admin, channel, "max_games", "1")
    assert said == "`max_games` is now **1** (was 10). It applies from the next lobby."
    other = guild.create_text_channel("other")
    await start_game(channel, [ann, bob])

    refused = await cat.slash(other, "steal new")

    assert refused.ephemeral
    assert refused.response.content == (
        "This server already has 1 lobby or game going, the most its admins allow; join it, "
        "or wait for it to end."
    )
    assert other.history() == []
    assert answered_errors(simcord_env) == ["TooManyGames"]
    asked = await ann.slash(channel, "steal cancel")
    await ann.click(asked.response, label="Yes, cancel the game")
    assert not (await cat.slash(other, "steal new")).ephemeral  # room again


async def test_pings_off_posts_no_turn_ping(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    said = await set_setting(admin, channel, "pings", "off")
    assert said == "`pings` is now **off** (was on). It applies from the next lobby."

    table = await start_game(channel, [ann, bob])
    hands: dict[int, Any] = {}
    for _ in range(3):
        await play_one(table, [ann, bob], hands)

    assert len(last_moves(table)) == 3
    assert pings(channel) == []
    assert [m.id for m in channel.history()] == [table.id]  # nothing but the table
    path = f"/channels/{channel.id}/messages"
    assert not [r for r in simcord_env.http_requests if r.method == "POST" and r.path == path]


async def test_manager_role_may_cancel_another_hosts_game(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    role = guild.create_role("Game managers")
    mo = guild.add_member(simcord_env.create_user("mo"), roles=[role])
    table = await start_game(channel, [ann, bob])

    before = await mo.slash(channel, "steal cancel")
    assert before.response.content.startswith("Only the host or a server admin can cancel.")
    assert answered_errors(simcord_env) == ["NotHost"]

    said = await set_setting(admin, channel, "manager_role", "game MANAGERS")  # any case
    assert said == f"`manager_role` is now **<@&{role.id}>** (was none). It applies now."
    asked = await mo.slash(channel, "steal cancel")
    assert asked.ephemeral and asked.response.content.startswith("Cancel this game?")
    await mo.click(asked.response, label="Yes, cancel the game")

    assert asked.response.content == "Cancelled."
    assert title(table) == "Steal the Bundle: game cancelled"
    assert description(table) == "Cancelled by **mo**. No stats were recorded."
    shown = await settings_shown(admin, channel)
    assert setting_line(shown, "manager_role") == f"Manager role: **<@&{role.id}>** (default: none)"

    # a mention works too, and "none" takes the role back
    other = guild.create_role("Helpers")
    said = await set_setting(admin, channel, "manager_role", other.mention)
    assert said == f"`manager_role` is now **<@&{other.id}>** (was <@&{role.id}>). It applies now."
    said = await set_setting(admin, channel, "manager_role", "none")
    assert said == f"`manager_role` is now **none** (was <@&{other.id}>). It applies now."


async def test_language_and_ai_settings_are_stored_validated_and_shown(simcord_env, guild, channel):
    admin = make_admin(simcord_env, guild)
    panel = (await admin.slash(channel, "steal-admin settings")).response
    await admin.select(panel, ["language"], custom_id=ids.topics())
    assert picked(panel, ids.setting("language")) == ["Each member's own"]

    await change(admin, channel, "ai_allowed", "no")
    await change(admin, channel, "ai_counts", "on")
    bad = await set_setting(admin, channel, "language", "de")
    assert bad == "`language` can't be 'de'; it can be follow, en, es, fr, it."
    bad = await set_setting(admin, channel, "ai_counts", "maybe")
    assert bad == "`ai_counts` can't be 'maybe'; it can be on or off."
    shown = await settings_shown(admin, channel)
    assert shown["AI and hints"] == (
        "AI allowed: **off** (default: on)\nAI counts: **on** (default: off)"
    )

    # From here on the server's language is French: its admins read French too.
    said = await set_setting(admin, channel, "language", "FR")
    assert said.startswith("`language` is now **Français** (was each member's own)"), said
    shown = panel_sections((await admin.slash(channel, "steal-admin settings")).response)
    assert shown["Langue"] == "Langue : **Français** (par défaut : celle de chaque membre)"
    values = (await simcord_env.bot.storage.settings.get(guild.id)).values
    assert (values["language"], values["ai_allowed"], values["ai_counts"]) == ("fr", False, True)


# ----- validation, the log, suggestions


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


# ----- allowed channels


async def test_allowed_channels(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    first = guild.create_text_channel("games-1")
    second = guild.create_text_channel("games-2")

    listed = await admin.slash(channel, "steal-admin channels list")
    assert listed.response.content == "Games may be started in: Everywhere (no channels chosen)."
    added = await admin.slash(channel, "steal-admin channels add", channel=first)
    assert added.ephemeral
    assert added.response.content == f"Games may now be started in: {first.mention}."
    added = await admin.slash(channel, "steal-admin channels add", channel=second)
    assert added.response.content == (
        f"Games may now be started in: {first.mention}, {second.mention}."
    )
    again = await admin.slash(channel, "steal-admin channels add", channel=second)
    assert again.response.content == f"{second.mention} is already on the list."

    elsewhere = await ann.slash(channel, "steal new")
    assert elsewhere.ephemeral
    assert elsewhere.response.content == (
        f"Games can't be started here. Try {first.mention}, {second.mention}."
    )
    assert channel.history() == []
    here = await ann.slash(first, "steal new")
    assert not here.ephemeral and title(here.response) == "Steal the Bundle: new game"
    listed = await admin.slash(channel, "steal-admin channels list")
    assert listed.ephemeral
    assert listed.response.content == f"Games may be started in: {first.mention}, {second.mention}."
    shown = await settings_shown(admin, channel)
    assert channels_shown(shown) == f"{first.mention}, {second.mention}"

    removed = await admin.slash(channel, "steal-admin channels remove", channel=first)
    assert removed.response.content == (
        f"Games may now be started in: {second.mention}. Games already going there carry on."
    )
    assert "Join" in labels(here.response)  # the lobby there is still open
    refused = await bob.slash(guild.create_text_channel("games-3"), "steal new")
    assert refused.response.content == f"Games can't be started here. Try {second.mention}."
    not_listed = await admin.slash(channel, "steal-admin channels remove", channel=first)
    assert not_listed.response.content == (
        f"{first.mention} is not on the list. Nothing to remove; the list subcommand shows the"
        " channels on it."
    )

    removed = await admin.slash(channel, "steal-admin channels remove", channel=second)
    assert (
        removed.response.content == "Games may now be started in: Everywhere (no channels chosen)."
    )
    anywhere = await bob.slash(channel, "steal new")  # an empty list means everywhere
    assert not anywhere.ephemeral and title(anywhere.response) == "Steal the Bundle: new game"


# ----- end-game


async def test_end_game_force_ends_a_lobby_and_a_game_without_stats(
    simcord_env, guild, channel, players
):
    env = simcord_env
    ann, bob, cat, dan = players
    staff = await make_staff(env, guild, channel)
    lobby_room = guild.create_text_channel("lobby-room")
    game_room = guild.create_text_channel("game-room")
    lobby = (await ann.slash(lobby_room, "steal new")).response
    await bob.click(lobby, label="Join")
    table = await start_game(game_room, [cat, dan])
    await play_one(table, [cat, dan], {})

    # the admin ends the lobby from another channel, after a Cancel first
    asked = await staff.admin.slash(channel, "steal-admin end-game", channel=lobby_room)
    assert asked.ephemeral
    assert asked.response.content == (
        f"End the lobby in {lobby_room.mention}? Its players are told, and nothing is recorded."
        "\nThis question expires in 30 seconds."
    )
    assert labels(asked.response) == ["Yes, end the lobby", "Cancel"]
    await staff.admin.click(asked.response, label="Cancel")
    assert asked.response.content == "Nothing changed." and asked.response.components == []
    assert "Join" in labels(lobby)

    asked = await staff.admin.slash(channel, "steal-admin end-game", channel=lobby_room)
    await staff.admin.click(asked.response, label="Yes, end the lobby")

    assert asked.response.content == "Ended. Its players were told, and nothing was recorded."
    assert asked.response.components == []
    assert title(lobby) == "Steal the Bundle: lobby ended"
    assert description(lobby) == (
        f"Ended by a server admin, **{staff.admin.name}**. No stats were recorded."
    )
    assert buttons(lobby) == []
    told = lobby_room.history()[-1]
    assert told.content == f"{ann.mention}, {bob.mention}: a server admin ended this lobby. " \
        "Nothing was recorded."  # fmt: skip
    assert {u.id for u in told.mentions} == {ann.id, bob.id}

    # the admin ends the running game from its own channel (no channel option)
    asked = await staff.admin.slash(game_room, "steal-admin end-game")
    assert asked.response.content.startswith(f"End the game in {game_room.mention}?")
    await staff.admin.click(asked.response, label="Yes, end the game")

    assert asked.response.content == "Ended. Its players were told, and nothing was recorded."
    assert title(table) == "Steal the Bundle: game ended"
    assert description(table) == (
        f"Ended by a server admin, **{staff.admin.name}**. No stats were recorded."
    )
    assert buttons(table) == []
    assert pings(game_room) == []
    told = game_room.history()[-1]
    assert told.content == (
        f"{cat.mention}, {dan.mention}: a server admin ended this game. Nothing was recorded."
    )
    assert {u.id for u in told.mentions} == {cat.id, dan.id}
    hand = await cat.slash(game_room, "steal hand")
    assert hand.response.content.startswith("There is no game running here.")
    stats = await cat.slash(game_room, "steal stats")
    assert stats.response.content.startswith("You haven't finished a game here yet.")
    assert await env.bot.storage.history.by_guild(guild.id) == []
    assert await env.bot.storage.stats.all(guild.id) == []
    assert answered_errors(env) == ["NoGame"]

    # nothing left to end
    for room in (lobby_room, game_room):
        nothing = await staff.admin.slash(channel, "steal-admin end-game", channel=room)
        assert nothing.ephemeral
        assert nothing.response.content == (
            f"There's no lobby or game in {room.mention}. Nothing to end: run it in, or name,"
            " the channel where the game is."
        )
        assert nothing.response.components == []


async def test_end_game_question_about_a_game_that_has_since_ended(
    simcord_env, guild, channel, players
):
    ann, _, cat, _ = players
    admin = make_admin(simcord_env, guild)
    lobby = (await ann.slash(channel, "steal new")).response
    asked = await admin.slash(channel, "steal-admin end-game")
    await ann.click(lobby, label="Leave")  # the lobby closes; a new one opens in its place
    newer = (await cat.slash(channel, "steal new")).response

    await admin.click(asked.response, label="Yes, end the lobby")

    assert asked.response.content == "That lobby or game has already ended. Nothing more to do."
    assert title(newer) == "Steal the Bundle: new game"  # the new lobby is untouched
    assert "Join" in labels(newer)


async def test_ending_a_lobby_never_ends_the_game_it_became(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    admin = make_admin(simcord_env, guild)
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    asked = await admin.slash(channel, "steal-admin end-game")
    await ann.click(lobby, label="Start")  # the lobby became a game before the admin answered

    await admin.click(asked.response, label="Yes, end the lobby")

    assert asked.response.content == (
        "That lobby has started since; nothing changed. Ask again to end the game."
    )
    assert "My hand" in labels(lobby)  # the game goes on


# ----- reset-leaderboard and reset (every setting): confirm, cancel, expiry


async def test_reset_leaderboard_confirm_cancel_and_expiry(
    simcord_env, guild, channel, players, caplog
):
    env = simcord_env
    ann, bob = players[:2]
    admin = make_admin(env, guild)
    mods = guild.create_text_channel("mods")
    table = await start_game(channel, [ann, bob])
    await play_to_end(table, [ann, bob])
    board = await board_players(ann, channel)
    assert f"👉 __{ann.name}__ ·" in board and f"{bob.name} ·" in board
    history = (await ann.slash(channel, "steal history")).response.embeds[0]
    (game_field,) = [f.name for f in history.fields]
    assert game_field.startswith("Game #")

    # expiry: the buttons go, and the old Confirm no longer counts
    asked = await admin.slash(mods, "steal-admin reset-leaderboard")
    assert asked.ephemeral
    assert asked.response.content == (
        "Reset this server's leaderboard? Every player's games, wins, cards, steals and rating go "
        "back to the start. Finished games stay in the history. This can't be undone.\n"
        "This question expires in 30 seconds."
    )
    assert labels(asked.response) == ["Yes, reset the leaderboard", "Cancel"]
    (yes,) = [b["custom_id"] for b in buttons(asked.response) if b["label"].startswith("Yes")]
    await env.advance_time(29)
    assert labels(asked.response) == ["Yes, reset the leaderboard", "Cancel"]  # not yet
    await env.advance_time(2)
    assert asked.response.content == EXPIRED
    assert asked.response.components == []
    stale = crafted_click_target(env, mods, yes)
    late = await admin.click(stale, custom_id=yes)
    assert late.response.content == EXPIRED
    assert await board_players(ann, channel) == board

    # Cancel changes nothing
    asked = await admin.slash(mods, "steal-admin reset-leaderboard")
    await admin.click(asked.response, label="Cancel")
    assert asked.response.content == "Nothing changed."
    assert asked.response.components == []
    assert await board_players(ann, channel) == board

    # Confirm resets the board; the history stays
    asked = await admin.slash(mods, "steal-admin reset-leaderboard")
    with caplog.at_level(logging.INFO, logger="cogs.admin"):
        await admin.click(asked.response, label="Yes, reset the leaderboard")

    assert asked.response.content == "The leaderboard was reset (2 players)."
    assert asked.response.components == []
    assert "Nobody has finished a game here" in await board_players(ann, channel)
    mine = await ann.slash(channel, "steal stats")  # she did finish one: it no longer counts
    assert mine.response.content.startswith(
        "None of your finished games here counted for the leaderboard"
    )
    assert "a board reset starts everyone afresh" in mine.response.content
    history = (await ann.slash(channel, "steal history")).response.embeds[0]
    assert [f.name for f in history.fields] == [game_field]
    assert ann.name in history.fields[0].value and bob.name in history.fields[0].value
    logged = [r.getMessage() for r in caplog.records if r.name == "cogs.admin"]
    assert logged == [
        f"guild {guild.id}: {admin.name} ({admin.id}) reset the leaderboard (2 players)"
    ]


async def test_reset_every_setting_asks_first(simcord_env, guild, channel, players):
    env = simcord_env
    ann, bob = players[:2]
    admin = make_admin(env, guild)
    games = guild.create_text_channel("games")
    await change(admin, channel, "turn_timer", "30 s")
    await change(admin, channel, "preset", "classic")
    await admin.slash(channel, "steal-admin channels add", channel=games)
    changed = await settings_shown(admin, channel)
    assert setting_line(changed, "turn_timer") == "Turn timer: **30 s** (default: 2 min)"

    asked = await admin.slash(channel, "steal-admin reset")
    assert asked.ephemeral
    assert asked.response.content == (
        "Put **every** setting back to its default, allowed channels included?\n"
        "This question expires in 30 seconds."
    )
    assert labels(asked.response) == QUESTION_BUTTONS["reset"]
    await admin.click(asked.response, label="Cancel")
    assert asked.response.content == "Nothing changed."
    assert await settings_shown(admin, channel) == changed

    asked = await admin.slash(channel, "steal-admin reset")
    await env.advance_time(31)
    assert asked.response.content == EXPIRED and asked.response.components == []
    assert await settings_shown(admin, channel) == changed

    asked = await admin.slash(channel, "steal-admin reset")
    await admin.click(asked.response, label="Yes, reset every setting")

    assert asked.response.content == "Every setting is back to its default."
    shown = await settings_shown(admin, channel)
    assert shown == {"Rules": ""}  # the open topic, and nothing differs from the defaults
    assert channels_shown(shown) == ""
    table = await start_game(channel, [ann, bob])  # anywhere again, standard rules, 2 minutes
    assert footer(table).startswith("Standard")
    assert turn_deadline(table) == int(env.now().timestamp() + 120)


async def test_reset_one_setting(simcord_env, guild, channel):
    admin = make_admin(simcord_env, guild)
    await change(admin, channel, "deck", "italian40")

    result = await admin.slash(channel, "steal-admin reset", setting="deck")

    assert result.ephemeral
    assert result.response.content == "`deck` is back to its default, **as the preset**."
    assert result.response.components == []  # one setting: no question
    panel = (await admin.slash(channel, "steal-admin settings")).response
    assert panel_sections(panel) == {"Rules": ""}  # back to the preset: nothing differs
    assert picked(panel, ids.setting("deck")) == ["French 52-card (preset)"]


# ----- export


def stats_fields(result) -> dict[str, str]:
    return figures(result.response)


async def test_export_has_the_leaderboard_and_the_finished_games(
    simcord_env, guild, channel, players
):
    env = simcord_env
    ann, bob, cat, _ = players
    admin = make_admin(env, guild)
    mods = guild.create_text_channel("mods")
    table = await start_game(channel, [ann, bob])
    await play_to_end(table, [ann, bob])
    assert is_over(table)
    unfinished = await start_game(guild.create_text_channel("later"), [cat, ann])  # not exported
    assert not is_over(unfinished)
    final = fields(table)["Final bundles"].splitlines()  # "🥇 ann: 27 cards", ...
    history = (await ann.slash(channel, "steal history")).response.embeds[0]
    game_id = int(history.fields[0].name.removeprefix("Game #"))

    result = await admin.slash(mods, "steal-admin export")

    assert result.ephemeral
    reply = result.response
    assert reply.content == "2 players on the leaderboard, 1 finished game."
    files = {a.filename: await a.read() for a in reply.attachments}
    assert list(files) == ["leaderboard.csv", "games.jsonl"]

    rows = list(csv.reader(io.StringIO(files["leaderboard.csv"].decode("utf-8"))))
    assert rows[0] == [
        "rank", "user_id", "name", "games", "wins", "win_rate", "cards", "steals",
        "biggest_steal", "rating", "mu", "sigma",
    ]  # fmt: skip
    board = [dict(zip(rows[0], row, strict=True)) for row in rows[1:]]
    assert sorted(r["user_id"] for r in board) == sorted([str(ann.id), str(bob.id)])
    assert [r["rank"] for r in board] == ["1", "2"]
    for member in (ann, bob):
        row = next(r for r in board if r["user_id"] == str(member.id))
        shown = stats_fields(await member.slash(channel, "steal stats"))
        assert row["name"] == member.name
        assert row["games"] == shown["Games"] == "1"
        assert row["wins"] == shown["Wins"]
        assert f"{float(row['win_rate']):.0%}" == shown["Win rate"]
        assert row["cards"] == shown["Cards collected"]
        assert row["steals"] == shown["Steals"]
        biggest = "none yet" if row["biggest_steal"] == "0" else f"{row['biggest_steal']} cards"
        assert shown["Biggest steal"] in (biggest, biggest.removesuffix("s"))
        assert round(float(row["rating"])) == int(shown["Rating"].replace(",", ""))
        assert shown["Rank"] == f"#{row['rank']} of 2"
        assert f"{member.name}: {row['cards']} card" in "\n".join(final)

    lines = files["games.jsonl"].decode("utf-8").splitlines()
    assert len(lines) == 1  # the finished game only
    game = json.loads(lines[0])
    assert game["game_id"] == game_id
    assert game["channel_id"] == str(channel.id)
    assert sorted(p["id"] for p in game["players"]) == sorted([str(ann.id), str(bob.id)])
    assert {p["id"]: p["name"] for p in game["players"]} == {
        str(ann.id): ann.name, str(bob.id): bob.name,
    }  # fmt: skip
    winner = next(m for m in (ann, bob) if final[0].startswith(f"🥇 {m.name}:"))
    assert game["winners"] == [str(winner.id)]
    places = dict(zip([p["id"] for p in game["players"]], game["places"], strict=True))
    assert places == {str(winner.id): 0, str((bob if winner is ann else ann).id): 1}  # 0: first
    assert game["forfeited"] == []
    record = game["record"]
    assert record["format"] == "steal-the-bundle/1"
    assert record["seats"] == [p["id"] for p in game["players"]]
    sizes = dict(zip(record["seats"], record["result"]["bundle_sizes"], strict=True))
    for member in (ann, bob):
        assert any(line.endswith(f"{member.name}: {sizes[str(member.id)]} cards") for line in final)
    assert record == (await env.bot.storage.history.get(game_id)).record
