"""Starting a tournament (by hand or at its time) and cancelling one."""

from __future__ import annotations

import asyncio
import contextlib

from bot.domain import tournament as tour
from bot.domain.tournament import CANCELLED, PLAYING, SIGNUP, Tournament

from .. import events as ev
from ..errors import SaveFailed
from .core import MIN_ENTRANTS, Core
from .refusals import Refusal, Refused


class Starting(Core):
    async def start(self, tournament_id: int, guild_id: int | None = None) -> Tournament:
        """The sign-up is over: the first round is seated and its tables opened (in the
        background: `step`). Needs two entrants."""
        row = await self.get(tournament_id, guild_id)
        if row.status != SIGNUP:
            raise Refused(Refusal.SIGNUP_CLOSED)
        # Not a dropped entry (a forgotten person's, before forget took such entries out).
        entrants = [e for e in await self.storage.tournaments.entrants(tournament_id)
                    if not e.dropped]  # fmt: skip
        absent: list[str] = []
        if row.check_in:  # AI entrants count as checked in
            absent = [e.entrant for e in entrants
                      if not e.checked_in and not tour.is_ai_entrant(e.entrant)]  # fmt: skip
        n = len(entrants) - len(absent)
        if n < MIN_ENTRANTS:
            raise Refused(Refusal.TOO_FEW)
        if row.format == "knockout":
            rounds = tour.knockout_rounds(n, row.table_size)
        elif row.settings.get("advised", False) or row.rounds < 1:
            rounds = tour.swiss_rounds_advised(n, row.table_size)
        else:
            rounds = row.rounds
        try:
            started = await self.storage.tournaments.start(
                tournament_id, rounds=rounds, absent=absent
            )
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        if not started:
            raise Refused(Refusal.SIGNUP_CLOSED)
        timer = self.timers_.pop(tournament_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        self.kick(tournament_id)
        return await self.get(tournament_id)

    async def cancel(self, tournament_id: int, guild_id: int, by: str | int) -> Tournament:
        """Cancel (managers; the cog asks for a confirmation first): its games under way end
        with no result, no round is seated again. Under the tournament's lock, so a step that
        is seating or opening a round finishes first and its games are found and ended."""
        async with self.lock_of(tournament_id):
            await self.get(tournament_id, guild_id)
            try:
                ended = await self.storage.tournaments.end(tournament_id, CANCELLED, by=str(by))
            except Exception as exc:
                raise SaveFailed("tourop.error.save") from exc
            if not ended:
                raise Refused(Refusal.OVER)
        timer = self.timers_.pop(tournament_id, None)
        if timer is not None:
            timer.cancel()
        # Every round's: a table is opened only under the lock, and no step opens one now.
        for table in await self.storage.tournaments.tables(tournament_id):
            if table.status == PLAYING and table.game_id is not None and table.thread_id:
                with contextlib.suppress(Exception):
                    await self.cancel_game(table.thread_id, str(by), table.game_id)
        row = await self.get(tournament_id)
        await self._announce(
            ev.TournamentOver(row.id, row.guild_id, row.channel_id, None, cancelled=True)
        )
        return row
