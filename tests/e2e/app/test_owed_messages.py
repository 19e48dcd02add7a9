"""Messages a game owes its channel when it ends (the end screen, a cancellation) are shown
however often Discord fails, and even when the bot restarts in between: they are kept in
storage's outbox with the game's end, and finished at start-up."""

from __future__ import annotations

import pytest

from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.helpers import (
    buttons,
    is_over,
    play_one,
    start_game,
    table_text,
    title,
    whose_turn,
)
from tests.e2e.support.play import (
    SLOWER,
    by_bot_token,
    game_id_of,
    one_move_left,
    slower_retries,
    table_patches,
)

pytestmark = BOTH_BACKENDS

EDIT = "PATCH"


@pytest.fixture(autouse=True)
def retries_beyond_the_settle_horizon(monkeypatch):
    slower_retries(monkeypatch)  # no click here has to end within quick's 0.4 real seconds


async def test_the_end_screen_lands_after_four_failures_and_a_restart(
    simcord_env, db_path, channel, players
):
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    by_bot_token(env, table)
    game_id = game_id_of(table)
    hands: dict = {}
    while not one_move_left(env, game_id):
        await play_one(table, two, hands)
    path = f"/channels/{channel.id}/messages/{table.id}"
    env.inject_error(EDIT, path, status=503, times=2)
    before = table_patches(env, channel, table.id)

    await play_one(table, two, hands)  # the last move: its table edit fails twice
    await env.advance_time(SLOWER * 0.6)  # the first retry fails too
    assert table_patches(env, channel, table.id) == before + 2
    assert not is_over(table) and whose_turn(table, two) is not None  # still the last turn

    # The bot stops while the end screen is still owed (its retries die with the process)
    # and starts again; Discord fails twice more.
    await env.bot.app.presenter.close()
    env.inject_error(EDIT, path, status=503, times=2)
    await env.restart_bot(make_bot(db_path))
    await env.advance_time(SLOWER * (0.5 + 2.0 + 0.5))  # the presenter's retries after it

    assert is_over(table), table_text(table)
    assert table_patches(env, channel, table.id) == before + 5  # 4 failed, then it landed
    assert await env.bot.storage.outbox.pending() == []  # nothing owed any more
    await env.restart_bot(make_bot(db_path))  # and nothing is shown twice
    assert table_patches(env, channel, table.id) == before + 5


async def test_a_cancelled_game_says_so_after_a_restart(simcord_env, db_path, channel, players):
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    by_bot_token(env, table)
    env.inject_error(EDIT, f"/channels/{channel.id}/messages/{table.id}", status=503, times=None)
    asked = (await two[0].slash(channel, "steal cancel")).response
    await two[0].click(asked, label="Yes, cancel the game")
    assert "My hand" in [b.get("label") for b in buttons(table)]  # Discord refuses the edit
    assert len(await env.bot.storage.outbox.pending()) == 1

    await env.bot.app.presenter.close()  # the bot stops before Discord is back
    env.backend.faults.clear()
    await env.restart_bot(make_bot(db_path))
    assert buttons(table) == []
    assert title(table) == "Steal the Bundle: game cancelled"
    assert await env.bot.storage.outbox.pending() == []
