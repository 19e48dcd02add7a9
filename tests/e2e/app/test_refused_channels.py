"""Discord refusing a channel for good (deleted, or the bot may no longer see it: 404 or 403)
ends the deliveries to it at once: what the game owed is settled and the refusal logged once,
so invalid requests never pile up (not even after a restart). Anything else failing (the
database) is retried until it works."""

from __future__ import annotations

import logging

import pytest

from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.helpers import is_over, play_one, start_game, whose_turn
from tests.e2e.support.play import by_bot_token, game_id_of, one_move_left

pytestmark = BOTH_BACKENDS

REFUSALS = {404: 10003, 403: 50001}  # Unknown Channel, Missing Access


def channel_requests(env, channel) -> int:
    return sum(1 for r in env.http_requests if r.path.startswith(f"/channels/{channel.id}/"))


@pytest.mark.parametrize("status", sorted(REFUSALS))
async def test_an_end_screen_owed_to_a_refused_channel_is_settled_once(
    simcord_env, db_path, channel, players, caplog, status
):
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    by_bot_token(env, table)
    game_id = game_id_of(table)
    hands: dict = {}
    while not one_move_left(env, game_id):
        await play_one(table, two, hands)
    before = channel_requests(env, channel)
    env.inject_error("*", f"/channels/{channel.id}/*", status=status, code=REFUSALS[status],
                     message="refused", times=None)  # fmt: skip

    with caplog.at_level(logging.WARNING, logger="bot.adapter.presenter"):
        await play_one(table, two, hands)  # the last move: its end screen is owed
        await env.advance_time(30 * 60)
    assert await env.bot.storage.outbox.pending() == []  # settled: nothing owed any more
    assert channel_requests(env, channel) - before <= 2  # the edit, perhaps a new post; no more
    refusals = [r for r in caplog.records if "refuses" in r.getMessage()]
    assert len(refusals) == 1 and str(game_id) in refusals[0].getMessage()

    await env.bot.app.presenter.close()
    await env.restart_bot(make_bot(db_path))  # and a restart does not try again
    await env.advance_time(5)
    assert channel_requests(env, channel) - before <= 2
    assert not is_over(table)  # the channel never showed it: Discord refused


async def test_a_database_error_while_catching_up_is_retried(
    simcord_env, db_path, channel, players, monkeypatch, caplog
):
    env, two = simcord_env, players[:2]
    table = await start_game(channel, two)
    await play_one(table, two, {})
    await env.bot.app.presenter.close()
    await env.restart_bot(make_bot(db_path))  # the table is caught up at its first change
    sessions = env.bot.app.sessions
    real, failures = sessions.messages, [2]

    async def messages(game_id):
        if failures[0]:
            failures[0] -= 1
            raise OSError("the database is away")
        return await real(game_id)

    monkeypatch.setattr(sessions, "messages", messages)
    mover = whose_turn(table, two)
    with caplog.at_level(logging.ERROR, logger="bot.adapter.presenter"):
        await play_one(table, two, {})
        for _ in range(4):  # the retries: 0.5 s, then 2 s
            await env.advance_time(1.0)
    assert failures == [0]
    assert whose_turn(table, two) is not mover  # it was, once the database was back
    logged = [r for r in caplog.records if "could not update" in r.getMessage()]
    assert len(logged) == 1 and str(game_id_of(table)) in logged[0].getMessage()
