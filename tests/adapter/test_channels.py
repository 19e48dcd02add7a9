"""Where a game may start, outside a server (issue 36): the DM with the bot and a group DM
have no allowed channels and no channel permissions to read, so nothing there is refused;
and their games, names and board are kept under their channel (guild_of)."""

from __future__ import annotations

from types import SimpleNamespace

import discord

from bot.adapter.channels import may_start, place_of
from bot.adapter.interactions import guild_of
from bot.domain.place import Kind

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


def sent(guild_id: int | None, owners: dict[int, int], context: discord.AppCommandContext):
    """What place_of reads of an interaction, as discord.py parses Discord's payload."""
    real = discord.Interaction.is_guild_integration
    shaped = SimpleNamespace(guild_id=guild_id, channel_id=77, context=context,
                             _integration_owners=owners)  # fmt: skip
    shaped.is_guild_integration = lambda: real(shaped)  # type: ignore[arg-type]
    return shaped


def test_the_bot_is_a_member_where_its_server_installed_it_or_no_owner_is_named():
    server = discord.AppCommandContext(guild=True)
    assert place_of(sent(5, {0: 5}, server)).bot_member  # the server installed the app
    assert not place_of(sent(5, {1: 9}, server)).bot_member  # only a person did
    assert not place_of(sent(5, {0: 6, 1: 9}, server)).bot_member  # another server's install
    # No owner named at all: a payload from before user installs (or a simulator's).
    assert place_of(sent(5, {}, server)).bot_member
    group = place_of(sent(None, {1: 9}, discord.AppCommandContext(private_channel=True)))
    assert (group.kind, group.guild_id, group.bot_member) == (Kind.PRIVATE, None, False)
    dm = place_of(sent(None, {0: 0}, discord.AppCommandContext(dm_channel=True)))
    assert (dm.kind, dm.board_id, dm.bot_member) == (Kind.BOT_DM, 77, True)
