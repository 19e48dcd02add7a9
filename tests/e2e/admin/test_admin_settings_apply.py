"""Each /steal-admin setting taking effect: rules, presets, the turn timer, the lobby timeout,
the most games, pings, the manager role, language and AI; from the next lobby, never in an
open one."""

from __future__ import annotations

from typing import Any

from bot.ui import ids
from tests.e2e.support.admin_effects import (
    answered_errors,
    pings,
    turn_deadline,
)
from tests.e2e.support.admin_panel import (
    change,
    make_admin,
    panel_sections,
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
    labels,
    plain,
    play_one,
    start_game,
    title,
    whose_turn,
)
from tests.e2e.support.screens import text as screen_text


def last_moves(table) -> list[str]:
    return fields(table).get("Last moves", "").splitlines()


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
