"""Shards: the bot runs on the shards it is given, and only the process that holds shard 0
syncs the commands (they are the same for every shard)."""

import logging

import pytest
from simcord.components import walk_components

from bot.shards import Shards
from tests.e2e.conftest import make_bot
from tests.e2e.support.play import command_syncs


@pytest.mark.bot_options(shards=Shards(2, (0,)))
async def test_only_the_process_holding_shard_0_syncs_the_commands(simcord_env, db_path, caplog):
    bot = simcord_env.bot
    assert bot.shard_count == 2 and bot.shard_ids == [0]
    assert len(command_syncs(simcord_env)) == 1  # shard 0's process synced
    # The other process, even told to sync (--sync), leaves it to shard 0's.
    with caplog.at_level(logging.INFO, logger="bot.client"):
        await simcord_env.restart_bot(make_bot(db_path.with_name("other.db"), sync=True,
                                               shards=Shards(2, (1,))))  # fmt: skip
    assert len(command_syncs(simcord_env)) == 1
    assert "the process that holds shard 0 does (this one holds 1)" in caplog.text
    assert simcord_env.bot.shard_ids == [1]
    # The commands shard 0's process synced work in a guild on shard 1.
    guild = simcord_env.create_guild(shard_id=1)
    channel = guild.create_text_channel("steal-the-bundle")
    ann = guild.add_member(simcord_env.create_user("ann"))
    result = await ann.slash(channel, "steal new")
    shown = [c.get("content", "") for c in walk_components(result.response.components)]
    assert any("new game" in text for text in shown), shown
