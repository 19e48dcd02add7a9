"""Leaving a running game: /steal forfeit (the bot plays the seat to the end) and
/steal cancel."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.e2e.support.helpers import (
    buttons,
    description,
    enabled,
    fields,
    hand_cards,
    is_over,
    labels,
    moves_of,
    play_one,
    seat_field,
    start_game,
    table_text,
    text_of,
    title,
    whose_turn,
)
from tests.e2e.support.running_game import (
    TABLE_BUTTONS,
    TURN_LINE,
    answered_errors,
    pings,
)

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")


def over(table) -> bool:
    return is_over(table)


# ----- /steal forfeit


async def test_forfeit_no_keeps_playing(channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    player = whose_turn(table, players)
    text = table_text(table)

    asked = await player.slash(channel, "steal forfeit")
    assert asked.ephemeral
    assert asked.response.content.startswith("Forfeit this game?")
    assert labels(asked.response) == ["Yes, forfeit", "No, keep playing"]

    await player.click(asked.response, label="No, keep playing")

    assert asked.response.content == "Nothing changed."
    assert asked.response.components == []
    assert table_text(table) == text
    assert "forfeited" not in text
    hand = (await player.slash(channel, "steal hand")).response
    assert "You forfeited" not in text_of(hand)
    assert "**Your turn**" in text_of(hand)  # still theirs to play
    assert {b["label"].split(" → ")[0] for b in moves_of(hand) if not b.get("disabled")} == set(
        hand_cards(hand)
    )


async def test_forfeit_from_a_non_player(simcord_env, channel, players):
    await start_game(channel, players[:2])

    result = await players[3].slash(channel, "steal forfeit")

    assert result.ephemeral
    assert result.response.content.startswith("You're not in this game.")
    assert answered_errors(simcord_env) == ["NotInGame"]


# SimCord drains any bot sleep shorter than its settle timeout (5 s) in real time, so the 1 s
# default delay before the bot plays a forfeited seat (away_delay) would cost a real second a
# move. Longer than the settle timeout, that timer waits for advance_time, as a turn timer does
# (a shorter settle timeout would do too, but then every click must settle within it).
FORFEIT_DELAY = 6.0


@pytest.mark.bot_options(away_delay=FORFEIT_DELAY)
async def test_forfeit_the_bot_plays_the_seat_to_the_end(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])

    asked = await ann.slash(channel, "steal forfeit")
    await ann.click(asked.response, label="Yes, forfeit")

    assert asked.response.content == "You forfeited. The bot plays your cards to the end."
    assert asked.response.components == []
    assert seat_field(table, ann)[0] == "ann · forfeited"
    assert "forfeited" not in seat_field(table, bob)[0]
    mine = (await ann.slash(channel, "steal hand")).response
    assert "You forfeited: the bot plays your cards." in text_of(mine)
    assert enabled(mine) == []

    hands: dict[int, Any] = {}
    log: list[str] = []
    bot_moves = 0
    for _ in range(200):
        if over(table):
            break
        if whose_turn(table, players) is ann:
            await simcord_env.advance_time(FORFEIT_DELAY)  # the bot plays the forfeited seat
            assert over(table) or whose_turn(table, players) is bob
            bot_moves += 1
        else:
            await play_one(table, [ann, bob], hands)
        log += fields(table).get("Last moves", "").splitlines()
    assert over(table), table_text(table)
    assert bot_moves >= 10
    assert "The game is over." in text_of(mine)  # her open hand followed the game to its end
    assert labels(table) == ["Rematch", "Game file", "Replay"]
    final = fields(table)["Final bundles"].splitlines()
    assert final[0].startswith("🥇 bob: ") and final[1].endswith(" 🏳️ forfeited")
    assert final[1].startswith("🥈 ann: ")
    assert any(line.startswith("ann ") and line.endswith("(auto)") for line in log)
    assert not any(line.startswith("bob ") and line.endswith("(auto)") for line in log)
    assert pings(channel) == []

    (entry,) = await simcord_env.bot.storage.history.by_guild(guild.id)
    assert entry.forfeited == (str(ann.id),)
    assert entry.places[entry.seats.index(str(ann.id))] == max(entry.places)
    assert entry.winners == (str(bob.id),)


async def test_a_forfeit_leaves_the_acting_players_countdown_alone(simcord_env, channel, players):
    members = players[:3]
    table = await start_game(channel, members)
    first = whose_turn(table, players)
    quitter = next(m for m in members if m is not first)
    countdown = TURN_LINE.match(description(table).splitlines()[0]).group(2)
    await simcord_env.advance_time(50)

    asked = await quitter.slash(channel, "steal forfeit")
    await quitter.click(asked.response, label="Yes, forfeit")

    assert seat_field(table, quitter)[0].endswith(" · forfeited")
    assert whose_turn(table, players) is first
    turn_line = description(table).splitlines()[0]
    assert TURN_LINE.match(turn_line).group(2) == countdown, (
        "someone else's forfeit moved the acting player's auto-play time"
    )
    await simcord_env.advance_time(70)  # two minutes after the turn began: the bot plays it
    assert any(
        line.startswith(f"{first.name} ") and line.endswith("(auto)")
        for line in fields(table).get("Last moves", "").splitlines()
    )


# ----- /steal cancel


async def test_cancel_by_the_host_after_no_then_yes(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    await play_one(table, [ann, bob], {})
    text = table_text(table)

    asked = await ann.slash(channel, "steal cancel")
    assert asked.ephemeral
    assert asked.response.content.startswith("Cancel this game?")
    assert labels(asked.response) == ["Yes, cancel the game", "No, keep playing"]
    await ann.click(asked.response, label="No, keep playing")
    assert asked.response.content == "Nothing changed."
    assert table_text(table) == text
    assert labels(table) == TABLE_BUTTONS

    asked = await ann.slash(channel, "steal cancel")
    await ann.click(asked.response, label="Yes, cancel the game")

    assert asked.response.content == "Cancelled."
    assert title(table) == "Steal the Bundle: game cancelled"
    assert description(table) == f"Cancelled by **{ann.name}**. No stats were recorded."
    assert buttons(table) == []
    assert pings(channel) == []
    storage = simcord_env.bot.storage
    assert await storage.history.by_guild(guild.id) == []
    assert await storage.stats.leaderboard(guild.id) == []
    for member in (ann, bob):
        stats = await storage.stats.get(guild.id, str(member.id))
        assert stats is None or stats.games == 0
    gone = await bob.slash(channel, "steal hand")
    assert gone.response.content.startswith("There is no game running here.")
    assert answered_errors(simcord_env) == ["NoGame"]
    assert not (await bob.slash(channel, "steal new")).ephemeral  # the channel is free again


async def test_cancel_is_refused_to_a_plain_member(simcord_env, channel, players):
    ann, bob, _, dan = players
    table = await start_game(channel, [ann, bob])
    text = table_text(table)

    for member in (bob, dan):  # a player who is not the host, and a bystander
        result = await member.slash(channel, "steal cancel")
        assert result.ephemeral
        assert result.response.content.startswith("Only the host or a server admin can cancel.")
        assert result.response.components == []
    assert answered_errors(simcord_env) == ["NotHost", "NotHost"]
    assert table_text(table) == text
    assert labels(table) == TABLE_BUTTONS


async def test_cancel_by_a_member_with_manage_server(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    mods = guild.create_role("Mods", permissions=discord.Permissions(manage_guild=True))
    mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
    table = await start_game(channel, [ann, bob])

    asked = await mod.slash(channel, "steal cancel")
    assert asked.ephemeral
    assert labels(asked.response) == ["Yes, cancel the game", "No, keep playing"]
    await mod.click(asked.response, label="Yes, cancel the game")

    assert title(table) == "Steal the Bundle: game cancelled"
    assert f"Cancelled by **{mod.name}**" in description(table)
    assert buttons(table) == []
    assert await simcord_env.bot.storage.history.by_guild(guild.id) == []


async def test_cancel_command_on_a_lobby(simcord_env, channel, players):
    ann, bob = players[:2]
    nothing = await ann.slash(channel, "steal cancel")
    assert nothing.response.content.startswith("There is no game running here.")
    assert answered_errors(simcord_env) == ["NoGame"]
    lobby = (await ann.slash(channel, "steal new")).response
    await bob.click(lobby, label="Join")

    asked = await ann.slash(channel, "steal cancel")
    assert asked.response.content.startswith("Cancel this lobby?")
    await ann.click(asked.response, label="Yes, cancel the lobby")

    assert title(lobby) == "Steal the Bundle: lobby cancelled"
    assert buttons(lobby) == []
