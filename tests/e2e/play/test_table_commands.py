"""The table as players see it: the table message and its Rules button, the turn ping,
/steal table and /steal rules."""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.e2e.support.helpers import (
    alt_text,
    buttons,
    description,
    fields,
    footer,
    hand_cards,
    images,
    labels,
    moves_of,
    play_one,
    pool_cards,
    seat_field,
    start_game,
    stock_text,
    table_text,
    text_of,
    texts,
    title,
    whose_turn,
)
from tests.e2e.support.play import open_hand
from tests.e2e.support.running_game import (
    PING,
    TABLE_BUTTONS,
    TURN_LINE,
    answered_errors,
    pings,
)
from tests.e2e.support.screens import go_to
from tests.e2e.support.screens import text as screen_text

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")


def ping_posts(env, channel) -> list[Any]:
    """The turn pings sent: through a click's interaction webhook, or the channel's route."""
    paths = f"/channels/{channel.id}/messages", "/webhooks/"
    return [
        r
        for r in env.http_requests
        if r.method == "POST" and r.path.startswith(paths) and "/messages/" not in r.path
        and PING in ((r.json or {}).get("content") or "")
    ]  # fmt: skip


def jump(guild, channel, message_id: int) -> str:
    return f"https://discord.com/channels/{guild.id}/{channel.id}/{message_id}"


async def capture_in_hand(table, members):
    """Play moves until the player to act can capture. Returns (player, their open hand
    message, the capture's button, the card it plays)."""
    hands: dict[int, Any] = {}
    for _ in range(60):
        player = whose_turn(table, members)
        hand = await open_hand(player, table)
        takes = [b for b in moves_of(hand) if " → capture " in b["label"]]
        if takes:
            return player, hand, takes[0], takes[0]["label"].split(" → ")[0]
        await play_one(table, members, hands)
    pytest.fail("no capture came up")


# ----- the table message


async def test_table_message_shows_the_game(simcord_env, channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    start = simcord_env.now().timestamp()

    assert title(table) == "Steal the Bundle"
    (turn_line,) = description(table).splitlines()
    match = TURN_LINE.match(turn_line)
    assert match, description(table)
    first = whose_turn(table, players)
    assert match.group(1) == first.name
    assert int(match.group(2)) == int(start + 120)  # the 2-minute turn countdown
    pool = pool_cards(table)
    assert len(pool) == 4
    assert stock_text(table) == f"Stock: {52 - 2 * 4 - len(pool)} cards"
    assert alt_text(table).startswith(f"Steal the Bundle · Turn: {first.name}\n")
    for member in (ann, bob):
        name, value = seat_field(table, member)
        assert name == member.name
        assert value == "Bundle: empty\nHand: 4 cards"
    # under the picture, only the turn: the pool and seats are in the picture (and its alt)
    assert "Pool:" not in table_text(table) and "Bundle:" not in table_text(table)
    assert footer(table).startswith("Standard · French")
    assert footer(table).endswith("`/steal rules`")
    assert "Last moves" not in fields(table)
    assert labels(table) == TABLE_BUTTONS

    # one move, 30 s later: the table says what happened, who is next, and a new countdown
    await simcord_env.advance_time(30)
    player, hand, capture, played = await capture_in_hand(table, players)
    held = len(hand_cards(hand))
    assert seat_field(table, player)[1].endswith(f"Hand: {held} cards")
    await player.click(hand, custom_id=capture["custom_id"])

    other = bob if player is ann else ann
    assert whose_turn(table, players) is other
    match = TURN_LINE.match(description(table).splitlines()[0])
    assert match and int(match.group(2)) == int(start + 30 + 120)
    assert alt_text(table).startswith(f"Steal the Bundle · Turn: {other.name}\n")
    assert seat_field(table, player)[0] == player.name
    top = re.escape(played)
    left = f"{held - 1} card{'' if held == 2 else 's'}"
    assert re.fullmatch(
        rf"Bundle: \d+ cards, top {top}\nHand: {left}", seat_field(table, player)[1]
    )
    log = fields(table)["Last moves"].splitlines()
    assert re.fullmatch(rf"{player.name} captured \d+ cards? with {re.escape(played)}", log[-1])
    assert texts(table)[1] == f"-# {log[-1]}"  # the last move, in words under the picture
    assert played not in pool_cards(table)


async def test_table_rules_button_answers_privately(channel, players):
    table = await start_game(channel, players[:2], rules="classic")
    before = [m.id for m in channel.history()]

    result = await players[2].click(table, label="Rules")  # anyone may read them

    assert result.ephemeral
    assert screen_text(result.response).startswith("## 📖 Classic rules\n")
    await players[2].click(result.response, label="Full rules")
    assert "You must capture or steal when you can." in screen_text(result.response)
    assert [m.id for m in channel.history()] == before


# ----- the turn ping


async def test_turn_ping_names_only_the_next_player_and_replaces_the_last(
    simcord_env, guild, channel, players
):
    members = players[:3]
    table = await start_game(channel, members)
    hands: dict[int, Any] = {}

    seen = []
    for _ in range(3):  # each player's first turn: no hand open yet, so a ping
        player = whose_turn(table, members)
        current = pings(channel)
        assert len(current) == 1, [m.content for m in current]
        ping = current[0]
        assert ping.content.startswith(f"{player.mention}, {PING}")
        assert jump(guild, channel, table.id) in ping.content
        assert [u.id for u in ping.mentions] == [player.id]
        post = ping_posts(simcord_env, channel)[-1]
        mentions = post.json["allowed_mentions"]
        assert [int(u) for u in mentions["users"]] == [player.id]
        assert mentions.get("parse", []) == []
        assert not mentions.get("roles")
        seen.append(ping.id)
        await play_one(table, members, hands)

    # The next player's hand is open and wakes up for their turn: the old ping just goes.
    assert pings(channel) == []
    assert len(set(seen)) == 3  # a new ping for every turn that needed one
    deleted = {
        int(r.path.rsplit("/", 1)[1])
        for r in simcord_env.http_requests
        if r.method == "DELETE" and "/messages/" in r.path
    }
    assert set(seen) <= deleted  # each old ping was deleted
    assert len(ping_posts(simcord_env, channel)) == 3


# ----- /steal table


async def test_table_command_reposts_the_table(simcord_env, guild, channel, players):
    ann, bob = players[:2]
    old = await start_game(channel, [ann, bob])
    text = table_text(old)

    result = await bob.slash(channel, "steal table")

    assert not result.ephemeral
    new = result.response
    assert new.id != old.id
    assert [m.id for m in channel.history() if texts(m)][-1] == new.id  # the newest table
    (ping,) = pings(channel)  # the turn ping was replaced to point at the new table
    assert jump(guild, channel, new.id) in ping.content
    assert table_text(new) == text
    assert labels(new) == TABLE_BUTTONS
    assert description(old) == f"The table moved: {jump(guild, channel, new.id)}"
    assert images(new) == ["table.png"] and len(new.attachments) == 1
    assert buttons(old) == []

    # the new table is the live one: My hand works and moves show up there
    player = whose_turn(new, players)
    hand = await open_hand(player, new)
    assert hand_cards(hand) and "**Your turn**" in text_of(hand)
    await play_one(new, players, {player.id: hand})
    assert "Last moves" in fields(new)
    assert whose_turn(new, players) is not player
    assert description(old).startswith("The table moved")
    assert jump(guild, channel, new.id) in pings(channel)[-1].content
    # /steal new now links to the new table
    again = await players[2].slash(channel, "steal new")
    assert go_to(again.response) == jump(guild, channel, new.id)


async def test_table_command_without_a_game(simcord_env, channel, players):
    result = await players[0].slash(channel, "steal table")

    assert result.ephemeral
    assert result.response.content.startswith("There is no game running here.")
    assert answered_errors(simcord_env) == ["NoGame"]
    assert channel.history() == []


# ----- /steal rules


async def test_rules_without_a_game_and_with_a_preset(channel, players):
    ann = players[0]

    plain = await ann.slash(channel, "steal rules")
    assert plain.ephemeral
    assert screen_text(plain.response).startswith("## 📖 Standard rules\n")
    await ann.click(plain.response, label="Full rules")
    assert "• The biggest bundle wins;" in screen_text(plain.response)
    await ann.click(plain.response, label="Options & presets")
    presets = screen_text(plain.response)
    for name in ("standard", "classic", "casita", "rubamazzo", "friendly", "traditional"):
        assert f"**{name}**" in presets

    casita = await ann.slash(channel, "steal rules", preset="casita")
    assert casita.ephemeral
    assert screen_text(casita.response).startswith("## 📖 Casita rules\n")
    await ann.click(casita.response, label="Full rules")
    assert "Spanish 40-card deck" in screen_text(casita.response)
    assert channel.history() == []


async def test_rules_in_a_classic_game_show_the_classic_rules(channel, players):
    await start_game(channel, players[:2], rules="classic")

    result = await players[3].slash(channel, "steal rules")

    assert result.ephemeral
    assert screen_text(result.response).startswith("## 📖 Classic rules\n")
    await players[3].click(result.response, label="Full rules")
    assert "You must capture or steal when you can." in screen_text(result.response)
    assert "An empty pool is not refilled." in screen_text(result.response)
