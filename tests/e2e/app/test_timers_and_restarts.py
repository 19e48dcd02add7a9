"""Reliability over time: turn timers, away seats, restarts. Every test drives the bot as players
would and asserts what they see (and, where the point is storage, what was stored).

SimCord note used below: a sleep whose wall-clock fallback would fire within
`env.settle_timeout` (5 s by default) is waited for in real time by every operation's settle; a
longer one is parked until `advance_time`. The away delay is a bot option: the away tests set
it longer than the settle timeout (`AWAY`), so its timer is parked at any machine load.
"""

from __future__ import annotations

import pytest
from simcord.results import ResponseMessage

from bot.client import StealBot
from tests.e2e.conftest import BOTH_BACKENDS, make_bot
from tests.e2e.support.helpers import (
    fields,
    is_over,
    play_to_end,
    start_game,
    table_facts,
    table_text,
    text_of,
    whose_turn,
)
from tests.e2e.support.play import (
    choose,
    game_id_of,
    hand_line,
    last_moves,
    latest_table,
    open_hand,
    stored_moves,
    table_messages,
)

# These tests read commands as words: see the fixture.
pytestmark = pytest.mark.usefixtures("commands_in_words")


# ----- helpers


def seat_name(table, name: str) -> str:
    """A player's name on the table with its marks, as the picture's description says it:
    "ann", "bob · away", ..."""
    for line in table_facts(table).splitlines():
        if line.startswith(f"{name} · "):
            return line.rpartition(" · Bundle")[0]
    raise AssertionError(table_facts(table))


def live_table(env, channel) -> ResponseMessage:
    """A live view (like start_game's) of the newest table message."""
    return ResponseMessage(env, env.backend.get_message(channel.id, latest_table(channel).id))


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
