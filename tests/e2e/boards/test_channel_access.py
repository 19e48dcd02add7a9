"""A game played in a private channel is shown only to members who can see that channel: its
replay, its record (the game file) and its history entry (issue 24, item 19). A game whose
channel is gone: managers only."""

from __future__ import annotations

import discord

from bot.ui import ids
from tests.e2e.support.admin_panel import make_admin
from tests.e2e.support.boards import bot_message
from tests.e2e.support.replays import UNKNOWN, finish

NO_RECORD = "I have no record of that game here. Only games finished here have one."
HIDDEN = discord.PermissionOverwrite(view_channel=False)
SHOWN = discord.PermissionOverwrite(view_channel=True)


def staff_only(guild, *members):
    overwrites = {guild.default_role: HIDDEN, guild.me: SHOWN}
    overwrites.update({m: SHOWN for m in members})
    return guild.create_text_channel("staff-only", overwrites=overwrites)


def games_listed(result) -> list[str]:
    return [f.name for e in result.response.embeds for f in e.fields]


async def staff_game(simcord_env, guild, players):
    ann, bob = players[:2]
    room = staff_only(guild, ann, bob)
    seats = [str(ann.id), str(bob.id)]
    game_id, _ = await finish(simcord_env, room, seats, 3, {seats[0]: "ann", seats[1]: "bob"})
    return room, game_id


async def test_a_member_who_cannot_see_the_channel_gets_no_replay_record_or_history(
    simcord_env, guild, channel, players
):
    ann, _, cat = players[:3]
    _, game_id = await staff_game(simcord_env, guild, players)
    crafted = bot_message(simcord_env, channel, [ids.replay(game_id, 0), ids.record(game_id)])

    asked = await cat.slash(channel, "steal replay", game=game_id)
    clicked = await cat.click(crafted, custom_id=ids.replay(game_id, 0))
    record = await cat.click(crafted, custom_id=ids.record(game_id))
    history = await cat.slash(channel, "steal history")
    theirs = await cat.slash(channel, "steal history", member=ann)

    assert asked.ephemeral and asked.response.content == UNKNOWN
    assert clicked.response.content == UNKNOWN
    assert record.response.content == NO_RECORD and not record.response.attachments
    assert f"Game #{game_id}" not in games_listed(history)
    assert f"Game #{game_id}" not in games_listed(theirs)

    # ann, who can see the channel, gets all three.
    mine = await ann.slash(channel, "steal replay", game=game_id)
    assert f"Replay of game #{game_id}" in str(mine.response.components)
    record = await ann.click(crafted, custom_id=ids.record(game_id))
    assert record.response.attachments
    assert f"Game #{game_id}" in games_listed(await ann.slash(channel, "steal history"))


async def test_a_game_whose_channel_is_gone_is_shown_to_managers_only(
    simcord_env, guild, channel, players
):
    ann = players[0]
    room, game_id = await staff_game(simcord_env, guild, players)
    boss = make_admin(simcord_env, guild)
    simcord_env.backend.delete_channel(room.id)

    refused = await ann.slash(channel, "steal replay", game=game_id)
    shown = await boss.slash(channel, "steal replay", game=game_id)

    assert refused.response.content == UNKNOWN
    assert f"Replay of game #{game_id}" in str(shown.response.components)
    assert f"Game #{game_id}" in games_listed(await boss.slash(channel, "steal history"))
    assert f"Game #{game_id}" not in games_listed(await ann.slash(channel, "steal history"))
