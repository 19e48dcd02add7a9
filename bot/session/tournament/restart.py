"""After a restart: every open tournament goes on, and what was not posted is posted."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.domain.tournament import CANCELLED, RUNNING, SEATED, SIGNUP, Tournament

from .. import events as ev
from .core import Core

log = logging.getLogger(__name__)

REANNOUNCE = 86_400.0  # seconds: a tournament's end not posted is posted at a start this soon


class Restart(Core):
    async def resume(self) -> None:
        """Start-up, after the games are restored: every open tournament of this process's
        guilds goes on (its sign-up deadline armed again, its round stepped)."""
        for row in await self.storage.tournaments.open():  # unreadable ones set aside
            if not self.owns(row.guild_id):
                continue
            if row.status == SIGNUP:
                self._arm_start(row)
            else:
                self.kick(row.id)
            if row.status == RUNNING and self.announce is not None:
                try:  # one that cannot be read whole must not keep the others waiting
                    await self._reannounce(row)
                except Exception:
                    log.exception("tournament %s: its announcements could not be read", row.id)
        if self.announce is None:
            return
        # An end not posted before the restart (it is marked once posted).
        for row in await self.storage.tournaments.unannounced_ends(self.clock() - REANNOUNCE):
            if self.owns(row.guild_id):
                champion = row.settings.get("champion")
                await self._announce(
                    ev.TournamentOver(row.id, row.guild_id, row.channel_id, champion,
                                      cancelled=row.status == CANCELLED)
                )  # fmt: skip

    async def _reannounce(self, row: Tournament) -> None:
        """The announcements a restart may have cut off: the last round's standings and the
        current round's tables (each posted once: `_announce` skips those marked posted)."""
        if row.round > 1:
            await self._announce(ev.RoundOver(row.id, row.guild_id, row.channel_id, row.round - 1))
        tables = await self.storage.tournaments.tables(row.id, row.round)
        if row.round and all(t.status != SEATED for t in tables):
            await self._announce(ev.RoundStarted(row.id, row.guild_id, row.channel_id, row.round))

    async def close(self) -> None:
        tasks = [*self.jobs.values(), *self.timers_.values()]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self.jobs.clear()
        self.timers_.clear()
