"""Tournaments against crafted clicks, raw options and a channel the bot cannot use (issue
32): a click is checked as its command is, an option outside what the command declares is
refused in words, a round whose threads cannot be made tells the managers and waits."""

from __future__ import annotations

import discord
import pytest

from bot.ui import ids
from tests.e2e.conftest import make_bot
from tests.e2e.support.boards import bot_message
from tests.e2e.support.helpers import labels, text_of

TURN = 15
NOT_FOUND = "There's no tournament here."


@pytest.fixture
def simcord_bot(db_path):
    return make_bot(db_path, bot_delay=0.0, away_delay=0.0)


@pytest.fixture
def boss(simcord_env, guild):
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    return guild.add_member(simcord_env.create_user("boss"), roles=[mods])


def staff_room(guild, *members):
    hidden = discord.PermissionOverwrite(view_channel=False)
    shown = discord.PermissionOverwrite(view_channel=True)
    overwrites = {guild.default_role: hidden, guild.me: shown}
    overwrites.update({m: shown for m in members})
    return guild.create_text_channel("staff-only", overwrites=overwrites)


async def test_crafted_clicks_on_a_tournament_of_a_hidden_channel_reveal_nothing(
    simcord_env, guild, channel, players, boss
):
    """A member who cannot see the tournament's channel crafts its Join, Leave and Check in
    buttons: each is refused as if there were none, and they are not signed up."""
    staff = staff_room(guild, boss)
    made = await boss.slash(staff, "steal tournament new", name="Staff Cup", check_in=True,
                            turn_timer=TURN)  # fmt: skip
    assert "Staff Cup" in text_of(made.response)
    [cup] = await simcord_env.bot.storage.tournaments.open()
    outsider = players[0]
    crafted = [ids.tour(op, cup.id) for op in ("join", "leave", "checkin")]
    message = bot_message(simcord_env, channel, crafted)
    for custom_id in crafted:
        result = await outsider.click(message, custom_id=custom_id)
        words = f"{result.response.content}{[text_of(f) for f in result.followups]}"
        assert result.response.ephemeral and words.startswith(NOT_FOUND), words
        assert "Staff Cup" not in words and "boss" not in words
        assert not result.response.embeds and not result.response.attachments
    assert await simcord_env.bot.storage.tournaments.entrants(cup.id) == []
    # Someone who sees the channel joins by the same button.
    joined = await boss.click(bot_message(simcord_env, staff, crafted[:1]), custom_id=crafted[0])
    assert "Staff Cup" in f"{text_of(joined.response)}{[text_of(f) for f in joined.followups]}"
    assert [e.entrant for e in await simcord_env.bot.storage.tournaments.entrants(cup.id)] == [
        str(boss.id)
    ]


THREADS = "/channels/*/threads"
PAUSED = "can't start"


def notices(channel) -> list:
    return [m for m in channel.history() if PAUSED in text_of(m)]


async def test_a_round_whose_threads_are_refused_tells_the_managers_and_waits(
    simcord_env, channel, players, boss
):
    """The bot lost Create Public Threads: after a few tries the round's tables are not
    tried again every minute for ever; the channel is told what to fix, a member cannot
    resume it, and once fixed a manager's Try again opens the round."""
    env = simcord_env
    await boss.slash(channel, "steal tournament new", name="Cup", table_size=2, rounds=1,
                     turn_timer=TURN)  # fmt: skip
    await boss.slash(channel, "steal tournament fill", count=2, difficulty="easy")
    env.inject_error("POST", THREADS, status=403, code=50013, message="Missing Permissions",
                     times=None)  # fmt: skip
    await boss.slash(channel, "steal tournament start")
    for _ in range(12):  # tries waiting 10, 20, 40 s... then the notice, and no more tries
        await env.advance_time(60)
    [notice] = notices(channel)
    words = text_of(notice)
    assert "Create Public Threads" in words and "Try again" in labels(notice), words
    assert any("paused: round 1" in text_of(m) for m in channel.history())  # the sign-up too
    tries = sum(1 for r in env.http_requests if r.method == "POST" and r.path.endswith("/threads"))
    for _ in range(10):
        await env.advance_time(600)
    later = sum(1 for r in env.http_requests if r.method == "POST" and r.path.endswith("/threads"))
    assert later == tries and tries <= 4, (tries, later)  # paused: nothing retried
    assert len(notices(channel)) == 1

    refused = await players[0].click(notice, label="Try again")
    assert "managers" in refused.response.content.lower()
    assert len(notices(channel)) == 1  # still waiting

    env.backend.faults.clear()  # a manager gave the permission back
    await boss.click(notices(channel)[0], label="Try again")
    for _ in range(5):
        await env.advance_time(TURN + 1)
    assert len(channel.threads) == 1
    assert any("Round 1 of 1" in text_of(m) for m in channel.history())
    assert not any("paused" in text_of(m) for m in channel.history())


async def test_a_round_whose_channel_is_gone_stops_trying(simcord_env, guild, channel, boss):
    """The tournament's channel was deleted: a few tries, then none."""
    env = simcord_env
    room = guild.create_text_channel("cup-room")
    await boss.slash(room, "steal tournament new", name="Cup", table_size=2, rounds=1,
                     turn_timer=TURN)  # fmt: skip
    await boss.slash(room, "steal tournament fill", count=2, difficulty="easy")
    env.inject_error("POST", THREADS, status=404, code=10003, message="Unknown Channel",
                     times=None)  # fmt: skip
    await boss.slash(room, "steal tournament start")
    for _ in range(12):
        await env.advance_time(60)
    tries = sum(1 for r in env.http_requests if r.method == "POST" and r.path.endswith("/threads"))
    for _ in range(10):
        await env.advance_time(600)
    later = sum(1 for r in env.http_requests if r.method == "POST" and r.path.endswith("/threads"))
    assert later == tries and tries <= 4, (tries, later)
    [cup] = await env.bot.storage.tournaments.open()
    assert cup.settings["paused"]["reason"] == "gone"
    # Nothing can be posted in a deleted channel: the list says it waits, and why.
    listed = text_of((await boss.slash(channel, "steal tournament list")).response)
    assert "paused" in listed and "channel is gone" in listed, listed
