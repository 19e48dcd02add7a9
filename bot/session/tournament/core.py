"""What every job of a tournament shares (see the package's docstring)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Protocol

from bot.domain import tournament as tour
from bot.domain.tournament import Tournament

from .. import events as ev
from ..parts import Parts
from .refusals import Refusal, Refused

log = logging.getLogger(__name__)

MIN_ENTRANTS = 2
CHECK_IN_WINDOW = 900.0  # seconds: check-in opens this long before a set start time


class ThreadRefused(Exception):
    """The tournament's channel refuses a table's thread (the ThreadMaker raises it):
    `reason` "gone" (the channel was deleted) or "denied" (the bot lacks a permission)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_in_opens(row: Tournament) -> float | None:
    """When a check-in tournament's check-in opens: CHECK_IN_WINDOW before its start time
    (its start, else its sign-up deadline); None: open already (no start time is set, a
    manager starts it by hand)."""
    at = row.starts_at or row.signup_ends
    return None if at is None else at - CHECK_IN_WINDOW


# Makes a table's thread in the tournament's channel (the adapter: a bot-token request);
# its id. Given the tournament, the round, the table number and its entrants.
ThreadMaker = Callable[[Tournament, int, int, tuple[str, ...]], Awaitable[int]]
# Ends a live game with no result (Sessions.cancel: channel, by, is_manager, game_id).
CancelGame = Callable[[int, str, int], Awaitable[None]]
# Posts a tournament's event (the desk's `announce`).
Announce = Callable[[ev.TournamentEvent], Awaitable[None]]


class Desk(Protocol):
    """The Discord side of a tournament (bot/adapter/tournament.py TournamentDesk): it makes
    a table's thread and posts what the tournament says."""

    async def thread(
        self, row: Tournament, round: int, table_no: int, entrants: tuple[str, ...]
    ) -> int: ...

    async def announce(self, event: ev.TournamentEvent) -> None: ...


class Core:
    """What the jobs share: the session's parts, the tournaments' locks and background
    jobs, reading one tournament, and telling the desk. TournamentOps (the package's
    __init__) is this with every job's methods."""

    def __init__(self, parts: Parts, *, cancel_game: CancelGame, desk: Desk | None = None) -> None:
        self.live = parts.live
        self.storage = parts.storage
        self.timers = parts.timers
        self.notify = parts.notify  # the games' events (Started), as every game says them
        self.clock = parts.clock
        self.seed_source = parts.seed_source
        self.owns = parts.owns
        self.retry_seconds = parts.retry_seconds
        self.cancel_game = cancel_game
        # The desk's two jobs, kept apart: a test (or the bench) stands in for either.
        self.threads: ThreadMaker | None = None if desk is None else desk.thread
        self.announce: Announce | None = None if desk is None else desk.announce
        self.locks: dict[int, asyncio.Lock] = {}
        self.jobs: dict[int, asyncio.Task[None]] = {}  # the step running per tournament
        self.again: set[int] = set()  # asked to step again once the running one is done
        self.timers_: dict[int, asyncio.Task[None]] = {}  # sign-up deadlines
        self.background: set[asyncio.Task[None]] = set()
        self.refused: dict[int, int] = {}  # refused thread tries in a row, per tournament

    def lock_of(self, tournament_id: int) -> asyncio.Lock:
        return self.locks.setdefault(tournament_id, asyncio.Lock())

    async def get(self, tournament_id: int, guild_id: int | None = None) -> Tournament:
        row = await self.storage.tournaments.get(tournament_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise Refused(Refusal.NOT_FOUND)
        return row

    def check_in_open(self, row: Tournament) -> bool:
        opens = check_in_opens(row)
        return opens is None or self.clock() >= opens

    async def announced(self, tournament_id: int, key: str) -> None:
        """The adapter posted an announcement (ev.TournamentEvent.key): not again."""
        row = await self.storage.tournaments.get(tournament_id)
        if row is None:
            return
        said = dict(row.settings.get("announced", {}))
        said[key] = True
        await self.storage.tournaments.update_settings(tournament_id, announced=said)

    async def _announce(self, event: ev.TournamentEvent) -> None:
        """Tell the adapter, unless it said it posted this one already (`announced`)."""
        if self.announce is None:
            return
        try:
            row = await self.storage.tournaments.get(event.tournament_id)
            if row is not None and event.key in row.settings.get("announced", {}):
                return
            await self.announce(event)
        except Exception:
            log.exception("announcing %s of tournament %s failed", type(event).__name__,
                          event.tournament_id)  # fmt: skip

    # Another job's, called from more than one (TournamentOps has the real ones).

    def kick(self, tournament_id: int) -> None:
        raise NotImplementedError

    async def start(self, tournament_id: int, guild_id: int | None = None) -> Tournament:
        raise NotImplementedError

    def _arm_start(self, row: Tournament) -> None:
        raise NotImplementedError

    async def _course(
        self, tournament_id: int
    ) -> tuple[list[tour.Entrant], list[list[tour.TableResult]], list[list[str]], set[str]]:
        raise NotImplementedError
