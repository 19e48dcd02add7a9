"""The running game as players see it: /steal hand, table, rules, forfeit and cancel, the table
message, the hand buttons and the turn ping."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

from tests.e2e.support.helpers import (
    alt_text,
    buttons,
    cards_of,
    description,
    enabled,
    fields,
    footer,
    hand_cards,
    images,
    is_over,
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
from tests.e2e.support.screens import go_to
from tests.e2e.support.screens import text as screen_text

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")

PING = "your turn in Steal the Bundle!"
TURN_LINE = re.compile(r"^\S+ Turn: \*\*(.+?)\*\* · auto-play <t:(\d+):R>$")
TABLE_BUTTONS = ["My hand", "Rules"]
GREEN = discord.ButtonStyle.success.value


def pings(channel) -> list[discord.Message]:
    return [m for m in channel.history() if PING in m.content]


def ping_posts(env, channel) -> list[Any]:
    """The turn pings sent: through a click's interaction webhook, or the channel's route."""
    paths = f"/channels/{channel.id}/messages", "/webhooks/"
    return [
        r
        for r in env.http_requests
        if r.method == "POST" and r.path.startswith(paths) and "/messages/" not in r.path
        and PING in ((r.json or {}).get("content") or "")
    ]  # fmt: skip


def answered_errors(env) -> list[str]:
    """The session errors the bot answered slash commands with. SimCord records every error a
    command raised, even one the cog answered; reading them here acknowledges them."""
    return [type(getattr(e, "original", e)).__name__ for e in env.errors]


def jump(guild, channel, message_id: int) -> str:
    return f"https://discord.com/channels/{guild.id}/{channel.id}/{message_id}"


def over(table) -> bool:
    return is_over(table)


async def open_hand(member, table):
    """The member's hand, opened with the table's My hand button."""
    result = await member.click(table, label="My hand")
    assert result.ephemeral
    return result.response


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


# ----- /steal hand and the hand buttons


async def test_hand_command_is_private_with_its_cards_and_moves(simcord_env, channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])

    result = await ann.slash(channel, "steal hand")

    assert result.ephemeral
    hand = result.response
    cards = hand_cards(hand)
    assert len(cards) == 4
    if whose_turn(table, players) is ann:  # a button per move, each card's first
        assert [a.filename for a in hand.attachments] == ["hand.png"]  # the table from her seat
        assert {b["label"].split(" → ")[0] for b in moves_of(hand)} == set(cards)
    else:  # a greyed button per card, no picture
        assert not hand.attachments
        assert [b["label"] for b in cards_of(hand)] == cards
    assert seat_field(table, ann)[1].endswith("Hand: 4 cards")
    assert "Pool:" not in text_of(hand)  # the hand does not repeat the table
    assert hand.id not in [m.id for m in channel.history()]  # nobody else sees it


async def test_hand_from_a_non_player_and_without_a_game(simcord_env, guild, channel, players):
    ann, bob, _, dan = players
    table = await start_game(channel, [ann, bob])

    stranger = await dan.slash(channel, "steal hand")
    assert stranger.ephemeral
    assert stranger.response.content.startswith("You're not in this game.")
    button = await dan.click(table, label="My hand")
    assert button.ephemeral
    assert button.response.content.startswith("You're not in this game.")

    empty = guild.create_text_channel("quiet")
    nothing = await ann.slash(empty, "steal hand")
    assert nothing.ephemeral
    assert nothing.response.content.startswith("There is no game running here.")
    assert answered_errors(simcord_env) == ["NotInGame", "NoGame"]


async def test_hand_when_it_is_not_your_turn(channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    first = whose_turn(table, players)
    second = bob if first is ann else ann

    waiting = await open_hand(second, table)
    acting = await open_hand(first, table)

    assert f"It's {first.name}'s turn." in text_of(waiting)
    assert "Your turn" not in text_of(waiting)
    assert buttons(waiting) and enabled(waiting) == []  # every card disabled
    assert not waiting.attachments  # short: no picture while waiting
    assert "**Your turn**" in text_of(acting)
    moves = moves_of(acting)
    assert moves and enabled(acting) == moves + [b for b in buttons(acting) if "Hint" in b["label"]]
    assert {b["label"].split(" → ")[0] for b in moves} == set(hand_cards(acting))


async def test_a_trail_is_one_click_and_the_table_says_so(channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    player = whose_turn(table, players)
    hand = await open_hand(player, table)
    trail = next(b for b in moves_of(hand) if b["label"].endswith(" → trail"))
    card = trail["label"].split(" → ")[0]

    await player.click(hand, custom_id=trail["custom_id"])

    assert card not in hand_cards(hand)
    assert fields(table)["Last moves"].splitlines()[-1] == f"{player.name} trailed {card}"


async def test_hand_updates_in_place_and_refreshes_when_the_turn_returns(channel, players):
    ann, bob = players[:2]
    table = await start_game(channel, [ann, bob])
    first = whose_turn(table, players)
    second = bob if first is ann else ann
    waiting = await open_hand(second, table)
    assert f"It's {first.name}'s turn." in text_of(waiting)
    hand = await open_hand(first, table)
    before = hand_cards(hand)

    # the player to act moves: their own hand message changes in place
    result = await first.click(hand, custom_id=moves_of(hand)[0]["custom_id"])
    assert result.response.id == hand.id
    assert len(hand_cards(hand)) == len(before) - 1
    assert f"It's {second.name}'s turn." in text_of(hand)
    assert enabled(hand) == []

    # the other player's open hand was refreshed without a click: now it is their turn
    assert "**Your turn**" in text_of(waiting)
    assert len(enabled(waiting)) == len(buttons(waiting)) > 0

    # and when they move, the first player's hand message says it is their turn again
    await second.click(waiting, custom_id=moves_of(waiting)[0]["custom_id"])
    assert whose_turn(table, players) is first
    assert "**Your turn**" in text_of(hand)
    assert {b["label"].split(" → ")[0] for b in moves_of(hand)} == set(hand_cards(hand))
    assert len(hand_cards(hand)) == len(before) - 1


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
