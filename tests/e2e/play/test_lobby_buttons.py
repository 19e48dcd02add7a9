"""The lobby's buttons: Join, Leave, Start and Cancel, who may press them, what they answer,
and the notices that go once the game starts."""

from __future__ import annotations

import discord
import pytest
from simcord import SetupError

from tests.e2e.support.helpers import (
    buttons,
    description,
    enabled,
    footer,
    labels,
    plain,
    table_text,
    title,
    whose_turn,
)
from tests.e2e.support.lobby import LOBBY_BUTTONS, answered_errors, players_field, public, seated


async def test_join_and_leave_buttons_edit_the_lobby_in_place(channel, players):
    ann, bob, cat, _ = players
    lobby = (await ann.slash(channel, "steal new")).response

    joined = await bob.click(lobby, label="Join")
    assert not joined.ephemeral
    assert joined.response.id == lobby.id
    assert players_field(lobby) == (
        "Players (2/4)",
        f"1. **{ann.name}** (host) · 2. **{bob.name}**",
    )
    await cat.click(lobby, label="Join")
    assert seated(lobby) == [ann.name, bob.name, cat.name]
    assert "1 seat free" in footer(lobby)

    await bob.click(lobby, label="Leave")
    assert players_field(lobby) == (
        "Players (2/4)",
        f"1. **{ann.name}** (host) · 2. **{cat.name}**",
    )
    assert [m.id for m in public(channel)] == [lobby.id]  # edited, never re-posted
    assert labels(lobby) == LOBBY_BUTTONS


async def test_join_twice_and_leave_when_not_seated_are_refused(channel, players):
    ann, bob, cat, _ = players
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")

    again = await bob.click(lobby, label="Join")
    assert again.ephemeral
    assert again.response.content.startswith("You're already in this lobby.")
    stranger = await cat.click(lobby, label="Leave")
    assert stranger.ephemeral
    # The lobby is the message she clicked, with a seat free: Join is the answer.
    assert stranger.response.content == (
        "You're not in this lobby yet. Press **Join** on it to take a seat."
    )
    assert seated(lobby) == [ann.name, bob.name]


async def test_leave_when_not_seated_in_a_full_lobby_says_it_is_full(channel, players):
    ann, bob, cat, _ = players
    lobby = (await ann.slash(channel, "steal new", max_players=2)).response
    await bob.click(lobby, label="Join")

    stranger = await cat.click(lobby, label="Leave")
    assert plain(stranger.response.content) == (
        "This lobby is full. Wait for the next game, or start one in another channel with "
        "/steal new."
    )


async def test_start_by_a_non_host_is_refused(channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")

    result = await bob.click(lobby, label="Start")

    assert result.ephemeral
    assert result.response.content.startswith("Only the host can do that;")
    assert title(lobby) == "Steal the Bundle: new game"
    assert labels(lobby) == LOBBY_BUTTONS


async def test_start_alone_is_refused(simcord_env, channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response

    with pytest.raises(SetupError, match="disabled"):  # Start is disabled while alone
        await ann.click(lobby, label="Start")
    result = await ann.slash(channel, "steal start")  # and the command says why
    assert result.ephemeral
    assert result.response.content.startswith("A game needs 2 to 4 players.")
    assert answered_errors(simcord_env) == ["NotEnoughPlayers"]
    assert title(lobby) == "Steal the Bundle: new game"

    await bob.click(lobby, label="Join")  # a second player: Start is enabled, the reason gone
    assert "Start" in [b["label"] for b in enabled(lobby)]
    assert "Start needs a second player" not in footer(lobby)
    await bob.click(lobby, label="Leave")  # alone again: disabled again
    assert "Start" not in [b["label"] for b in enabled(lobby)]


async def test_start_button_turns_the_lobby_into_the_table(channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")

    result = await ann.click(lobby, label="Start")

    assert not result.ephemeral
    assert result.response.id == lobby.id
    assert title(lobby) == "Steal the Bundle"
    assert labels(lobby) == ["My hand", "Rules"]
    assert whose_turn(lobby, players) in (ann, bob)


async def test_host_leaving_passes_the_host_to_the_next_seat(channel, players):
    ann, bob, cat, _ = players
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    await cat.click(lobby, label="Join")

    await ann.click(lobby, label="Leave")

    assert f"Hosted by **{bob.name}**" in description(lobby)
    assert players_field(lobby) == (
        "Players (2/4)",
        f"1. **{bob.name}** (host) · 2. **{cat.name}**",
    )
    refused = await cat.click(lobby, label="Start")
    assert refused.response.content.startswith("Only the host can do that;")
    await bob.click(lobby, label="Start")  # the new host can start
    assert labels(lobby) == ["My hand", "Rules"]
    assert "ann" not in table_text(lobby)


async def test_last_player_leaving_closes_the_lobby(channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Leave")

    await bob.click(lobby, label="Leave")

    assert title(lobby) == "Steal the Bundle: lobby closed"
    assert "Everyone left" in description(lobby)
    assert buttons(lobby) == []
    again = await ann.slash(channel, "steal new")  # the channel is free again
    assert not again.ephemeral
    assert again.response.id != lobby.id


async def test_cancel_button_asks_then_closes_the_lobby(channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")

    refused = await bob.click(lobby, label="Cancel")
    assert refused.ephemeral
    assert refused.response.content.startswith("Only the host or a server admin can cancel.")

    asked = await ann.click(lobby, label="Cancel")
    assert asked.ephemeral
    assert asked.response.content.startswith("Cancel this lobby?")
    assert labels(asked.response) == ["Yes, cancel the lobby", "No, keep playing"]
    assert labels(lobby) == LOBBY_BUTTONS  # nothing happens before confirming

    await ann.click(asked.response, label="Yes, cancel the lobby")

    assert asked.response.content == "Cancelled."
    assert asked.response.components == []
    assert title(lobby) == "Steal the Bundle: lobby cancelled"
    assert f"Cancelled by **{ann.name}**" in description(lobby)
    assert buttons(lobby) == []


async def test_closing_a_lobby_that_has_since_started_leaves_the_game_alone(channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    asked = await ann.click(lobby, label="Cancel")
    await ann.click(lobby, label="Start")  # the host changes their mind and starts instead

    await ann.click(asked.response, label="Yes, cancel the lobby")

    assert asked.response.content.startswith("That lobby has already started or closed.")
    assert labels(lobby) == ["My hand", "Rules"]  # the game goes on
    assert whose_turn(lobby, [ann, bob]) is not None


async def test_already_in_this_lobby_goes_once_the_game_starts(channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    again = await bob.click(lobby, label="Join")
    assert again.response.content.startswith("You're already in this lobby.")

    await ann.click(lobby, label="Start")

    assert again.response is None  # no longer true: the lobby is a table now


async def test_the_host_pressing_join_is_told_to_start_not_to_wait(channel, players):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new")).response

    again = await ann.click(lobby, label="Join")

    assert again.ephemeral
    assert again.response.content == "You host this lobby: press **Start** once everyone is in."
    assert labels(lobby)[0] == "Start"  # the host's next step comes first, in green
    start = next(b for b in buttons(lobby) if b["label"] == "Start")
    assert start["style"] == discord.ButtonStyle.success.value


async def test_added_bot_notice_goes_once_the_game_starts(channel, players):
    ann = players[0]
    lobby = (await ann.slash(channel, "steal new")).response
    asked = await ann.click(lobby, label="Add bot")
    added = await ann.click(asked.response, label="🤖 Medium")
    assert added.response.content == "Added **🤖 Medium bot**."

    await ann.click(lobby, label="Start")

    assert added.response is None  # the lobby showed the seat; the notice does not stay
