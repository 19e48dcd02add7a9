"""Turn timers of Sessions: when the seat to act is played for (a person who ran out of time,
an away or forfeited seat, an AI opponent), and what is played."""

from __future__ import annotations

import asyncio
import logging
import random

from bot.ai import get_policy
from bot.engine import Game, Move, active, view
from bot.seats import difficulty, is_ai

from .models import Table

log = logging.getLogger(__name__)

AUTO_PLAYER = get_policy("medium")  # fast (well under a millisecond) and sensible


def auto_move(game: Game) -> Move:
    """What the bot plays for an absent seat, or an AI seat's move: that AI's choice (the
    medium one for a person), from the seat's view only, seeded by the game so the same
    position always gets the same move (hard also depends on its time budget)."""
    g = active(game)
    seat = g.turn
    rng = random.Random(f"{game.seed}/{len(game.playoffs)}/{len(g.moves)}/{seat}")
    seat_id = game.seats[seat]
    policy = get_policy(difficulty(seat_id)) if is_ai(seat_id) else AUTO_PLAYER
    return policy.choose(view(game, seat), rng)


class TurnTimers:
    """Mixed into Sessions: uses its clock, delays, tables and `_apply`/`_announce`."""

    def _deadline(
        self, table: Table, game: Game, away: set[int], forfeited: set[int]
    ) -> float | None:
        if game.over:
            return None
        seat = active(game).turn
        if is_ai(game.seats[seat]):
            return self.clock() + self.bot_delay
        if seat in away or seat in forfeited:
            return self.clock() + self.away_delay
        turn = table.options.get("turn_seconds", self.turn_seconds)
        if turn is None:
            return None
        return self.clock() + turn

    def _arm(self, table: Table) -> None:
        self._stop(table.timer)
        table.timer = None
        if table.deadline is not None and not table.game.over:
            table.timer = asyncio.create_task(self._turn_timer(table, table.version))

    async def _turn_timer(self, table: Table, version: int) -> None:
        assert table.deadline is not None
        await asyncio.sleep(max(0.0, table.deadline - self.clock()))
        thought = await self._think(table, version)
        async with table.lock:
            if self.tables.get(table.game_id) is not table or table.version != version:
                return
            seat = table.turn
            if seat is None:
                return
            table.timer = None  # this task: re-arming must not cancel it
            ai = is_ai(table.seats[seat])
            try:
                move = thought or auto_move(table.game)
                played = await self._apply(table, seat, move, auto=not ai)
            except Exception:
                log.exception("game %s: the timer could not play for seat %s", table.game_id, seat)
                table.deadline = self.clock() + self.retry_seconds  # try again later
                self._arm(table)
                return
        await self._announce(table, played)

    async def _think(self, table: Table, version: int) -> Move | None:
        """An AI seat's move, worked out in a thread (hard thinks for about 100 ms) and before
        the table's lock is taken, so a forfeit or cancel meanwhile never waits for it. None
        for a person's seat (their stand-in is quick) or if the thinking failed."""
        game = table.game
        if table.version != version or game.over or not is_ai(game.seats[active(game).turn]):
            return None
        try:
            return await asyncio.to_thread(auto_move, game)
        except Exception:
            log.exception("game %s: the AI could not choose a move", table.game_id)
            return None

    @staticmethod
    def _stop(task: asyncio.Task[None] | None) -> None:
        if task is not None and task is not asyncio.current_task() and not task.done():
            task.cancel()
