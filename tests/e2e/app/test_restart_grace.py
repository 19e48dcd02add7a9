"""A restart gives the player whose turn it is a grace period: turn deadlines are stored as
absolute times, so one that ran out while the bot was down (a deploy) must not make them lose
their turn the moment the bot is back.

The downtime: the old bot's session timers are stopped (as a process exit would), then SimCord's
clock moves 5 minutes with nothing running, then the new bot starts on the same database."""

from __future__ import annotations

from simcord.results import ResponseMessage

from bot.ui.render import timestamp
from tests.e2e.conftest import make_bot
from tests.e2e.support.helpers import fields, start_game, table_text, title, whose_turn

DOWNTIME = 300.0  # a 5-minute deploy
TURN = 120
GRACE = 60.0  # bot.session.sessions.RESTORE_GRACE, as the docs promise: a minute


def latest_table(env, channel) -> ResponseMessage:
    """A live view of the newest table message."""
    tables = [m for m in channel.history() if (title(m) or "").startswith("Steal")]
    assert tables, "no table in the channel"
    return ResponseMessage(env, env.backend.get_message(channel.id, tables[-1].id))


def last_moves(table) -> list[str]:
    return fields(table).get("Last moves", "").splitlines()


async def test_a_turn_that_ran_out_during_a_restart_gets_a_minute(
    simcord_env, db_path, channel, players
):
    two = players[:2]
    table = await start_game(channel, two)
    waiting = whose_turn(table, two)
    other = next(p for p in two if p is not waiting)
    started = simcord_env.now().timestamp()
    assert timestamp(started + TURN) in table_text(table)  # "Auto-play <t:...:R>"

    old_bot = simcord_env.bot
    await old_bot.sessions.close()  # the bot goes down: no timer runs
    await simcord_env.advance_time(DOWNTIME)  # the 120 s turn ran out 3 minutes ago
    assert last_moves(table) == [] and whose_turn(table, two) is waiting
    await simcord_env.restart_bot(make_bot(db_path, turn_seconds=TURN))
    await old_bot.storage.close()
    back = simcord_env.now().timestamp()

    # Back up: still their turn, nothing played for them, a minute on the clock.
    live = latest_table(simcord_env, channel)
    shown = table_text(live)
    assert whose_turn(live, two) is waiting, shown
    assert last_moves(live) == [] and "(auto)" not in shown
    assert timestamp(back + GRACE) in shown, shown

    await simcord_env.advance_time(GRACE - 1)
    live = latest_table(simcord_env, channel)
    assert whose_turn(live, two) is waiting and last_moves(live) == [], table_text(live)

    await simcord_env.advance_time(2)  # the grace runs out: played for, like any turn
    live = latest_table(simcord_env, channel)
    moves = last_moves(live)
    assert len(moves) == 1 and moves[0].endswith("(auto)") and waiting.name in moves[0], moves
    assert whose_turn(live, two) is other
    assert timestamp(back + GRACE + TURN) in table_text(live)  # a full turn, again
