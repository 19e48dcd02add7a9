"""Reliability of clicks: stale, foreign, doubled and crafted clicks. Every test drives the bot
as players would and asserts what they see (and, where the point is storage, what was stored).

SimCord note used below: two operations may not overlap (`asyncio.gather` of two clicks raises
SetupError), so the in-flight double click is delivered with `press_together`, built on
SimCord's own dispatch.
"""

from __future__ import annotations

import asyncio

import pytest
from simcord.backend import serializers
from simcord.components import walk_components
from simcord.enums import ComponentType, InteractionType
from simcord.interactions import base_payload
from simcord.results import InteractionResult

from bot.domain.options import Options
from bot.engine import preset
from bot.session import Sessions, StaleHand
from bot.storage import Storage
from tests.e2e.support.helpers import (
    enabled,
    gone,
    start_game,
    table_text,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import (
    bot_message,
    card_ids,
    choose,
    game_id_of,
    hand_line,
    last_moves,
    move_button,
    open_hand,
    playable,
    stored_moves,
)

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")

UNKNOWN_BUTTON = (
    "That button isn't one I know (it may be from an old message). Nothing happened; use"
    " `/steal table` for a fresh table, or `/steal new` for a new game."
)
GAME_GONE = "This game has ended. Start a new one with `/steal new`."
LOBBY_GONE = "This lobby has closed. Start a new one with `/steal new`."


# ----- helpers


def press_together(env, presses) -> list[tuple[InteractionResult, str]]:
    """Deliver several button clicks to the bot before it handles any: what a fast double
    click does. Built from the same calls as SimCord's `click` (which settles after each click
    and refuses to overlap another), so settle with `env.settle()` afterwards. Returns each
    click's result and interaction token."""
    backend = env.backend
    out = []
    for member, message, custom_id in presses:
        stored = backend.get_message(message.channel_id, message.id)
        record, payload = base_payload(
            backend,
            type=InteractionType.MESSAGE_COMPONENT,
            channel_id=stored.channel_id,
            guild_id=member.guild.id,
            user_id=member.id,
            data={"custom_id": custom_id, "component_type": ComponentType.BUTTON},
        )
        payload["message"] = dict(serializers.message_payload(backend, stored))
        record.source_message_id = stored.id
        out.append((InteractionResult(env, record), record.token))
        backend.emit("INTERACTION_CREATE", payload)
    return out


def answers(env, token: str) -> list[str]:
    """The message texts the bot sent for one interaction: its callback and any later edit of
    the original response (two clicks on one message share that message, so its live view
    cannot tell them apart)."""
    texts = []
    for r in env.http_requests:
        if f"/{token}/" not in r.path or not isinstance(r.json, dict):
            continue
        data = r.json.get("data", r.json) if r.path.endswith("/callback") else r.json
        if not isinstance(data, dict):
            continue
        layout = data.get("components") or []
        shown = [c["content"] for c in walk_components(layout) if c.get("type") == 10]
        text = data.get("content") or "\n".join(shown)
        if text:
            texts.append(text)
    return texts


# ----- 1-3: stale, foreign and double clicks


async def test_stale_click_shows_out_of_date_and_the_current_hand(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    stale_move = playable(hand)[0]["custom_id"]  # kept, as an old client or copy would
    await choose(first, hand)
    game_id = game_id_of(table)
    assert len(await stored_moves(simcord_env, game_id)) == 1
    old = bot_message(simcord_env, channel, [stale_move])
    after, ids_after = hand_line(hand), card_ids(hand)

    result = await first.click(old, custom_id=stale_move)

    shown = result.response
    assert shown.id == old.id
    assert text_of(shown).startswith(
        "### 🃏 Your hand\n⚠️ This hand is out of date; here is your current hand."
    )
    assert hand_line(shown) == after  # the hand after the move
    assert card_ids(shown) == ids_after  # buttons of the current version
    assert gone(simcord_env, hand)  # the clicked message is the hand now: the older is deleted
    assert all(f":{game_id}:1:" in cid for cid in card_ids(shown))
    assert not enabled(shown)  # it is the other player's turn now
    assert len(await stored_moves(simcord_env, game_id)) == 1  # nothing was played


async def test_foreign_click_on_my_hand_is_refused_privately(simcord_env, channel, players):
    table = await start_game(channel, players[:2])
    before = table_text(table)
    outsider = players[3]

    result = await outsider.click(table, label="My hand")

    assert result.ephemeral
    assert result.response.content.startswith("You're not in this game.")
    assert table_text(table) == before


async def test_same_card_clicked_twice_makes_one_move(simcord_env, channel, players):
    """The second click of a double click reaches the bot after the first was played (from
    a second copy of the same hand: the same custom_id)."""
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    move = playable(hand)[0]["custom_id"]
    copy = bot_message(simcord_env, channel, [move])  # a second copy of the same button

    await first.click(hand, custom_id=move)
    turn_after = whose_turn(table, two)
    moves_shown = last_moves(table)
    second = await first.click(copy, custom_id=move)

    assert "This hand is out of date" in text_of(second.response)
    assert len(await stored_moves(simcord_env, game_id)) == 1
    assert whose_turn(table, two) is turn_after is not first
    assert last_moves(table) == moves_shown and len(moves_shown) == 1


async def test_double_click_in_flight_makes_one_move(simcord_env, channel, players):
    """Both clicks of a double click are delivered before the bot handles either."""
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    target, custom_id = await move_button(simcord_env, first, hand)

    presses = press_together(simcord_env, [(first, target, custom_id)] * 2)
    await simcord_env.settle()

    assert all(result.acknowledged for result, _ in presses)
    assert len(await stored_moves(simcord_env, game_id)) == 1
    said = [answers(simcord_env, token) for _, token in presses]
    assert all(len(texts) == 1 for texts in said), said
    played, refused = sorted((texts[0] for texts in said), key=lambda t: "out of date" in t)
    assert played.startswith("### 🃏 Your hand") and "out of date" not in played
    assert refused.startswith("### 🃏 Your hand\n⚠️ This hand is out of date")
    assert whose_turn(table, two) is not first
    assert len(last_moves(table)) == 1


async def test_concurrent_session_plays_one_wins_the_other_is_stale(tmp_path):
    """The session-level guarantee behind the double click (SimCord cannot overlap two
    clicks): two plays of the same move at the same version, at once."""
    storage = await Storage.open(tmp_path / "s.db")
    sessions = Sessions(
        storage, options=Options(turn_seconds=None, lobby_seconds=None, seed_source=lambda: 7)
    )
    try:
        await sessions.open_lobby(1, 10, "a", preset("standard"))
        await sessions.join(10, "b")
        table = await sessions.start(10, "a")
        mover = table.seats[table.turn]
        hand = await sessions.hand(table.game_id, mover)
        results = await asyncio.gather(
            sessions.play(table.game_id, mover, hand.legal[0], hand.version),
            sessions.play(table.game_id, mover, hand.legal[0], hand.version),
            return_exceptions=True,
        )
        wins = [r for r in results if not isinstance(r, BaseException)]
        losses = [r for r in results if isinstance(r, BaseException)]
        assert len(wins) == 1 and wins[0].version == 1
        assert len(losses) == 1 and isinstance(losses[0], StaleHand)
        assert len(await storage.games.moves(table.game_id)) == 1
        assert table.version == 1
    finally:
        await sessions.close()
        await storage.close()


# ----- 4: crafted and unknown custom_ids

CRAFTED = [
    "hello",
    "stb",
    "stb:",
    "stb:card",
    "stb:card:1:0",
    "stb:card:1:0:ZZ",
    "stb:card:1:0:9H:extra",
    "stb:card:99999999999999999999999:0:9H",
    "stb:card:1:99999999999999999999999:9H",
    "stb:card:-1:0:9H",
    "stb:move:1:0:9H:x:-:-:-",
    "stb:move:1:0:9H:t:7:-:-",
    "stb:lobby:explode:1",
    "stb:table:hand:1:2",
    "stb:table:hand:1\n",
    "STB:table:hand:1",
    "stb:confirm:cancel:1:maybe",
    "🃏" * 10,
    "x" * 100,
]


async def test_crafted_custom_ids_get_a_polite_private_answer(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    before = table_text(table)
    crafted = bot_message(simcord_env, channel, CRAFTED)

    for custom_id in CRAFTED:
        result = await players[0].click(crafted, custom_id=custom_id)
        assert result.acknowledged, custom_id
        assert result.ephemeral, custom_id
        assert result.response.content == UNKNOWN_BUTTON, custom_id

    assert table_text(table) == before
    assert await stored_moves(simcord_env, game_id_of(table)) == []


async def test_well_formed_ids_for_a_game_that_does_not_exist(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)  # a game runs here, but not game 999
    gone = {
        "stb:card:999:0:9H": GAME_GONE,
        "stb:move:999:0:9H:t:-:-:-": GAME_GONE,
        "stb:back:999:0": GAME_GONE,
        "stb:table:hand:999": GAME_GONE,
        "stb:table:rules:999": GAME_GONE,
        "stb:lobby:join:999": LOBBY_GONE,
        "stb:lobby:start:999": LOBBY_GONE,
    }
    crafted = bot_message(simcord_env, channel, [*gone, "stb:confirm:cancel:999:yes"])

    for custom_id, answer in gone.items():
        result = await players[0].click(crafted, custom_id=custom_id)
        assert result.acknowledged and result.ephemeral, custom_id
        assert result.response.content == answer, custom_id
    # A confirm button lives on an ephemeral question; it is answered by editing it.
    result = await players[0].click(crafted, custom_id="stb:confirm:cancel:999:yes")
    assert result.acknowledged
    assert result.response.content.startswith("That game has already ended.")
    assert "Turn:" in table_text(table)  # the real game was not touched
