"""The lobby as players see it: /steal new, the lobby buttons, /steal join/leave/start, expiry."""

from __future__ import annotations

import re

import discord
import pytest
from simcord import SetupError

from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import (
    buttons,
    description,
    enabled,
    fields,
    footer,
    labels,
    plain,
    table_facts,
    table_text,
    title,
    whose_turn,
)
from tests.e2e.support.screens import go_to, lobby_rules

LOBBY_BUTTONS = ["Start", "Join", "Leave", "Add bot", "Cancel"]


def players_field(message) -> tuple[str, str]:
    """The lobby's "Players (n/max)" field as (name, value)."""
    return next((n, v) for n, v in fields(message).items() if n.startswith("Players"))


def seated(message) -> list[str]:
    """The names in the lobby's seat list, in seat order."""
    return re.findall(r"\*\*(.+?)\*\*", players_field(message)[1])


def public(channel) -> list[discord.Message]:
    """What everyone sees in the channel (no ephemeral messages)."""
    return channel.history()


def answered_errors(env) -> list[str]:
    """The session errors the bot answered slash commands with. SimCord records every error a
    command raised, even one the cog answered; reading them here acknowledges them."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


def jump(guild, channel, message) -> str:
    return f"https://discord.com/channels/{guild.id}/{channel.id}/{message.id}"


# ----- /steal new


async def test_new_lobby_shows_host_seats_rules_and_buttons(simcord_env, channel, players):
    ann = players[0]
    result = await ann.slash(channel, "steal new")

    assert not result.ephemeral
    lobby = result.response
    assert [m.id for m in public(channel)] == [lobby.id]
    assert title(lobby) == "Steal the Bundle: new game"
    assert f"Hosted by **{ann.name}**" in description(lobby)
    assert players_field(lobby) == ("Players (1/4)", f"1. **{ann.name}** (host)")
    assert footer(lobby).startswith("Standard · French · stealing · free play — ")  # one line
    rules = (await lobby_rules(ann, channel))["Standard rules"]
    assert "French 52-card deck" in rules
    assert "The biggest bundle wins" in rules
    deadline = int(simcord_env.now().timestamp()) + 600
    assert f"Expires <t:{deadline}:R>" in footer(lobby)
    assert "3 seats free" in footer(lobby)
    assert labels(lobby) == LOBBY_BUTTONS
    # Start waits for a second player, and the lobby says why.
    assert [b["label"] for b in enabled(lobby)] == [b for b in LOBBY_BUTTONS if b != "Start"]
    assert "Start needs a second player" in footer(lobby)


async def test_new_with_classic_rules_shows_them(channel, players):
    lobby = (await players[0].slash(channel, "steal new", rules="classic")).response

    assert footer(lobby).startswith("Classic · French · stealing · forced play — ")
    rules = await lobby_rules(players[0], channel)
    assert "You must capture or steal when you can." in rules["Classic rules"]


async def test_max_players_two_fills_the_lobby(simcord_env, channel, players):
    ann, bob, cat, _ = players
    lobby = (await ann.slash(channel, "steal new", max_players=2)).response
    assert players_field(lobby)[0] == "Players (1/2)"
    assert "1 seat free" in footer(lobby)

    await bob.click(lobby, label="Join")

    assert players_field(lobby)[0] == "Players (2/2)"
    assert seated(lobby) == [ann.name, bob.name]
    join = next(b for b in buttons(lobby) if b["label"] == "Join")
    assert join.get("disabled") is True
    with pytest.raises(SetupError, match="disabled"):  # nobody can click it
        await cat.click(lobby, label="Join")

    result = await cat.slash(channel, "steal join")
    assert result.ephemeral
    assert result.response.content.startswith("This lobby is full.")
    assert answered_errors(simcord_env) == ["LobbyFull"]
    assert seated(lobby) == [ann.name, bob.name]

    await bob.click(lobby, label="Leave")  # a seat frees up: Join works again
    await cat.click(lobby, label="Join")
    assert seated(lobby) == [ann.name, cat.name]


async def test_new_where_a_lobby_runs_links_to_it(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    lobby = (await ann.slash(channel, "steal new")).response

    result = await bob.slash(channel, "steal new", rules="classic")

    assert result.ephemeral
    assert "already running in this channel" in result.response.content
    assert go_to(result.response) == jump(guild, channel, lobby)  # a button, not a raw URL
    assert "https://" not in result.response.content
    assert [m.id for m in public(channel)] == [lobby.id]  # no second lobby
    assert footer(lobby).startswith("Standard · ")


async def test_new_where_a_game_runs_links_to_the_table(channel, guild, players):
    ann, bob, cat = players[:3]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")
    await ann.click(lobby, label="Start")
    before = [m.id for m in public(channel)]

    result = await cat.slash(channel, "steal new")

    assert result.ephemeral
    assert "already running in this channel" in result.response.content
    assert go_to(result.response) == jump(guild, channel, lobby)  # the table is that message
    assert [m.id for m in public(channel)] == before


@pytest.mark.parametrize(
    ("deny", "named"),
    [
        ({"embed_links": False}, ["Embed Links"]),
        ({"send_messages": False, "embed_links": False}, ["Send Messages", "Embed Links"]),
        ({"attach_files": False}, ["Attach Files"]),  # the table and end screen are pictures
    ],
)
async def test_new_without_bot_permissions_names_them(simcord_env, guild, players, deny, named):
    ann = players[0]
    room = guild.create_text_channel(
        "locked", overwrites={guild.me: discord.PermissionOverwrite(**deny)}
    )

    result = await ann.slash(room, "steal new")

    assert result.ephemeral
    text = result.response.content
    assert f"I'm missing: {', '.join(named)}." in text
    for other in {
        "View Channel",
        "Send Messages",
        "Embed Links",
        "Attach Files",
        "Read Message History",
    } - set(named):
        assert other not in text
    assert public(room) == []
    # and no lobby was opened
    join = await players[1].slash(room, "steal join")
    assert join.response.content.startswith("There is no open lobby in this channel.")
    assert answered_errors(simcord_env) == ["NoLobby"]


# ----- lobby buttons


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


# ----- the same through commands


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


# ----- expiry


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


async def test_a_lobby_never_expires_without_a_bot_wide_wait(
    simcord_env, db_path, channel, players
):
    """The playground's bot (lobby_seconds=None): the lobby does not promise an expiry."""
    await simcord_env.restart_bot(make_bot(db_path, lobby_seconds=None))
    lobby = (await players[0].slash(channel, "steal new")).response

    assert "Expires" not in footer(lobby)
    await simcord_env.advance_time(3600)
    assert title(lobby) == "Steal the Bundle: new game"
