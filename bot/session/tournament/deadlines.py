"""A tournament's start time: it starts then, or is cancelled with too few entrants."""

from __future__ import annotations

import asyncio

from bot.domain.tournament import CANCELLED, SIGNUP, Tournament

from .. import events as ev
from .. import retry
from ..errors import SaveFailed, SessionError
from .core import Core


class Deadlines(Core):
    def _arm_start(self, row: Tournament) -> None:
        at = row.starts_at or row.signup_ends
        if at is None or row.status != SIGNUP or not self.owns(row.guild_id):
            return
        old = self.timers_.pop(row.id, None)
        if old is not None:
            old.cancel()
        self.timers_[row.id] = asyncio.create_task(self._start_at(row.id, at))

    async def _start_at(self, tournament_id: int, at: float) -> None:
        """At its start time the tournament starts, or, with fewer than two entrants, is
        cancelled."""
        await asyncio.sleep(max(0.0, at - self.clock()))

        async def attempt() -> None:
            row = await self.storage.tournaments.get(tournament_id)
            if row is None or row.status != SIGNUP:
                return
            try:
                await self.start(tournament_id)
            except SaveFailed:
                raise
            except SessionError:  # too few: nothing to play
                if await self.storage.tournaments.end(tournament_id, CANCELLED, by="deadline"):
                    await self._announce(
                        ev.TournamentOver(row.id, row.guild_id, row.channel_id, None, True)
                    )

        await retry.until_done(
            attempt, what="starting the tournament", game_id=tournament_id,
            first=self.retry_seconds,
        )  # fmt: skip
