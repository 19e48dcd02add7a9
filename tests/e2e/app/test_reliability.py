"""Reliability: stale, foreign, doubled and crafted clicks, turn timers, restarts, Discord and
database failures. Every test drives the bot as players would and asserts what they see (and,
where the point is storage, what was stored).

SimCord notes used below:
- A sleep whose wall-clock fallback would fire within `env.settle_timeout` (5 s by default) is
  waited for in real time by every operation's settle; a longer one is parked until
  `advance_time`. Tests that need a short bot timer (retry delays, the 2 s defer budget) to
  stay parked lower `settle_timeout` around the one operation (`quick`); that one operation
  must then settle within it in real time. The away delay is a bot option: the away tests
  set it longer than the settle timeout (`AWAY`), so its timer is parked at any machine load.
- Two operations may not overlap (`asyncio.gather` of two clicks raises SetupError), so the
  in-flight double click is delivered with `press_together`, built on SimCord's own dispatch.
"""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
import pytest
from simcord.backend import serializers
from simcord.components import walk_components
from simcord.enums import ComponentType, InteractionType
from simcord.interactions import base_payload
from simcord.results import InteractionResult, ResponseMessage

from bot.client import StealBot
from bot.domain.options import Options
from bot.engine import preset
from bot.session import Sessions, StaleHand
from bot.storage import Storage
from bot.ui import hand_message as hand_ui
from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.helpers import (
    buttons,
    enabled,
    fields,
    gone,
    hand_cards,
    is_over,
    play_to_end,
    start_game,
    table_facts,
    table_text,
    text_of,
    title,
    whose_turn,
)
from tests.e2e.support.play import (
    SLOWER,
    bot_message,
    by_bot_token,
    choose,
    game_id_of,
    open_hand,
    playable,
    quick,
    slower_retries,
    stored_moves,
    table_patches,
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


def hand_line(message) -> str:
    """The "Your cards: ..." line of a hand message."""
    return " ".join(hand_cards(message))


def card_ids(message) -> list[str]:
    return [b["custom_id"] for b in buttons(message)]


def last_moves(table) -> list[str]:
    return fields(table).get("Last moves", "").splitlines()


def seat_name(table, name: str) -> str:
    """A player's name on the table with its marks, as the picture's description says it:
    "ann", "bob · away", ..."""
    for line in table_facts(table).splitlines():
        if line.startswith(f"{name} · "):
            return line.rpartition(" · Bundle")[0]
    raise AssertionError(table_facts(table))


async def move_button(env, member, hand) -> tuple[Any, str]:
    """The message and custom_id of a button that plays a move at once."""
    return hand, playable(hand)[0]["custom_id"]


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


def table_messages(channel) -> list[discord.Message]:
    """The channel's table messages, oldest first."""
    return [m for m in channel.history() if (title(m) or "").startswith("Steal")]


def latest_table(channel) -> discord.Message:
    tables = table_messages(channel)
    assert tables, "no table in the channel"
    return tables[-1]


def live_table(env, channel) -> ResponseMessage:
    """A live view (like start_game's) of the newest table message."""
    return ResponseMessage(env, env.backend.get_message(channel.id, latest_table(channel).id))


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


# ----- 5: turn timeout, away seats

# The bot's away_delay here (1 s by default): longer than SimCord's settle timeout, so an away
# seat is played only when the test advances time past it.
AWAY = 6.0


def test_away_seats_are_played_within_two_seconds_by_default(db_path):
    """What the tests below check with AWAY: the bot's own delay is short."""
    assert 0 < StealBot(db_path).options.away_delay <= 2


@pytest.mark.bot_options(away_delay=AWAY)
async def test_timeouts_auto_play_then_away_then_back(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    absent = whose_turn(table, two)
    present = next(p for p in two if p is not absent)
    seat = 0 if absent is two[0] else 1

    async def present_plays():
        await choose(present, await open_hand(present, table))

    for n in range(1, 4):
        assert whose_turn(table, two) is absent
        await simcord_env.advance_time(121)
        moves = await stored_moves(simcord_env, game_id)
        assert moves[-1]["auto"] is True and moves[-1]["seat"] == seat, moves[-1]
        assert [m["auto"] for m in moves] == [True, False] * (n - 1) + [True]
        assert last_moves(table)[-1].endswith("(auto)"), last_moves(table)
        assert absent.name in last_moves(table)[-1]
        assert whose_turn(table, two) is present
        if n < 3:
            assert "away" not in seat_name(table, absent.name)
            await present_plays()

    assert seat_name(table, absent.name).endswith(" · away")
    assert not any("away" in seat_name(table, p.name) for p in [present])

    # Away: the bot plays for the seat away_delay after its turn comes, not 120 s.
    await present_plays()
    assert whose_turn(table, two) is absent
    await simcord_env.advance_time(AWAY - 1)
    assert whose_turn(table, two) is absent
    await simcord_env.advance_time(2)
    moves = await stored_moves(simcord_env, game_id)
    assert len(moves) == 7 and moves[-1]["auto"] is True and moves[-1]["seat"] == seat
    assert whose_turn(table, two) is present
    assert seat_name(table, absent.name).endswith(" · away")

    # The player comes back: on their turn they open their hand and play a card.
    await present_plays()
    result = await choose(absent, await open_hand(absent, table))
    assert "Your hand" in text_of(result.response)
    moves = await stored_moves(simcord_env, game_id)
    assert len(moves) == 9 and moves[-1]["auto"] is False and moves[-1]["seat"] == seat
    assert "away" not in seat_name(table, absent.name)
    assert not last_moves(table)[-1].endswith("(auto)")
    row = await simcord_env.bot.storage.games.get(game_id)
    assert row.state["session"]["away"] == []


@pytest.mark.bot_options(away_delay=AWAY)
async def test_an_away_player_is_back_as_soon_as_they_open_their_hand(
    simcord_env, channel, players
):
    two = players[:2]
    table = await start_game(channel, two)
    absent = whose_turn(table, two)
    present = next(p for p in two if p is not absent)
    for n in range(3):
        await simcord_env.advance_time(121)  # the absent player's turn runs out
        if n < 2:
            await choose(present, await open_hand(present, table))
    assert seat_name(table, absent.name).endswith(" · away")
    assert whose_turn(table, two) is present

    hand = await open_hand(absent, table)  # not their turn: just opening it brings them back
    assert "away" not in seat_name(table, absent.name)
    await choose(present, await open_hand(present, table))
    assert whose_turn(table, two) is absent
    await simcord_env.advance_time(AWAY + 4)  # an away seat would have been played by now
    assert whose_turn(table, two) is absent
    assert "**Your turn**" in text_of(hand) and "Auto-play" in text_of(hand)


# ----- 6: restart


@BOTH_BACKENDS
async def test_restart_old_buttons_work_and_the_game_finishes(
    simcord_env, db_path, channel, players
):
    three = players[:3]
    table = await start_game(channel, three)
    game_id = game_id_of(table)
    for _ in range(2):
        mover = whose_turn(table, three)
        await choose(mover, await open_hand(mover, table))
    mover = whose_turn(table, three)
    old_hand = await open_hand(mover, table)  # opened before the restart
    shown_before = table_text(table)
    old_bot = simcord_env.bot
    requests_before = len(simcord_env.http_requests)

    new_bot = make_bot(db_path)
    await simcord_env.restart_bot(new_bot)

    assert simcord_env.bot is new_bot
    # SimCord detaches the old bot (its tasks are cancelled) but never calls close() on it:
    # its database connection stays open unless the test closes it, as a real exit would.
    assert not old_bot.is_closed()
    await old_bot.storage.close()
    after_restart = simcord_env.http_requests[requests_before:]
    tables_after_restart = [m.id for m in table_messages(channel)]
    # The table shows the same game, the move log rebuilt from storage.
    assert table_text(live_table(simcord_env, channel)) == shown_before

    # Start-up reads no game: the table message is left as it stands until the game changes.
    assert not new_bot.sessions.table_of(game_id).loaded
    path = f"/channels/{channel.id}/messages/{table.id}"
    assert not [r for r in after_restart if r.path == path]
    log_before = fields(table).get("Last moves", "").splitlines()
    assert len(log_before) == 2

    # The old hand message's move button works with the new bot.
    result = await choose(mover, old_hand)
    assert "Your hand" in text_of(result.response)
    assert len(await stored_moves(simcord_env, game_id)) == 3
    # That move brings the same table message up to date, its move log rebuilt from storage.
    log_after = fields(table).get("Last moves", "").splitlines()
    assert log_after[:2] == log_before and len(log_after) >= 3, log_after
    # The old table's My hand works too, for every player.
    for player in three:
        hand = await open_hand(player, table)
        assert hand_line(hand)

    live = live_table(simcord_env, channel)  # the table the bot keeps up to date
    assert whose_turn(live, three) is not mover
    await play_to_end(live, three)
    assert is_over(live)
    row = await new_bot.storage.games.get(game_id)
    assert row.status == "finished"
    assert await new_bot.storage.history.get(game_id) is not None

    # The game went on in the same table message: no second table was posted.
    assert tables_after_restart == [table.id], "a second table was posted after the restart"
    assert [m.id for m in table_messages(channel)] == [table.id]
    assert is_over(table)


# ----- 7: Discord errors on the table and the ping


async def test_table_edit_500s_are_retried(simcord_env, channel, players, monkeypatch):
    slower_retries(monkeypatch)  # each retry fires on advance_time only
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    second = next(p for p in two if p is not first)
    hand = await open_hand(first, table)
    by_bot_token(simcord_env, table)
    path = f"/channels/{channel.id}/messages/{table.id}"
    patches = table_patches(simcord_env, channel, table.id)
    simcord_env.inject_error("PATCH", path, status=500, times=3)

    result = await choose(first, hand)

    assert whose_turn(table, two) is first  # the table edit failed; the retry is waiting
    assert "Your hand" in text_of(result.response)  # the move itself is not held up
    assert len(await stored_moves(simcord_env, game_id)) == 1
    await simcord_env.advance_time(SLOWER * (0.5 + 2.0 + 5.0 + 0.5))  # presenter.RETRIES

    assert table_patches(simcord_env, channel, table.id) == patches + 4  # 3 failed, 1 worked
    assert whose_turn(table, two) is second
    assert len(last_moves(table)) == 1
    await choose(second, await open_hand(second, table))  # the game goes on
    assert whose_turn(table, two) is first
    assert len(await stored_moves(simcord_env, game_id)) == 2


@pytest.mark.parametrize("how", ["deleted", "404"])
async def test_a_lost_table_message_is_posted_again(simcord_env, guild, channel, players, how):
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    if how == "deleted":
        mods = guild.create_role("Mods", permissions=discord.Permissions(manage_messages=True))
        mod = guild.add_member(simcord_env.create_user("mod"), roles=[mods])
        await mod.delete(table)
    else:
        by_bot_token(simcord_env, table)
        simcord_env.inject_error(
            "PATCH",
            f"/channels/{channel.id}/messages/{table.id}",
            status=404,
            code=10008,
            message="Unknown Message",
        )

    await choose(first, hand)

    new_table = latest_table(channel)
    assert new_table.id != table.id
    assert len(await stored_moves(simcord_env, game_id)) == 1
    row = await simcord_env.bot.storage.games.get(game_id)
    assert row.table_message_id == new_table.id
    second = whose_turn(new_table, two)
    assert second is not None and second is not first
    assert len(last_moves(new_table)) == 1
    # The game goes on from the new table.
    await choose(second, await open_hand(second, new_table))
    assert len(await stored_moves(simcord_env, game_id)) == 2
    assert whose_turn(latest_table(channel), two) is first


async def test_failing_pings_do_not_stop_the_game(simcord_env, channel, players):
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    # Pings go through a click's interaction webhook (else the channel's route): all fail.
    simcord_env.inject_error("POST", "/webhooks/*", status=500, times=None)
    simcord_env.inject_error("POST", f"/channels/{channel.id}/messages", status=500, times=None)
    simcord_env.inject_error("DELETE", "/webhooks/*/messages/*", status=500, times=None)
    simcord_env.inject_error("DELETE", f"/channels/{channel.id}/messages/*", status=500, times=1)

    for n in range(1, 5):
        mover = whose_turn(table, two)
        result = await choose(mover, await open_hand(mover, table))
        assert "Your hand" in text_of(result.response)
        assert len(await stored_moves(simcord_env, game_id)) == n
        assert whose_turn(table, two) is not mover
        assert len(last_moves(table)) == n

    pings = [m for m in channel.history() if "your turn" in m.content]
    assert len(pings) == 1  # only the first, from before the faults (its delete failed too)
    tries = [
        r for r in simcord_env.http_requests
        if r.method == "POST" and r.path.startswith("/webhooks/") and "/messages" not in r.path
        and "your turn" in ((r.json or {}).get("content") or "")
    ]  # fmt: skip
    # The first ping, then the second player's first turn (no hand open yet); later turns
    # find the player's hand open and fresh: no ping is due.
    assert len(tries) == 1 + 1


# ----- 8-10: database trouble and unexpected errors


async def test_a_slow_save_is_deferred_and_the_hand_still_updates(
    simcord_env, channel, players, monkeypatch
):
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    games = simcord_env.bot.storage.games
    real_save = games.save_move

    async def slow_save(*args, **kwargs):
        await asyncio.sleep(2.5)
        return await real_save(*args, **kwargs)

    monkeypatch.setattr(games, "save_move", slow_save)
    target, custom_id = await move_button(simcord_env, first, hand)
    before = text_of(target)

    with quick(simcord_env, 1.0):  # the 2 s budget and the 2.5 s save stay on virtual time
        result = await first.click(target, custom_id=custom_id)
    assert not result.acknowledged  # the bot is still waiting for the database

    await simcord_env.advance_time(2.1)  # past ACK_BUDGET
    assert result.deferred
    assert text_of(result.response) == before  # deferred, not yet played
    assert await stored_moves(simcord_env, game_id) == []

    await simcord_env.advance_time(0.5)  # the save completes
    assert result.deferred
    assert text_of(result.response).startswith("### 🃏 Your hand")
    assert text_of(result.response) != before
    assert len(await stored_moves(simcord_env, game_id)) == 1
    assert whose_turn(table, two) is not first


async def test_a_failed_save_leaves_everything_as_it_was(
    simcord_env, channel, players, monkeypatch
):
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    hand = await open_hand(first, table)
    shown = hand_line(hand)
    table_before = table_text(table)
    games = simcord_env.bot.storage.games
    real_save = games.save_move
    failures = []

    async def failing_save(*args, **kwargs):
        if not failures:
            failures.append(1)
            raise OSError("disk I/O error")
        return await real_save(*args, **kwargs)

    monkeypatch.setattr(games, "save_move", failing_save)

    result = await choose(first, hand)

    assert failures == [1]
    message = result.response
    assert "could not be saved" in text_of(message)
    assert hand_line(message) == shown
    assert card_ids(message) == card_ids(hand) and enabled(message)  # same hand, same version
    assert table_text(table) == table_before
    assert await stored_moves(simcord_env, game_id) == []

    result = await choose(first, message)  # trying again works
    assert "could not be saved" not in text_of(result.response)
    assert len(await stored_moves(simcord_env, game_id)) == 1
    assert whose_turn(table, two) is not first


async def test_an_unexpected_error_gets_an_error_id_and_the_game_goes_on(
    simcord_env, channel, players, monkeypatch
):
    two = players[:2]
    table = await start_game(channel, two)
    game_id = game_id_of(table)
    first = whose_turn(table, two)
    real_hand = hand_ui.hand
    raised = []

    def hand_once(*args, **kwargs):
        if not raised:
            raised.append(1)
            raise RuntimeError("boom")
        return real_hand(*args, **kwargs)

    monkeypatch.setattr(hand_ui, "hand", hand_once)

    result = await first.click(table, label="My hand")

    assert raised == [1]
    assert result.ephemeral
    assert re.search(r"error id `[0-9a-f]{8}`", result.response.content), result.response.content
    assert simcord_env.errors == []  # handled by the cog, not left to discord.py

    hand = await open_hand(first, table)  # the same button works the next time
    result = await choose(first, hand)
    assert "Your hand" in text_of(result.response)
    assert len(await stored_moves(simcord_env, game_id)) == 1
    assert whose_turn(table, two) is not first
