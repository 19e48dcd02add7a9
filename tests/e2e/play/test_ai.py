"""AI opponents on Discord: seated from /steal new or the lobby's Add bot button, playing at a
human pace, standing in for timed-out players, and kept off the leaderboard."""

from __future__ import annotations

import json

import discord
import pytest

from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.helpers import (
    TURN,
    buttons,
    description,
    enabled,
    is_over,
    labels,
    play_one,
    table_text,
    title,
)
from tests.e2e.support.screens import figures
from tests.e2e.support.screens import text as screen_text

# Longer than SimCord's settle timeout, so AI moves wait for advance_time (shorter sleeps also
# run in real time while SimCord settles). The default pace, 1.5 s, is tested in test_main.
BOT_DELAY = 10.0


@pytest.fixture
def simcord_bot(db_path):
    return make_bot(db_path, bot_delay=BOT_DELAY)


def turn_name(table) -> str:
    return TURN.search(description(table)).group(1)


async def admin_sets(simcord_env, guild, channel, **values):
    """A member with Manage Server sets these settings; returns that member."""
    mods = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    boss = guild.add_member(simcord_env.create_user("boss"), roles=[mods])
    for key, value in values.items():
        result = await boss.slash(channel, "steal-admin set", setting=key, value=value)
        assert result.response.content.startswith(f"`{key}` is now"), result.response.content
    return boss


async def play_with_bots(simcord_env, table, people) -> int:
    """People click their cards; AI seats are waited for. Returns how many AI moves were made."""
    hands: dict = {}
    ai_moves = 0
    while not is_over(table):
        if turn_name(table).startswith("🤖"):
            before = table_text(table)
            assert "thinking…" in description(table)
            await simcord_env.advance_time(BOT_DELAY - 1)
            assert table_text(table) == before  # paced: not yet
            await simcord_env.advance_time(1.1)
            assert table_text(table) != before
            ai_moves += 1
        else:
            await play_one(table, people, hands)
        assert ai_moves < 300
    return ai_moves


async def test_one_person_and_two_bots_play_to_the_end(simcord_env, channel, players):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new", bots=2, difficulty="easy")).response
    seats = table_text(lobby)
    assert "🤖 Easy bot" in seats and "🤖 Easy bot 2" in seats and "Players (3/4)" in seats
    await ann.click(lobby, label="Start")
    assert await play_with_bots(simcord_env, lobby, [ann]) > 5
    final = table_text(lobby)
    assert "🤖 Easy bot 2" in final and "game over" in title(lobby)
    # Games with AI opponents do not count by default; the game is still in the history.
    board = screen_text((await ann.slash(channel, "steal leaderboard")).response)
    assert "Nobody has finished a game" in board
    # ... and the board and stats say why, and how an admin counts them.
    why = (
        "🤖 Games with AI opponents don't count on this server's board. An admin can change"
        " that: </steal-admin settings:"
    )
    assert why in board and "→ **AI and hints** → **AI counts**." in board
    stats = (await ann.slash(channel, "steal stats")).response.content
    assert stats.startswith("None of your finished games here counted") and why in stats
    history = (await ann.slash(channel, "steal history")).response
    assert "🤖 Easy bot" in table_text(history)


async def test_games_with_bots_count_for_people_only_when_the_server_says_so(
    simcord_env, guild, channel, players
):
    ann = players[0]
    boss = await admin_sets(simcord_env, guild, channel, ai_counts="on")
    lobby = (await ann.slash(channel, "steal new", bots=1)).response  # medium by default
    assert "🤖 Medium bot" in table_text(lobby)
    await ann.click(lobby, label="Start")
    await play_with_bots(simcord_env, lobby, [ann])
    board = screen_text((await ann.slash(channel, "steal leaderboard")).response)
    assert "ann" in board and "🤖" not in board  # AI seats never appear on the leaderboard
    stats = figures((await ann.slash(channel, "steal stats")).response)
    assert stats["Games"] == "1", stats
    exported = (await boss.slash(channel, "steal-admin export")).response
    files = {a.filename: await a.read() for a in exported.attachments}
    assert b"ai:medium:1" not in files["leaderboard.csv"]
    [game] = [json.loads(line) for line in files["games.jsonl"].splitlines()]
    assert [p["name"] for p in game["players"]] == ["ann", "🤖 Medium bot"]


async def test_the_host_adds_and_removes_bots_with_buttons(simcord_env, channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new", max_players=3)).response
    refused = await bob.click(lobby, label="Add bot")
    assert refused.ephemeral
    assert refused.response.content.startswith("Only the host can add or remove AI opponents;")
    asked = await ann.click(lobby, label="Add bot")
    assert asked.ephemeral and labels(asked.response) == ["🤖 Easy", "🤖 Medium", "🤖 Hard"]
    added = await ann.click(asked.response, label="🤖 Hard")
    assert added.response.content == "Added **🤖 Hard bot**."
    assert "🤖 Hard bot" in table_text(lobby) and "Players (2/3)" in table_text(lobby)
    assert "Remove bot" in labels(lobby)
    await bob.click(lobby, label="Join")
    assert "Add bot" not in [b["label"] for b in enabled(lobby)]  # full
    await ann.click(lobby, label="Remove bot")
    assert "🤖" not in table_text(lobby) and "Remove bot" not in labels(lobby)


async def test_a_hard_bot_thinks_off_the_event_loop_and_plays(simcord_env, channel, players):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new", bots=1, difficulty="hard")).response
    await ann.click(lobby, label="Start")
    hands: dict = {}
    for _ in range(4):  # a few turns each way
        if turn_name(lobby) == "ann":
            await play_one(lobby, [ann], hands)
        before = table_text(lobby)
        assert turn_name(lobby) == "🤖 Hard bot"
        await simcord_env.advance_time(BOT_DELAY + 0.1)
        assert table_text(lobby) != before and turn_name(lobby) == "ann"


async def test_a_bot_only_lobby_is_refused(simcord_env, channel, players):
    ann = players[0]
    refused = await ann.slash(channel, "steal new", max_players=2, bots=2)
    assert refused.ephemeral
    assert "at least one seat is for a person" in refused.response.content
    lobby = (await ann.slash(channel, "steal new", bots=3)).response
    assert "Players (4/4)" in table_text(lobby)
    await ann.click(lobby, label="Leave")  # the only person leaves: the bots don't stay
    assert "lobby closed" in title(lobby)
    assert buttons(lobby) == []


async def test_bots_are_refused_when_the_server_turned_them_off(
    simcord_env, guild, channel, players
):
    ann = players[0]
    await admin_sets(simcord_env, guild, channel, ai_allowed="off")
    refused = await ann.slash(channel, "steal new", bots=1)
    assert refused.response.content.startswith("AI opponents are turned off on this server.")
    lobby = (await ann.slash(channel, "steal new")).response
    assert "Add bot" not in labels(lobby)


async def test_a_timed_out_person_is_played_by_the_ai(simcord_env, channel, players):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new", bots=1, difficulty="easy")).response
    await ann.click(lobby, label="Start")
    if turn_name(lobby) != "ann":
        await simcord_env.advance_time(BOT_DELAY + 0.1)
    assert turn_name(lobby) == "ann"
    await simcord_env.advance_time(120)  # the default turn timer
    assert "ann" in table_text(lobby) and "(auto)" in table_text(lobby)
    assert turn_name(lobby) == "🤖 Easy bot"


@BOTH_BACKENDS
async def test_bots_carry_on_after_a_restart(simcord_env, db_path, channel, players):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new", bots=1, difficulty="medium")).response
    await ann.click(lobby, label="Start")
    if turn_name(lobby) == "ann":
        await play_one(lobby, [ann], {})
    assert turn_name(lobby) == "🤖 Medium bot"
    await simcord_env.restart_bot(make_bot(db_path, bot_delay=BOT_DELAY))
    await simcord_env.advance_time(BOT_DELAY + 0.1)
    assert turn_name(lobby) == "ann"
