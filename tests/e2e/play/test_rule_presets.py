"""The short last deal and the traditional preset, as server admins and players meet them: the
`short_deal` setting on top of the preset for the next lobby, and `/steal new rules:traditional`.
"""

from __future__ import annotations

from bot.engine import PRESETS
from tests.e2e.support.admin_panel import (
    change,
    make_admin,
    set_setting,
    setting_line,
    settings_shown,
)
from tests.e2e.support.helpers import footer, play_to_end, start_game
from tests.e2e.support.screens import lobby_rules
from tests.e2e.support.screens import text as screen_text

ONE_AT_A_TIME = "If the stock cannot give everyone 4 cards, the last cards are dealt one at a time."


async def finished_record(env, guild) -> dict:
    (entry,) = await env.bot.storage.history.by_guild(guild.id)
    return entry.record


async def test_short_deal_setting_applies_to_the_next_lobby(simcord_env, guild, channel, players):
    env = simcord_env
    ann, bob = players[:2]
    admin = make_admin(env, guild)
    await change(admin, channel, "preset", "casita")

    # Casita deals a short stock one card at a time: the 2-player game ends 2 and 2.
    lobby = (await ann.slash(channel, "steal new")).response
    assert ONE_AT_A_TIME in (await lobby_rules(ann, channel))["Casita rules"]
    assert env.bot.sessions.rules_in(channel.id) == PRESETS["casita"]

    # An admin puts the old deal back, 4 cards at a time, on top of the preset.
    said = await set_setting(admin, channel, "short_deal", "fours")
    assert said == (
        "`short_deal` is now **short deal in fours** (was as the preset). "
        "It applies from the next lobby."
    )
    shown = await settings_shown(admin, channel)
    assert setting_line(shown, "short_deal") == (
        "Short deal: **short deal in fours** (default: as the preset)"
    )
    # The open lobby keeps the rules it opened with; its game deals the last 4 cards 2 and 2.
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    assert env.bot.sessions.rules_in(channel.id).short_deal == "one_at_a_time"
    await play_to_end(lobby, [ann, bob])
    seats = [m["seat"] for m in (await finished_record(env, guild))["moves"]]
    assert seats[-4:] in ([0, 1, 0, 1], [1, 0, 1, 0])

    # The next lobby has the server's option: casita with fours is a custom mix.
    other = guild.create_text_channel("other")
    lobby = (await ann.slash(other, "steal new")).response
    assert footer(lobby).startswith("Custom · Spanish · ")  # its one rules line
    [rules] = (await lobby_rules(ann, other)).values()
    assert "Spanish 40-card deck, played counterclockwise." in rules
    assert ONE_AT_A_TIME not in rules
    assert env.bot.sessions.rules_in(other.id) == PRESETS["casita"].replace(short_deal="fours")
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    await play_to_end(lobby, [ann, bob])
    entries = await env.bot.storage.history.by_guild(guild.id)
    record = next(e.record for e in entries if e.channel_id == other.id)
    assert record["rules"]["short_deal"] == "fours"
    seats = [m["seat"] for m in record["moves"]]
    assert len(set(seats[-4:])) == 1  # the last 4 cards went to one player, who played them all

    # "preset" hands the option back to the preset.
    said = await set_setting(admin, channel, "short_deal", "preset")
    assert said == (
        "`short_deal` is now **as the preset** (was short deal in fours). "
        "It applies from the next lobby."
    )


async def test_short_deal_values_are_suggested_and_checked(simcord_env, guild, channel, players):
    admin = make_admin(simcord_env, guild)
    suggested = await admin.autocomplete(
        channel, "steal-admin set", "value", "", setting="short_deal"
    )
    assert [c["name"] for c in suggested] == ["preset", "fours", "one_at_a_time"]
    said = await set_setting(admin, channel, "short_deal", "twos")
    assert said == "`short_deal` can't be 'twos'; it can be preset, fours, one_at_a_time."

    # On the standard rules one at a time makes a custom mix, and the lobby says so.
    await change(admin, channel, "short_deal", "one_at_a_time")
    lobby = (await players[0].slash(channel, "steal new")).response
    assert footer(lobby).startswith("Custom · French · ")
    [rules] = (await lobby_rules(players[0], channel)).values()
    assert ONE_AT_A_TIME in rules and "French 52-card deck" in rules


async def test_new_with_traditional_rules(simcord_env, guild, channel, players):
    ann, bob = players[:2]

    result = await ann.slash(channel, "steal new", rules="traditional")

    assert not result.ephemeral
    lobby = result.response
    rules = (await lobby_rules(ann, channel))["Traditional rules"]
    for line in (
        "French 52-card deck, played clockwise.",
        "You must capture or steal when you can.",
        "An empty pool is not refilled.",
        ONE_AT_A_TIME,
        "Cards left in the pool at the end go to the last capturer.",
        "The biggest bundle wins; the most recent capturer wins a tie.",
    ):
        assert line in rules
    assert simcord_env.bot.sessions.rules_in(channel.id) == PRESETS["traditional"]

    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    assert footer(lobby).startswith("Traditional · French · stealing · forced play")
    shown = (await bob.slash(channel, "steal rules")).response
    assert screen_text(shown).startswith("## 📖 Traditional rules\n")
    await play_to_end(lobby, [ann, bob])
    record = await finished_record(simcord_env, guild)
    assert record["rules"] == PRESETS["traditional"].to_dict()
    assert record["playoffs"] == []  # a tie goes to the last capturer


async def test_traditional_is_a_preset_to_read_and_to_set(simcord_env, guild, channel, players):
    ann = players[0]
    read = await ann.slash(channel, "steal rules", preset="traditional")
    assert read.ephemeral
    assert screen_text(read.response).startswith("## 📖 Traditional rules\n")
    listed = (await ann.slash(channel, "steal rules")).response
    await ann.click(listed, label="Options & presets")
    presets = screen_text(listed)
    assert "**traditional**: The old way: you must capture or steal" in presets

    admin = make_admin(simcord_env, guild)
    said = await set_setting(admin, channel, "preset", "traditional")
    assert said == "`preset` is now **Traditional** (was Standard). It applies from the next lobby."
    table = await start_game(channel, players[:3])
    assert footer(table).startswith("Traditional")
    assert simcord_env.bot.sessions.rules_in(channel.id) == PRESETS["traditional"]
