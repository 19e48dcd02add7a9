"""The lobby as players see it: /steal new, its options, and where a lobby, a game or the
bot's permissions stop it."""

from __future__ import annotations

import discord
import pytest
from simcord import SetupError

from tests.e2e.support.helpers import buttons, description, enabled, footer, labels, title
from tests.e2e.support.lobby import (
    LOBBY_BUTTONS,
    answered_errors,
    jump,
    players_field,
    public,
    seated,
)
from tests.e2e.support.screens import go_to, lobby_rules


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
