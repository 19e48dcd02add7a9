"""The hand as players see it: /steal hand and the hand's buttons (private, one click a
move, updated in place)."""

from __future__ import annotations

import pytest

from tests.e2e.support.helpers import (
    buttons,
    cards_of,
    enabled,
    fields,
    hand_cards,
    moves_of,
    seat_field,
    start_game,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import open_hand
from tests.e2e.support.running_game import answered_errors

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")


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
