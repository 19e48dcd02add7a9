import asyncio

from bot.engine import legal_moves
from bot.session import AWAY_AFTER, auto_move

from .conftest import play_turn, table_for, wait_for


async def test_timer_plays_the_medium_ais_move_for_the_seat(make, storage, notes, clock):
    s = make(turn_seconds=30, away_delay=300, clock=clock.now)
    table = await table_for(s)
    seat = table.turn
    before = table.game
    legal = legal_moves(before)
    assert (await storage.games.get(table.game_id)).deadline == clock.now() + 30
    await clock.advance(29)
    assert isinstance(table.timer, asyncio.TimerHandle)  # not before its deadline
    await clock.advance(1)
    await wait_for(lambda: table.version >= 1)
    [move] = (await storage.games.moves(table.game_id))[:1]
    assert move["auto"] is True and move["seat"] == seat
    expected = auto_move(before)
    assert expected in legal and auto_move(before) == expected  # legal and repeatable
    assert move["card"] == expected.card and move["action"] == expected.action
    assert table.autos[seat] == 1 and seat not in table.away
    _, _, moved = next(c for c in notes.calls if c[0] == "moved")
    assert moved.auto is True and moved.seat == seat


async def test_user_play_rearms_the_timer(make):
    """On the sessions' own clock: real 0.2 s sleeps against a 0.3 s turn raced a busy
    machine."""
    now = [1000.0]
    s = make(turn_seconds=60, clock=lambda: now[0])
    table = await table_for(s)
    first = table.timer
    assert table.deadline == 1060.0 and isinstance(first, asyncio.TimerHandle)
    now[0] += 40
    await play_turn(s, table.game_id)  # before the first deadline
    assert table.version == 1 and table.deadline == 1100.0  # a whole turn from the move
    assert first.cancelled()  # the first deadline's call will not play
    again = table.timer
    assert isinstance(again, asyncio.TimerHandle) and again is not first
    assert again.when() - asyncio.get_running_loop().time() > 59  # a turn away, on the loop


async def test_a_move_arms_the_next_timer_as_a_call_that_starts_its_task_at_the_deadline(
    make, clock
):
    """A task made at every move (and the last one cancelled) ran two steps in the click that
    played it: the timer a move arms is a bare call until its deadline, and still plays."""
    s = make(turn_seconds=60, clock=clock.now)
    table = await table_for(s)
    await play_turn(s, table.game_id)
    assert isinstance(table.timer, asyncio.TimerHandle) and table.version == 1
    await clock.advance(60)
    await wait_for(lambda: table.version == 2)  # at the deadline: the task, and its move
    assert isinstance(table.timer, asyncio.TimerHandle)  # re-armed by that move


async def test_a_deadline_already_due_starts_its_task_at_once(make):
    """No delay (an AI seat with bot_delay 0, as in tests): the task at once, not a call at
    "now", which SimCord's virtual clock fires one tick later (advance_time for each move)."""
    s = make(clock=lambda: 1000.0)
    table = await table_for(s)
    table.deadline = 1000.0
    s.timers.arm(table)
    assert isinstance(table.timer, asyncio.Task)
    table.deadline = 1000.5
    s.timers.arm(table)
    assert isinstance(table.timer, asyncio.TimerHandle)
    table.deadline = None
    s.timers.arm(table)
    assert table.timer is None and table.version == 0


async def test_three_autos_make_a_seat_away_and_a_play_clears_it(make, storage, notes, clock):
    s = make(turn_seconds=20, away_delay=300, clock=clock.now)
    table = await table_for(s)
    for version in range(1, 2 * AWAY_AFTER + 1):  # a turn's time passes, AWAY_AFTER each
        await clock.advance(20)
        await wait_for(lambda v=version: table.version == v)
    assert table.away == {0, 1}
    assert notes.kinds().count("away") == 2
    # Away: the next auto move comes after away_delay, not turn_seconds.
    seat = table.turn
    assert table.deadline == clock.now() + 300
    await play_turn(s, table.game_id)  # the player is back
    assert seat not in table.away and table.autos[seat] == 0
    moves = await storage.games.moves(table.game_id)
    assert moves[-1]["auto"] is False and all(m["auto"] for m in moves[:-1])
    row = await storage.games.get(table.game_id)
    assert row.state["session"]["away"] == [1 - seat]


async def test_turn_timer_off(make, clock):
    s = make(turn_seconds=None, clock=clock.now)
    table = await table_for(s)
    assert table.deadline is None and table.timer is None
    await clock.advance(3600)
    assert table.version == 0


async def test_forfeit_autoplays_to_the_end(make, storage, notes):
    s = make(turn_seconds=None, away_delay=0)
    table = await table_for(s)
    game_id = table.game_id
    await s.forfeit(game_id, "a")
    for _ in range(500):
        await wait_for(lambda: table.game.over or table.turn == 1)
        if table.game.over:
            break
        await play_turn(s, game_id)
        if table.game.over:
            break
    await wait_for(lambda: "game_over" in notes.kinds())
    entry = await storage.history.get(game_id)
    assert entry is not None and entry.forfeited == ("a",) and entry.winners == ("b",)
    moves = await storage.games.moves(game_id)
    assert all(m["auto"] for m in moves if m["seat"] == 0)
    assert not any(m["auto"] for m in moves if m["seat"] == 1)


async def test_timer_retries_when_saving_fails(make, storage, monkeypatch, clock):
    s = make(turn_seconds=20, retry_seconds=5, away_delay=300, clock=clock.now)
    table = await table_for(s)
    real = storage.games.save_move
    failures = []

    async def flaky(*args, **kwargs):
        if not failures:
            failures.append(1)
            raise OSError("disk busy")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage.games, "save_move", flaky)
    await clock.advance(20)
    await wait_for(lambda: table.failures == 1)  # failed, and armed again
    assert table.deadline == clock.now() + 5
    await clock.advance(4)
    assert isinstance(table.timer, asyncio.TimerHandle)  # the retry waits its 5 s
    await clock.advance(1)
    await wait_for(lambda: table.version >= 1)
    assert failures == [1]
    assert (await storage.games.moves(table.game_id))[0]["auto"] is True
