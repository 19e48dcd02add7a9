"""Leaderboard seasons (docs/admin.md#seasons): a manager starts a new one by hand, or a
server's `season_length` ends each one by itself. A collaborator Sessions owns.

Ending a season is storage's one transaction (bot/storage/seasons.py): the board archived,
each rating soft-reset (bot.domain.ratings.soft_reset), the next season begun and the
announcement owed to the channel of the server's latest game. It names the season it ends, so
a retry, a second click or another process never ends two.

Timed seasons: a background job (`run`) wakes when the next season of this process's servers
(`owns`) is due, and at least every CHECK_SECONDS, and ends the ones due; the due time is the
stored start plus the length, so a restart, before or after it, changes nothing. A failure is
tried again (retry.py) until it works or the season ended anyway."""

from __future__ import annotations

import asyncio
import contextlib
import logging

from bot.domain import ratings
from bot.domain.values import Season, SeasonEnd, Standing

from . import events as ev
from .models import SEASON
from .parts import Parts
from .retry import until_done

log = logging.getLogger(__name__)

WEEK = 7 * 24 * 3600.0
CHECK_SECONDS = 3600.0  # the job looks at the settings at least this often


class Seasons:
    def __init__(self, parts: Parts) -> None:
        self.storage = parts.storage
        self.notify = parts.notify
        self.clock = parts.clock
        self.owns = parts.owns
        self.retry_seconds = parts.retry_seconds
        self.task: asyncio.Task[None] | None = None
        self._sleeping = False  # the job waits for its next look (wake may restart it then)
        self._again = False  # woken while it looked: it looks again at once

    # ----- what the screens read

    async def current(self, guild_id: int) -> int:
        """The number of the season under way (1 for a server that never had another)."""
        season = await self.storage.seasons.current(guild_id)
        return 1 if season is None else season.number

    async def past(self, guild_id: int) -> list[Season]:
        """The seasons that ended, newest first."""
        return await self.storage.seasons.past(guild_id)

    async def board(self, guild_id: int, season: int, limit: int, offset: int) -> list[Standing]:
        return await self.storage.seasons.standings(guild_id, season, limit, offset)

    async def players(self, guild_id: int, season: int) -> int:
        return await self.storage.seasons.count(guild_id, season)

    async def standing(self, guild_id: int, season: int, user_id: str) -> Standing | None:
        return await self.storage.seasons.standing(guild_id, season, user_id)

    async def medals(self, guild_id: int, user_id: str) -> tuple[int, int, int]:
        """Seasons the player ended first, second and third."""
        return await self.storage.seasons.medals(guild_id, user_id)

    # ----- ending a season

    async def end(self, guild_id: int, number: int, lang: str | None = None) -> SeasonEnd | None:
        """End season `number` (a manager's confirmed question, or its time is up); None if it
        is no longer the one under way. `lang`: the server's fixed language, for the
        announcement (None: the server's own locale)."""
        ended = await self.storage.seasons.end(
            guild_id, number, self.clock(), ratings.soft_reset, owed=(SEASON, {"lang": lang})
        )
        if ended is None:
            return None
        log.info("guild %s: season %d ended (%d players)", guild_id, number, ended.players)
        if ended.announcement is not None and ended.game_id is not None:
            await self.notify(
                ev.SeasonOver(
                    ended.announcement, ended.game_id, guild_id, ended.channel_id or 0,
                    ended.payload,
                )
            )  # fmt: skip
        return ended

    def wake(self) -> None:
        """A server's season length changed: the job looks again now (a job that is waiting
        is started afresh; one that is looking looks again when it is done)."""
        if self.task is None or self.task.done():
            return
        if self._sleeping:
            self.task.cancel()
            self.task = asyncio.create_task(self.run())
        else:
            self._again = True

    async def due(self) -> float | None:
        """End every season of this process's servers whose time is up (a server that just
        turned timed seasons on begins its season 1 now). When the next one is due (None: no
        timed season)."""
        now = self.clock()
        upcoming: list[float] = []
        for guild_id, weeks in (await self.storage.seasons.timed()).items():
            if not self.owns(guild_id):
                continue
            season = await self.storage.seasons.begin(guild_id, now)
            at = season.started_at + weeks * WEEK
            if at > now:
                upcoming.append(at)
                continue
            settings = await self.storage.settings.get(guild_id)
            lang = None if settings["language"] == "follow" else settings["language"]

            async def attempt(
                g: int = guild_id, n: int = season.number, la: str | None = lang
            ) -> None:
                await self.end(g, n, la)

            await until_done(
                attempt, what=f"ending season {season.number}", game_id=guild_id,
                first=self.retry_seconds,
            )  # fmt: skip
            upcoming.append(now + weeks * WEEK)
        return min(upcoming, default=None)

    async def run(self) -> None:
        """The timed seasons' job, until cancelled."""
        while True:
            self._again = False
            try:
                at = await self.due()
            except Exception:  # storage down: looked at again after a wait
                log.exception("timed seasons: could not look at the due seasons")
                at = self.clock() + self.retry_seconds
            if self._again:
                continue
            wait = CHECK_SECONDS if at is None else min(CHECK_SECONDS, max(1.0, at - self.clock()))
            self._sleeping = True
            try:
                await asyncio.sleep(wait)
            finally:
                self._sleeping = False

    def start(self) -> None:
        if self.task is None or self.task.done():
            self.task = asyncio.create_task(self.run())

    async def close(self) -> None:
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task
            self.task = None
