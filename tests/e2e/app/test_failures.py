"""Reliability under failures: Discord errors on the table and the ping, database trouble and
unexpected errors. Every test drives the bot as players would and asserts what they see (and,
where the point is storage, what was stored).

SimCord note used below: a sleep whose wall-clock fallback would fire within
`env.settle_timeout` (5 s by default) is waited for in real time by every operation's settle; a
longer one is parked until `advance_time`. Tests that need a short bot timer (retry delays, the
2 s defer budget) to stay parked lower `settle_timeout` around the one operation (`quick`); that
one operation must then settle within it in real time.
"""

from __future__ import annotations

import asyncio
import re

import discord
import pytest

from bot.ui import hand_message as hand_ui
from tests.e2e.support.helpers import (
    enabled,
    start_game,
    table_text,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import (
    SLOWER,
    by_bot_token,
    card_ids,
    choose,
    game_id_of,
    hand_line,
    last_moves,
    latest_table,
    move_button,
    open_hand,
    quick,
    slower_retries,
    stored_moves,
    table_patches,
)

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")


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
