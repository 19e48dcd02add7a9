"""The hand as players use it: one click a move, greyed moves in forced play, older hands
deleted once a newer one is open, open hands that follow every move and the end of the game,
and the turn ping's My hand once a hand can no longer be edited."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.adapter.presenter.intake import NUDGE_AFTER
from bot.ui import hand_message as hand_ui
from bot.ui import ids
from tests.e2e.support.helpers import (
    buttons,
    components,
    gone,
    hand_cards,
    images,
    is_over,
    moves_of,
    open_hand,
    plain,
    play_one,
    seat_field,
    start_game,
    table_text,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import bot_message, game_id_of, quick, stored_moves

PING = "your turn in Steal the Bundle!"


def callbacks(env) -> int:
    """How many interactions the bot has answered so far (each click is one)."""
    return sum(1 for r in env.http_requests if r.path.endswith("/callback"))


async def until_offered(env, table, members, words: str, limit: int = 150):
    """Play first moves until the player to act is offered a move whose label has `words`.
    Returns (player, their open hand, that move's button)."""
    hands: dict[int, Any] = {}
    for _ in range(limit):
        assert not is_over(table), f"no move with {words!r} came up"
        player = whose_turn(table, members)
        hand = hands.get(player.id)
        if hand is None or not buttons(hand):
            hand = hands[player.id] = await open_hand(table, player)
        offered = [b for b in moves_of(hand) if words in b["label"] and not b.get("disabled")]
        if offered:
            return player, hand, offered[0]
        await play_one(table, members, hands)
    pytest.fail(f"no move with {words!r} came up")


@pytest.mark.parametrize(
    ("words", "logged"),
    [(" → capture ", " captured "), (" → steal ", " stole "), (" → trail", " trailed ")],
)
async def test_a_move_is_one_click_from_an_open_hand(simcord_env, channel, players, words, logged):
    table = await start_game(channel, players[:3])
    player, hand, move = await until_offered(simcord_env, table, players[:3], words)
    card = move["label"].split(" → ")[0]
    game_id = game_id_of(table)
    played_before = len(await stored_moves(simcord_env, game_id))
    clicks_before = callbacks(simcord_env)

    await player.click(hand, custom_id=move["custom_id"])

    assert callbacks(simcord_env) - clicks_before == 1  # one click, one interaction
    assert len(await stored_moves(simcord_env, game_id)) == played_before + 1
    assert card not in hand_cards(hand)
    log = [line for line in table_text(table).splitlines() if logged in line]
    assert any(player.name in line and card in line for line in log), table_text(table)


async def test_forced_play_greys_the_moves_the_rules_forbid(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two, rules="traditional")
    player, hand, move = await until_offered(simcord_env, table, two, " → capture ")
    card = move["label"].split(" → ")[0]

    greyed = [b for b in moves_of(hand) if b.get("disabled")]
    assert f"{card} → trail 🚫" in [b["label"] for b in greyed]  # it can capture: it must
    assert all(not b.get("disabled") for b in moves_of(hand) if " → capture " in b["label"])
    assert (
        "-# 🚫 moves aren't allowed here: a card must steal if it can, else capture if it can."
        in text_of(hand)
    )
    await player.click(hand, custom_id=move["custom_id"])
    assert card not in hand_cards(hand)


async def test_an_older_hand_is_deleted(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    older = await open_hand(table, first)
    assert moves_of(older)

    newer = await open_hand(table, first)

    assert gone(simcord_env, older)  # nothing stale is left: no "moved" stub either
    assert moves_of(newer) and "**Your turn**" in text_of(newer)
    await first.click(newer, custom_id=moves_of(newer)[0]["custom_id"])
    assert not gone(simcord_env, newer) and "**Your turn**" not in text_of(newer)


async def test_racing_clicks_on_two_copies_leave_one_live_hand(
    simcord_env, channel, players, monkeypatch
):
    """Clicks on two copies of one's hand at once: the copy clicked first is still being
    answered when the second click makes the other the live one. It is deleted once its
    answer is in, never left frozen as "out of date" with greyed buttons."""
    two = players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    sessions = simcord_env.bot.app.sessions
    real_play, slow = sessions.play, [True]

    async def play(*args, **kwargs):
        if slow.pop() if slow else False:  # the first click's move waits on the database
            await asyncio.sleep(1.0)
        return await real_play(*args, **kwargs)

    monkeypatch.setattr(sessions, "play", play)
    older = await open_hand(table, first)
    with quick(simcord_env, 0.3):
        await first.click(older, custom_id=moves_of(older)[0]["custom_id"])  # slow: unanswered
        newer = (await first.slash(channel, "steal hand")).response  # a copy, meanwhile
    await simcord_env.advance_time(1.5)

    assert gone(simcord_env, older)  # deleted once its click was answered
    assert not gone(simcord_env, newer)
    assert "out of date" not in text_of(newer)
    assert f"It's {whose_turn(table, two).name}'s turn." in text_of(newer)  # it follows


async def test_a_hand_lists_the_moves_since_your_turn_with_a_steal_marked(
    simcord_env, channel, players
):
    three = players[:3]
    table = await start_game(channel, three)
    thief, hand, steal = await until_offered(simcord_env, table, three, " → steal ")
    victim = next(m for m in three if f"steal {m.name}'s" in steal["label"])
    await thief.click(hand, custom_id=steal["custom_id"])
    waiting = text_of(hand).splitlines()  # the thief's hand, waiting: what was just played
    assert any(line.startswith("-# ") and f"{thief.name} (you) stole" in line for line in waiting)
    hands: dict[int, Any] = {}
    while whose_turn(table, three) is not victim:
        await play_one(table, three, hands)

    shown = text_of(await open_hand(table, victim)).splitlines()

    since = [line for line in shown if line.startswith("-# ")]
    assert len(since) == 2, shown  # one move for each other seat, since the victim's last
    robbed = [line for line in since if line.startswith("-# ❗ **")]
    assert len(robbed) == 1 and f"{thief.name} stole" in robbed[0], since
    others = [m.name for m in three if m is not victim]
    assert all(any(name in line for name in others) for line in since)


async def test_every_open_hand_follows_each_move(simcord_env, channel, players):
    three = players[:3]
    table = await start_game(channel, three)
    hands = {m.id: await open_hand(table, m) for m in three}
    for _ in range(4):
        await play_one(table, three, hands)
        nxt = whose_turn(table, three)
        for member in three:
            # every hand holds the cards the table counts for its seat, after each move
            held = seat_field(table, member)[1].rpartition("Hand: ")[2]
            assert f"{len(hand_cards(hands[member.id]))} card" in held, held
            words = text_of(hands[member.id])
            if member is nxt:
                assert "**Your turn**" in words
            else:
                assert f"It's {nxt.name}'s turn." in words
                assert not hands[member.id].attachments  # a waiting hand draws no picture
                assert all(b.get("disabled") for b in buttons(hands[member.id]))
            assert "Pool:" not in words  # no repeat of the table


async def test_an_empty_hand_between_deals_says_so_in_one_line(simcord_env, channel, players):
    three = players[:3]
    table = await start_game(channel, three)
    hands: dict[int, Any] = {}
    while True:  # until a player has played their last card and the others still hold some
        await play_one(table, three, hands)
        held = {m: seat_field(table, m)[1].endswith("Hand: 0 cards") for m in three}
        if any(held.values()) and not all(held.values()):
            break
    emptied = next(m for m, empty in held.items() if empty)
    hand = await open_hand(table, emptied)

    words = text_of(hand)
    assert "No cards in your hand: new cards once everyone has played." in words
    assert images(hand) == [] and hand.attachments == []  # no blank picture
    assert buttons(hand) == []


async def test_open_hands_show_the_result_at_the_end(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    hands = {m.id: await open_hand(table, m) for m in two}
    while not is_over(table):
        await play_one(table, two, hands)
    for member in two:
        words = text_of(hands[member.id])
        assert words.startswith("🏁 The game is over. "), words  # one line: a short message
        assert " wins with " not in words and "share the win" not in words  # the table says it
        assert f"{member.name} (you): " in words
        assert buttons(hands[member.id]) == []


@pytest.mark.bot_options(turn_seconds=None)
async def test_the_turn_ping_offers_my_hand_once_the_hand_expired(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    second = next(m for m in two if m is not first)
    mine = await open_hand(table, first)
    theirs = await open_hand(table, second)

    await first.click(mine, custom_id=moves_of(mine)[0]["custom_id"])
    # Their open hand wakes up for their turn: no ping, until it sits idle a while.
    assert not [m for m in channel.history() if PING in m.content]
    assert "**Your turn**" in text_of(theirs)
    await simcord_env.advance_time(NUDGE_AFTER)
    ping = [m for m in channel.history() if PING in m.content][-1]
    assert ping.content.startswith(second.mention)
    assert buttons(ping) == []  # their open hand follows the game: nothing to click here

    await simcord_env.advance_time(15 * 60)  # the first player's hand can no longer be edited
    await second.click(theirs, custom_id=moves_of(theirs)[0]["custom_id"])

    ping = [m for m in channel.history() if PING in m.content][-1]
    assert ping.content.startswith(first.mention)
    assert [b["label"] for b in buttons(ping)] == ["My hand"]
    fresh = (await first.click(ping, label="My hand")).response
    assert fresh.ephemeral and "**Your turn**" in text_of(fresh)
    assert [b for b in moves_of(fresh) if not b.get("disabled")]


async def test_an_old_card_button_opens_the_current_hand(simcord_env, channel, players):
    """A hand drawn before one-click moves (its card buttons) still answers after an upgrade."""
    two = players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    game_id = game_id_of(table)
    live = simcord_env.bot.sessions.table(game_id)
    card = live.hand(live.seat_of(first.id)).view.hand[0]
    old = bot_message(simcord_env, channel, [ids.card(game_id, 0, card), ids.back(game_id, 0)])

    shown = (await first.click(old, custom_id=ids.card(game_id, 0, card))).response

    assert "**Your turn**" in text_of(shown) and moves_of(shown)
    assert len(await stored_moves(simcord_env, game_id)) == 0  # nothing was played


async def test_too_many_moves_for_buttons_become_a_menu_per_card(
    simcord_env, channel, players, monkeypatch
):
    monkeypatch.setattr(hand_ui, "MAX_COMPONENTS", 12)  # as a 4-player double-bundles hand
    two = players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    hand = await open_hand(table, first)
    menus = [c for c in components(hand) if c.get("type") == 3]
    assert menus and "a card's menu lists them all" in text_of(hand)
    menu = menus[0]
    option = menu["options"][0]
    card = option["label"].split(" → ")[0]
    game_id = game_id_of(table)

    await first.select(hand, [option["value"]], custom_id=menu["custom_id"])

    assert len(await stored_moves(simcord_env, game_id)) == 1
    assert card not in hand_cards(hand)


async def test_open_hands_of_a_cancelled_game_say_so(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    hands = {m.id: await open_hand(table, m) for m in two}

    asked = await two[0].slash(channel, "steal cancel")
    await two[0].click(asked.response, label="Yes, cancel the game")

    for member in two:
        hand = hands[member.id]
        assert plain(text_of(hand)) == "This game has ended. Start a new one with /steal new."
        assert buttons(hand) == []
