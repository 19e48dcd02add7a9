"""Where a game may start, outside a server (issue 36): the DM with the bot and a group DM
have no allowed channels and no channel permissions to read, so nothing there is refused;
and their games, names and board are kept under their channel (guild_of)."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.adapter.channels import may_start
from bot.adapter.interactions import guild_of

# What Discord sends as app_permissions in a group DM: the bot may attach and embed, no more.
PRIVATE = discord.Permissions(attach_files=True, embed_links=True, mention_everyone=True)


def interaction(guild_id: int | None, channel_id: int, perms: discord.Permissions):
    def refused(*args, **kwargs):
        raise AssertionError("nothing is refused here")

    return SimpleNamespace(
        guild_id=guild_id, channel_id=channel_id, app_permissions=perms, channel=None,
        response=SimpleNamespace(send_message=refused, is_done=lambda: False), extras={},
    )  # fmt: skip


async def test_a_group_dm_and_the_bot_dm_refuse_nothing():
    for perms in (PRIVATE, discord.Permissions.none()):  # a group DM; SimCord's bot DM
        assert await may_start(interaction(None, 77, perms), [123]) is True


def test_outside_a_server_the_key_is_the_channel():
    assert guild_of(interaction(None, 77, PRIVATE)) == 77
    assert guild_of(interaction(5, 77, PRIVATE)) == 5
