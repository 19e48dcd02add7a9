"""Turn timers: when the seat to act is played for (a person who ran out of time, an away or
forfeited seat, an AI opponent), and what is played. A collaborator Sessions owns: it arms one
timer per table (a call at the deadline that starts a task then), and when a deadline passes it
works out the move and hands it to `due`."""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections.abc import Awaitable, Callable

from bot import work
from bot.ai import get_policy
from bot.domain.seats import difficulty, is_ai
from bot.domain.table_setup import TableSetup
from bot.engine import Game, Move, active, view

from .anchors import Anchors
from .models import Table

log = logging.getLogger(__name__)

AUTO_PLAYER = get_policy("medium")  # fast (well under a millisecond) and sensible

# Plays `move` (None: the stand-in's) for the seat to act in `table`, if the table is still at
# `version`: Sessions' part, under the table's lock.
Due = Callable[[Table, int, Move | None], Awaitable[None]]
# Reads a restored table's game (its first use); raises if it cannot be read.
Ready = Callable[[Table], Awaitable[None]]


def auto_move(game: Game) -> Move:
    """What the bot plays for an absent seat, or an AI seat's move: that AI's choice (the
    medium one for a person), from the seat's view only, seeded by the game so the same
    position always gets the same move (hard also depends on its time budget)."""
    g = active(game)
    seat = g.turn
    assert seat is not None, "the game is over"
    rng = random.Random(f"{game.seed}/{len(game.playoffs)}/{len(g.moves)}/{seat}")
    seat_id = game.seats[seat]
    policy = get_policy(difficulty(seat_id)) if is_ai(seat_id) else AUTO_PLAYER
    return policy.choose(view(game, seat), rng)


def stop(task: asyncio.Task[None] | asyncio.TimerHandle | None) -> None:
    """Cancel a table's timer: its task, unless that is the one running (it is finishing its
    own work), or the call that would start it (`TurnTimers.arm_restored`)."""
    running = isinstance(task, asyncio.Task) and (task is asyncio.current_task() or task.done())
    if task is not None and not running:
        task.cancel()


class TurnTimers:
    def __init__(
        self,
        clock: Callable[[], float],
        due: Due,
        *,
        turn_seconds: float | None,
        away_delay: float,
        bot_delay: float,
        ready: Ready | None = None,
        on_think: Callable[[float], None] = lambda seconds: None,
        anchors: Anchors | None = None,
    ) -> None:
        self.clock = clock
        self.anchors = anchors or Anchors(clock)
        self.on_think = on_think  # an AI seat's thinking, timed (bot/metrics.py Instruments)
        self.due = due
        self.ready = ready
        self.turn_seconds = turn_seconds  # the bot-wide default; a game's setup may differ
        self.away_delay = away_delay
        self.bot_delay = bot_delay  # AI opponents wait this long, so people can follow
        # Timers started and not ended. A timer playing its move re-arms the table, so the
        # table no longer holds it: kept here, close() still stops it before storage closes
        # (one left mid-move hung the loop's shutdown on a closed connection).
        self.running: set[asyncio.Task[None]] = set()

    def deadline(
        self, table: Table, game: Game, away: set[int], forfeited: set[int]
    ) -> float | None:
        """When the seat to act in `game` is played for; None: never (no turn timer)."""
        if game.over:
            return None
        seat = active(game).turn
        assert seat is not None
        return self.deadline_of(seat, game.seats[seat], away | forfeited, table.setup)

    def deadline_of(
        self, seat: int, seat_id: str, absent: set[int], setup: TableSetup
    ) -> float | None:
        """When `seat` (to act now; `absent`: the away and forfeited seats) is played for."""
        if is_ai(seat_id):
            return self.clock() + self.bot_delay
        if seat in absent:
            return self.clock() + self.away_delay
        turn = setup.turn_seconds_or(self.turn_seconds)
        return None if turn is None else self.clock() + turn

    def arm(self, table: Table) -> None:
        """(Re)start the table's timer for its current deadline."""
        stop(table.timer)
        table.timer = None
        # A restored game not read yet is not over: restore reads those that may be.
        if table.deadline is None or (table.loaded and table.game.over):
            return
        delay = table.deadline - self.clock()
        if delay > 0:
            # A bare call until the deadline: a task made at each move (and the last one
            # cancelled) ran two of its steps in the click that played it (~60 us a move).
            loop = asyncio.get_running_loop()
            table.timer = loop.call_later(delay, self._start, table, table.version)
        else:
            # Due now (an AI with no delay): the task at once. A call at "now" is a timer
            # on SimCord's virtual clock, one tick later: an advance of time for each move.
            self._start(table, table.version)

    def arm_restored(self, table: Table, now: float) -> None:
        """`arm` for a table just restored (no timer yet), at `now`: a bare call at its
        deadline, which starts the timer's task only then (a task made for each of a
        thousand games costs a restart more)."""
        if table.deadline is not None:
            loop = asyncio.get_running_loop()
            delay = max(0.0, table.deadline - now)
            table.timer = loop.call_later(delay, self._start, table, table.version)

    def _start(self, table: Table, version: int) -> None:
        task = table.timer = asyncio.create_task(self._run(table, version))
        self.running.add(task)
        task.add_done_callback(self.running.discard)

    async def close(self) -> None:
        """Stop every timer that started, those mid-move included, and wait for them."""
        tasks = list(self.running)
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    async def _run(self, table: Table, version: int) -> None:
        assert table.deadline is not None
        await asyncio.sleep(max(0.0, table.deadline - self.clock()))
        if self.asleep(table):
            return
        if not table.current and self.ready is not None:  # restored, or stale: read it
            try:
                await self.ready(table)
            except Exception:  # logged; the game dropped, or (storage failed) re-armed
                return
            if table.timer is not asyncio.current_task():  # re-armed as it was read (a grace)
                return
        started = time.perf_counter()
        move = await self._think(table, version)
        if move is not None:  # a person's seat thinks nothing: not counted
            self.on_think(time.perf_counter() - started)
        await self.due(table, version, move)

    def asleep(self, table: Table) -> bool:
        """A game only interaction tokens reach with none alive: paused, nobody played for
        (the first click on its table resumes it: Sessions.resume)."""
        if table.tokens_only and (table.paused or not self.anchors.alive(table.game_id)):
            table.paused = True
            return True
        return False

    async def _think(self, table: Table, version: int) -> Move | None:
        """An AI seat's move, worked out in a thread (hard thinks for about 100 ms) and before
        the table's lock is taken, so a forfeit or cancel meanwhile never waits for it. None
        for a person's seat (their stand-in is quick) or if the thinking failed."""
        game = table.game
        if table.version != version or game.over:
            return None
        seat = active(game).turn
        if seat is None or not is_ai(game.seats[seat]):
            return None
        try:
            return await work.run(table.guild_id, auto_move, game)
        except Exception:
            log.exception("game %s: the AI could not choose a move", table.game_id)
            return None
