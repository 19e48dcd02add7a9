"""Deleting data on request and after the bot leaves a server (docs/privacy.md). A
collaborator Sessions owns; it shares Sessions' registry (names seen, live games).

A person is forgotten by storage in one transaction (bot/storage/forget.py), then dropped
from the names kept in memory. A server the bot was removed from is purged once its grace is
over; the pending purge is stored, so `purge_due` (run at start-up and then every hour by the
client) finds it after a restart, and a failed purge is simply tried again on the next run.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

from bot.storage import Forgotten, StillPlaying, StillSeated

from .errors import SessionError
from .models import Lobby, Table
from .parts import Parts
from .timers import stop

log = logging.getLogger(__name__)

PURGE_GRACE = 30 * 24 * 3600.0  # a server's data is kept this long after the bot leaves it


class Playing(SessionError):
    """A person cannot be forgotten while in a lobby or game under way."""

    admin_key = "forget.admin.playing"  # what an admin who asked reads (cogs/forget.py)

    def __init__(self) -> None:
        super().__init__("error.forget_playing")


class Seated(Playing):
    """Nor while seated at a tournament's table whose game has not started yet (its thread
    not made): the seat would open as a former player's. Refused rather than the seat taken
    out: a table of two would be left with one player, and the tournament's rules have no
    such table; once its game has ended (or the tournament is cancelled) they can be."""

    admin_key = "forget.admin.seated"

    def __init__(self) -> None:
        SessionError.__init__(self, "error.forget_seated")


class Privacy:
    def __init__(self, parts: Parts, *, grace: float = PURGE_GRACE) -> None:
        self.live = parts.live
        self.storage = parts.storage
        self.clock = parts.clock
        self.owns = parts.owns
        self.grace = grace

    async def forget(self, user_id: str | int, guild_id: int | None = None) -> Forgotten:
        """Forget a person in one server or (None) every one: stats, names, their id in the
        games they played. Raises Playing, changing nothing, while they are seated (Seated:
        at a tournament's table whose game has not started)."""
        user = str(user_id)
        games: list[Lobby | Table] = [*self.live.lobbies.values(), *self.live.tables.values()]
        if any(user in g.seats and guild_id in (None, g.guild_id) for g in games):
            raise Playing()
        try:
            done = await self.storage.forgetting.forget(user, guild_id)
        except StillSeated as exc:
            raise Seated() from exc
        except StillPlaying as exc:  # a game another process runs, or one not yet restored
            raise Playing() from exc
        for guild, names in self.live.names.items():
            if guild_id in (None, guild):
                names.pop(user, None)
        return done

    async def bot_removed(self, guild_id: int) -> float:
        """The bot left or was removed from the server: its data goes after the grace. When."""
        due = self.clock() + self.grace
        await self.storage.forgetting.schedule_purge(guild_id, due)
        return due

    async def bot_back(self, guild_id: int) -> bool:
        """The bot is in the server again: its data stays. Whether a purge was pending."""
        return await self.storage.forgetting.cancel_purge(guild_id)

    async def purge_due(self, present: Callable[[int], bool]) -> list[int]:
        """Purge this process's servers whose grace is over; `present(guild_id)`: the bot is
        in that server again (re-added while this process was down), so its purge is
        cancelled instead. The servers purged; one that fails is retried on the next run."""
        purged = []
        now = self.clock()
        for guild_id, due in (await self.storage.forgetting.pending_purges()).items():
            if not self.owns(guild_id):
                continue
            try:
                if present(guild_id):
                    await self.bot_back(guild_id)
                    continue
                if due > now:
                    continue
                self._drop(guild_id)
                rows = await self.storage.forgetting.purge_guild(guild_id)
            except Exception:
                log.exception("could not purge the data of server %s; will retry", guild_id)
                continue
            log.info("purged server %s: %d rows", guild_id, rows)
            purged.append(guild_id)
        return purged

    def _drop(self, guild_id: int) -> None:
        """Forget the server's lobbies and games in memory (the bot can no longer post there)."""
        live = self.live
        for lobby in [x for x in live.lobbies.values() if x.guild_id == guild_id]:
            stop(lobby.timer)
            live.lobbies.pop(lobby.game_id, None)
            live.channels.pop(lobby.channel_id, None)
        for table in [x for x in live.tables.values() if x.guild_id == guild_id]:
            live.drop(table)
        live.names.pop(guild_id, None)
