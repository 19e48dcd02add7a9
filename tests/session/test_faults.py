"""Faults found in review: a lobby slipping into a channel while a match moves to its next game,
and a restart making waiting players lose their turn."""

import asyncio
import contextlib

import pytest

from bot.engine import from_dict
from bot.session import AlreadyRunning, NoGame

from .conftest import CHANNEL, GUILD, RULES, play_turn, table_for, wait_for
from .helpers import table_in


async def play_game(s, game_id):
    for _ in range(500):
        played = await play_turn(s, game_id)
        if played.ended:
            return played
    raise AssertionError("the game did not end")


async def two_game_match(s):
    await s.open_lobby(GUILD, CHANNEL, "a", RULES, games=2, scoring="wins")
    await s.join(CHANNEL, "b")
    return await s.start(CHANNEL, "a")


def gate_finish_then(monkeypatch, storage):
    """Hold storage.games.finish_then (saving a match's game and creating its next one) until
    `release` is set; `entered` is set once it is waiting."""
    entered, release = asyncio.Event(), asyncio.Event()
    real = storage.games.finish_then

    async def slow(*args, **kwargs):
        entered.set()
        await release.wait()
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage.games, "finish_then", slow)
    return entered, release


async def live_in(storage, channel_id):
    return [r for r in await storage.games.live() if r.channel_id == channel_id]


# ----- Fault 1: the channel is never free while a match's next game is being saved


async def test_no_lobby_slips_in_while_a_match_moves_to_its_next_game(make, storage, monkeypatch):
    s = make()
    table = await two_game_match(s)
    entered, release = gate_finish_then(monkeypatch, storage)
    playing = asyncio.create_task(play_game(s, table.game_id))  # to its last move
    await asyncio.wait_for(entered.wait(), 5)

    with pytest.raises(AlreadyRunning):
        await s.open_lobby(GUILD, CHANNEL, "c", RULES)

    release.set()
    played = await asyncio.wait_for(playing, 5)
    nxt = played.next
    assert nxt is not None and nxt.match.number == 2
    assert table_in(s, CHANNEL) is nxt
    assert [r.id for r in await live_in(storage, CHANNEL)] == [nxt.game_id]

    await s.close()
    s2 = make()
    live = [r.id for r in await storage.games.live()]
    assert await s2.restore() == live == [nxt.game_id]  # every live row restored, none skipped


async def test_cancel_while_a_match_moves_on_neither_hangs_nor_breaks(make, storage, monkeypatch):
    s = make()
    table = await two_game_match(s)
    entered, release = gate_finish_then(monkeypatch, storage)
    playing = asyncio.create_task(play_game(s, table.game_id))
    await asyncio.wait_for(entered.wait(), 5)

    with pytest.raises(NoGame):  # between the two games: nothing to cancel yet
        await asyncio.wait_for(s.cancel(CHANNEL, "a"), 2)

    release.set()
    nxt = (await asyncio.wait_for(playing, 5)).next
    assert nxt is not None and table_in(s, CHANNEL) is nxt
    assert await asyncio.wait_for(s.cancel(CHANNEL, "a"), 2) == nxt.game_id
    assert await live_in(storage, CHANNEL) == []


async def test_cancel_waiting_on_a_matchs_last_move_does_not_deadlock(make, storage, monkeypatch):
    """cancel takes the sessions' lock, then the table's; the last move holds the table's lock
    while the match moves on (so that must not wait for the sessions' lock)."""
    s = make()
    table = await two_game_match(s)
    entered, release = asyncio.Event(), asyncio.Event()
    real = storage.games.save_move

    async def slow(game_id, state, *args, **kwargs):
        if from_dict(state).over:  # the first game's last move
            entered.set()
            await release.wait()
        return await real(game_id, state, *args, **kwargs)

    monkeypatch.setattr(storage.games, "save_move", slow)
    table.lock = WatchedLock()
    playing = asyncio.create_task(play_game(s, table.game_id))
    await asyncio.wait_for(entered.wait(), 5)
    cancelling = asyncio.create_task(s.cancel(CHANNEL, "a"))
    await asyncio.wait_for(table.lock.contended.wait(), 5)
    assert s.lock.locked() and not cancelling.done()  # it holds the sessions' lock
    release.set()
    nxt = (await asyncio.wait_for(playing, 5)).next
    # It completes. What it reports is not asserted: queued on the first game, it currently
    # "cancels" that finished game (storage changes nothing) while the next one goes on.
    with contextlib.suppress(NoGame):
        await asyncio.wait_for(cancelling, 5)
    assert nxt is not None and table_in(s, CHANNEL) is nxt
    assert [r.id for r in await live_in(storage, CHANNEL)] == [nxt.game_id]


class WatchedLock(asyncio.Lock):
    """A table's lock that says when someone waits for it (held by another)."""

    def __init__(self) -> None:
        super().__init__()
        self.contended = asyncio.Event()

    async def acquire(self) -> bool:
        if self.locked():
            self.contended.set()
        return await super().acquire()


async def test_a_single_game_still_frees_its_channel(make, storage):
    s = make()
    table = await table_for(s)
    played = await play_game(s, table.game_id)
    assert played.next is None and CHANNEL not in s.channels
    await s.open_lobby(GUILD, CHANNEL, "a", RULES)


async def test_a_match_game_that_could_not_be_finished_is_finished_once_storage_is_back(
    make, storage, monkeypatch, notes, clock
):
    """Not dropped (issue 24, item 2): the game stays, its channel claimed, and is recorded in
    the background once storage works again; the match then goes on."""
    s = make(retry_seconds=5, clock=clock.now)
    table = await two_game_match(s)
    real = storage.games.finish_then
    failures = []

    async def broken(*args, **kwargs):
        if len(failures) < 3:
            failures.append(1)
            raise RuntimeError("disk full")
        return await real(*args, **kwargs)

    monkeypatch.setattr(storage.games, "finish_then", broken)
    played = await play_game(s, table.game_id)
    assert played.next is None and s.channels[CHANNEL] == table.game_id
    assert "game_over" not in notes.kinds()  # not yet: nothing is recorded
    with pytest.raises(AlreadyRunning):
        await s.open_lobby(GUILD, CHANNEL, "c", RULES)

    # Tried again 5 s later, then after 10 s and 20 s (retry.py doubles the wait).
    await asyncio.sleep(0)  # the background job's first step: its first wait armed from now
    for waited, failed in ((5, 2), (10, 3)):
        await clock.advance(waited)
        await wait_for(lambda n=failed: len(failures) == n)  # failed again, and waits anew
    await clock.advance(19)
    assert "game_over" not in notes.kinds() and len(failures) == 3  # not before its 20 s
    await clock.advance(1)
    await wait_for(lambda: "game_over" in notes.kinds())
    assert len(failures) == 3
    nxt = table_in(s, CHANNEL)
    assert nxt.match.number == 2 and table.game_id not in s.tables
    assert await storage.history.get(table.game_id) is not None
    assert [r.id for r in await live_in(storage, CHANNEL)] == [nxt.game_id]


# ----- Fault 2: a restart gives the person whose turn it is a grace period


async def test_the_grace_is_a_minute(make):
    from bot.session.sessions import RESTORE_GRACE  # here: the module imports without it

    assert RESTORE_GRACE == 60.0 and make().restore_grace == RESTORE_GRACE


async def test_a_turn_that_ran_out_while_the_bot_was_down_gets_the_grace(make, storage, clock):
    s1 = make(clock=clock.now, turn_seconds=60)
    table = await table_for(s1)
    game_id, seat = table.game_id, table.turn
    await s1.close()
    await clock.advance(300)  # a 5-minute deploy: the stored deadline passed 4 minutes ago
    assert (await storage.games.get(game_id)).deadline < clock.now() - 200

    s2 = make(clock=clock.now, turn_seconds=60, restore_grace=30)
    restored_at = clock.now()
    assert await s2.restore() == [game_id]
    again = s2.table(game_id)
    # Restored unread; its timer, past, fires at once, reads the game, and gives the grace.
    await wait_for(lambda: again.loaded)
    assert again.turn == seat
    assert again.deadline == restored_at + 30
    await clock.advance(29)
    assert again.version == 0 and await storage.games.moves(game_id) == []
    await clock.advance(1)
    await wait_for(lambda: again.version == 1)  # then, as any turn that runs out
    assert clock.now() >= restored_at + 30
    [move] = await storage.games.moves(game_id)
    assert move["auto"] is True and move["seat"] == seat


async def test_a_deadline_further_away_than_the_grace_is_kept(make, storage, clock):
    s1 = make(clock=clock.now, turn_seconds=600)
    table = await table_for(s1)
    await s1.close()
    await clock.advance(300)
    stored = (await storage.games.get(table.game_id)).deadline
    assert stored > clock.now() + 60

    s2 = make(clock=clock.now, turn_seconds=600)  # the default grace
    await s2.restore()
    again = s2.table(table.game_id)
    assert again.deadline == stored and again.timer is not None


# The seats below get no grace: played for at once, the clock standing still after the
# restart (a grace would wait for an advance that never comes).


async def test_a_forfeited_seat_gets_no_grace(make, storage, clock):
    s1 = make(clock=clock.now, turn_seconds=60, away_delay=3600)
    table = await table_for(s1)
    seat = table.turn
    await s1.forfeit(table.game_id, table.seats[seat])
    await s1.close()
    await clock.advance(3600 + 300)  # its stored move time passed while the bot was down
    assert (await storage.games.get(table.game_id)).deadline < clock.now()

    s2 = make(clock=clock.now, turn_seconds=60, away_delay=5, restore_grace=3600)
    await s2.restore()
    again = s2.table(table.game_id)
    await wait_for(lambda: again.version >= 1)  # played for at once, as before the restart
    assert (await storage.games.moves(table.game_id))[0]["seat"] == seat


async def test_an_away_seat_gets_no_grace(make, storage, clock):
    s1 = make(clock=clock.now, turn_seconds=60)
    table = await table_for(s1)
    game_id, seat = table.game_id, table.turn
    await s1.close()
    row = await storage.games.get(game_id)
    state = {**row.state, "session": {**row.state["session"], "away": [seat]}}
    await storage.games.update(game_id, state=state, version=row.version)
    await clock.advance(300)

    s2 = make(clock=clock.now, turn_seconds=60, away_delay=5, restore_grace=3600)
    await s2.restore()
    again = await s2.load(game_id)
    assert again.away == {seat}
    await wait_for(lambda: again.version >= 1)
    assert (await storage.games.moves(game_id))[0]["seat"] == seat


async def test_an_ai_seat_gets_no_grace(make, storage, clock):
    s1 = make(clock=clock.now, turn_seconds=60, bot_delay=3600)
    await s1.open_lobby(GUILD, CHANNEL, "a", RULES, bots=["easy"])
    table = await s1.start(CHANNEL, "a")
    if table.seats[table.turn] == "a":
        await play_turn(s1, table.game_id)
    ai = table.turn
    assert table.seats[ai].startswith("ai:")
    await s1.close()
    await clock.advance(3600 + 300)  # its stored move time passed while the bot was down

    s2 = make(clock=clock.now, turn_seconds=60, bot_delay=5, restore_grace=3600)
    await s2.restore()
    again = s2.table(table.game_id)
    version = again.version
    await wait_for(lambda: again.version > version)
    assert (await storage.games.moves(table.game_id))[-1]["seat"] == ai
