"""The lobby through commands: /steal join, /steal leave and /steal start act like the
buttons."""

from __future__ import annotations

from tests.e2e.support.helpers import buttons, description, labels, table_facts, title
from tests.e2e.support.lobby import LOBBY_BUTTONS, answered_errors, jump, players_field, seated


async def test_join_leave_start_commands_act_like_the_buttons(simcord_env, channel, players):
    ann, bob, cat, _ = players
    lobby = (await ann.slash(channel, "steal new")).response

    joined = await bob.slash(channel, "steal join")
    assert joined.ephemeral
    assert joined.response.content == "You joined the lobby."
    assert seated(lobby) == [ann.name, bob.name]
    await cat.slash(channel, "steal join")
    assert players_field(lobby)[0] == "Players (3/4)"

    left = await cat.slash(channel, "steal leave")
    assert left.ephemeral
    assert left.response.content == "You left the lobby."
    assert seated(lobby) == [ann.name, bob.name]

    refused = await bob.slash(channel, "steal start")
    assert refused.ephemeral
    assert refused.response.content.startswith("Only the host can do that;")
    assert answered_errors(simcord_env) == ["NotHost"]
    assert title(lobby) == "Steal the Bundle: new game"

    started = await ann.slash(channel, "steal start")
    # The command answers with the table, for everyone (so its token edits the table, outside
    # the global rate limit), and the lobby message links to it.
    table = started.response
    assert not started.ephemeral
    assert title(table) == "Steal the Bundle"
    assert labels(table) == ["My hand", "Rules"]
    assert "ann" in table_facts(table)  # the picture's description: every seat
    assert "bob" in table_facts(table)
    assert "cat" not in table_facts(table)
    assert description(lobby) == f"The table moved: {jump(channel.guild, channel, table)}"
    assert buttons(lobby) == []


async def test_start_command_alone_and_join_without_lobby(simcord_env, channel, players):
    ann, bob = players[:2]
    none = await bob.slash(channel, "steal join")
    assert none.ephemeral
    assert none.response.content.startswith("There is no open lobby in this channel.")

    lobby = (await ann.slash(channel, "steal new")).response
    alone = await ann.slash(channel, "steal start")
    assert alone.ephemeral
    assert alone.response.content.startswith("A game needs 2 to 4 players.")
    assert answered_errors(simcord_env) == ["NoLobby", "NotEnoughPlayers"]
    assert labels(lobby) == LOBBY_BUTTONS


async def test_last_player_leave_command_closes_the_lobby(channel, players):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new")).response

    left = await ann.slash(channel, "steal leave")

    assert left.ephemeral
    assert left.response.content == "You left, and the lobby closed."
    assert title(lobby) == "Steal the Bundle: lobby closed"
    assert buttons(lobby) == []
