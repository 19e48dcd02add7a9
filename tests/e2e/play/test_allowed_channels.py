"""Where games and tournaments may start (bot/adapter/channels.py): one check for both, and a
thread counts as its parent channel for both. A tournament then refuses a thread for its own
reason (its tables are threads of its channel), never as a channel the server did not allow."""

from __future__ import annotations

import discord

from tests.e2e.support.admin_panel import make_admin

WRONG = "Games can't be started here. Try {channels}."
THREAD = (
    "A tournament needs a channel for its tables' threads: "
    "run this in a text channel, not a thread."
)


async def a_thread_of(env, channel):
    """A public thread in `channel`, made as any member's client would."""
    parent = env.bot.get_channel(channel.id)
    await parent.create_thread(name="side room", type=discord.ChannelType.public_thread)
    [thread] = channel.threads
    return thread


async def test_a_thread_of_an_allowed_channel_is_allowed_for_lobbies_and_tournaments(
    simcord_env, guild, channel, players
):
    admin = make_admin(simcord_env, guild)
    other = guild.create_text_channel("elsewhere")
    await admin.slash(channel, "steal-admin channels add", channel=channel)
    thread = await a_thread_of(simcord_env, channel)

    lobby = await players[0].slash(thread, "steal new")
    assert not lobby.ephemeral  # the lobby opened in the thread

    tournament = await admin.slash(thread, "steal tournament new", name="Cup")
    assert tournament.ephemeral
    assert tournament.response.content == THREAD  # not "can't be started here"

    for command, who in (("steal new", players[1]), ("steal tournament new", admin)):
        options = {"name": "Cup"} if "tournament" in command else {}
        refused = await who.slash(other, command, **options)
        assert refused.ephemeral
        assert refused.response.content == WRONG.format(channels=channel.mention)
