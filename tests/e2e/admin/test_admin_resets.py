"""/steal-admin reset-leaderboard and reset (every setting, or one): confirm, cancel, and the
question expiring after 30 seconds.

SimCord note: an ephemeral answer the bot edits later (the 30 s confirmation) is read live
through the interaction result's `response`.
"""

from __future__ import annotations

import logging

from bot.ui import ids
from tests.e2e.support.admin_effects import (
    turn_deadline,
)
from tests.e2e.support.admin_panel import (
    change,
    channels_shown,
    make_admin,
    panel_sections,
    picked,
    setting_line,
    settings_shown,
)
from tests.e2e.support.helpers import (
    buttons,
    footer,
    labels,
    play_to_end,
    start_game,
)
from tests.e2e.support.play import crafted_click_target
from tests.e2e.support.screens import text as screen_text

EXPIRED = (
    "That question expired after 30 seconds; nothing changed. Run the command again to be"
    " asked again."
)
QUESTION_BUTTONS = {
    "reset-leaderboard": ["Yes, reset the leaderboard", "Cancel"],
    "reset": ["Yes, reset every setting", "Cancel"],
}


async def board_players(member, room) -> str:
    """What `/steal leaderboard` shows."""
    return screen_text((await member.slash(room, "steal leaderboard")).response)


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
