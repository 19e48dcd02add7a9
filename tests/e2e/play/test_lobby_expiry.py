"""A lobby's expiry: it closes after ten minutes unless started, and never without a
bot-wide wait."""

from __future__ import annotations

from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import buttons, description, footer, labels, title
from tests.e2e.support.lobby import LOBBY_BUTTONS


async def test_lobby_expires_after_ten_minutes(simcord_env, channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")

    await simcord_env.advance_time(599)
    assert labels(lobby) == LOBBY_BUTTONS  # not yet

    await simcord_env.advance_time(1)

    assert title(lobby) == "Steal the Bundle: lobby closed"
    assert "Nobody started this game within 10 min." in description(lobby)
    assert buttons(lobby) == []
    again = await bob.slash(channel, "steal new")
    assert not again.ephemeral
    assert title(again.response) == "Steal the Bundle: new game"
    assert f"Hosted by **{bob.name}**" in description(again.response)


async def test_a_started_game_does_not_expire_as_a_lobby(simcord_env, channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")

    await simcord_env.advance_time(600)

    assert title(lobby) == "Steal the Bundle"
    assert labels(lobby) == ["My hand", "Rules"]


async def test_a_lobby_never_expires_without_a_bot_wide_wait(
    simcord_env, db_path, channel, players
):
    """The playground's bot (lobby_seconds=None): the lobby does not promise an expiry."""
    await simcord_env.restart_bot(make_bot(db_path, lobby_seconds=None))
    lobby = (await players[0].slash(channel, "steal new")).response

    assert "Expires" not in footer(lobby)
    await simcord_env.advance_time(3600)
    assert title(lobby) == "Steal the Bundle: new game"
