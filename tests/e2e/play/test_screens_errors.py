"""Every refusal says what to do next, as the member who tripped on it reads it."""

from __future__ import annotations

import pytest

from tests.e2e.support.helpers import start_game
from tests.e2e.support.screens import go_to, link_buttons, raised, text

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")

NEW = "`/steal new`"


def jump(channel, message) -> str:
    return f"https://discord.com/channels/{channel.guild.id}/{channel.id}/{message.id}"


async def test_not_in_this_game_links_the_table_and_says_what_next(simcord_env, channel, players):
    ann, bob, cat, _ = players
    table = await start_game(channel, [ann, bob])

    for result in (await cat.click(table, label="My hand"), await cat.slash(channel, "steal hand")):
        shown = result.response
        assert result.ephemeral
        assert shown.content.startswith("You're not in this game. Wait")  # the button is below
        assert "Wait for the next game, or start one in another channel with `/steal new`." in (
            shown.content
        )
        assert go_to(shown) == jump(channel, table)
        assert "https://" not in shown.content
    assert raised(simcord_env) == ["NotInGame"]  # the slash command's, answered


async def test_already_running_answers_with_a_go_to_the_table_button(channel, players):
    ann, bob, *_ = players
    lobby = (await ann.slash(channel, "steal new")).response

    shown = (await bob.slash(channel, "steal new")).response

    assert shown.content == (
        "A lobby or game is already running in this channel. Join it, or start one in another"
        f" channel with {NEW}."
    )
    [button] = link_buttons(shown)
    assert (button["label"], button["url"]) == ("Go to the table", jump(channel, lobby))


async def test_nothing_here_says_how_to_start(simcord_env, channel, players):
    ann = players[0]
    assert (await ann.slash(channel, "steal hand")).response.content == (
        f"There is no game running here. Start one with {NEW}."
    )
    assert (await ann.slash(channel, "steal join")).response.content == (
        f"There is no open lobby in this channel. Open one with {NEW}."
    )
    assert go_to((await ann.slash(channel, "steal hand")).response) is None  # nothing to link
    assert raised(simcord_env) == ["NoGame", "NoLobby", "NoGame"]


async def test_lobby_refusals_name_the_button_to_press(simcord_env, channel, players):
    ann, bob, cat, _ = players
    lobby = (await ann.slash(channel, "steal new", max_players=2)).response

    alone = await ann.slash(channel, "steal start")  # the lobby's Start waits for a player
    assert alone.response.content == (
        "A game needs 2 to 4 players. Wait for someone to join, or press **Add bot** to play an"
        " AI opponent."
    )
    await bob.click(lobby, label="Join")
    again = await bob.slash(channel, "steal join")
    assert again.response.content == (
        "You're already in this lobby. Wait for the host to press **Start**, or press **Leave**"
        " to go."
    )
    full = await cat.slash(channel, "steal join")
    assert full.response.content == (
        f"This lobby is full. Wait for the next game, or start one in another channel with {NEW}."
    )
    not_host = await bob.slash(channel, "steal start")
    assert not_host.response.content == "Only the host can do that; ask them to."
    cancel = await bob.slash(channel, "steal cancel")
    assert cancel.response.content == (
        "Only the host or a server admin can cancel. To stop playing yourself, press **Leave** in"
        " a lobby or use `/steal forfeit` in a game."
    )
    assert raised(simcord_env) == [
        "NotEnoughPlayers",  # "already in this lobby" is answered by the lobby, not raised
        "LobbyFull",
        "NotHost",
        "NotHost",
    ]


async def test_an_unknown_button_points_to_fresh_ones(simcord_env, channel, players):
    row = [{"type": 2, "style": 2, "label": "old", "custom_id": "stb:gone:1"}]
    stored = simcord_env.backend.create_message(
        channel.id,
        simcord_env.backend.bot_user.id,
        "old",
        components=[{"type": 1, "components": row}],
    )
    from simcord.results import ResponseMessage

    shown = (await players[0].click(ResponseMessage(simcord_env, stored), label="old")).response
    assert "Nothing happened; use `/steal table` for a fresh table, or `/steal new`" in text(shown)


async def test_next_steps_are_in_the_readers_language(simcord_env, channel, players, locales):
    ann, bob, cat, _ = players
    locales.update({cat.id: "es-ES", bob.id: "it"})
    table = await start_game(channel, [ann, bob])

    shown = (await cat.click(table, label="My hand")).response
    assert shown.content.startswith("No estás en esta partida. Espera")
    assert "`/robar nueva`" in shown.content
    [button] = link_buttons(shown)
    assert button["label"] == "Ir a la mesa"
    nothing = (await bob.slash(channel, "steal join")).response
    assert nothing.content.startswith("Non c'è nessuna sala d'attesa aperta in questo canale.")
    assert raised(simcord_env) == ["NoLobby"]
