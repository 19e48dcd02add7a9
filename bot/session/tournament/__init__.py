"""Tournaments: sign-up, rounds of ordinary games each in its own thread, standings and a
champion. A collaborator Sessions owns; it shares Sessions' registry of live games.

The pure rules (seating, points, tiebreaks, the champion) are bot.domain.tournament's; this
module keeps a tournament moving and stored. Every step is keyed in storage
(bot/storage/tournament.py), so running it again - after a restart, or a try that failed -
finds it done and goes on from there: a round is seated once, a table's thread and game are
made once, a result recorded once. `step` is the one place a running tournament moves on:
it opens the current round's tables that have no game yet, records the results of tables
whose games ended while nobody listened (a restart), and once every table of the round is
done seats the next round or names the champion. It runs in the background, per tournament
one at a time, again until it works (retry.py), and only in the process that owns the
guild (`owns`).

A table's game is an ordinary game (its table, hands, turn timer, replay and game file),
started with its seats and no lobby; its `options` carry the tournament's id, round and
table number, so its GameOver comes back here, and `counted` (the tournament's) says whether
it counts for the leaderboard.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
from collections.abc import Awaitable, Callable, Collection, Mapping, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any, Literal, cast

from bot.domain import tournament as tour
from bot.domain.seats import new_ai
from bot.engine import PRESETS, Rules, new_game
from bot.storage import ChannelTaken, Storage, TableRow, TournamentRow
from bot.storage.tournament import BYE, CANCELLED, DONE, FINISHED, PLAYING, RUNNING, SEATED, SIGNUP

from .. import events as ev
from .. import retry
from ..errors import NotHost, SaveFailed, SessionError
from ..live import Live
from ..models import Table, state_of
from ..timers import TurnTimers

log = logging.getLogger(__name__)

# A tournament's stored row, as the adapter and the cogs read it (they reach no storage).
Tournament = TournamentRow

MIN_ENTRANTS = 2
REANNOUNCE = 86_400.0  # seconds: a tournament's end not posted is posted at a start this soon
MAX_ENTRANTS = 512
MAX_AI_FILL = 256  # AI entrants one `fill` may add
NAME_LENGTH = 60
CHECK_IN_WINDOW = 900.0  # seconds: check-in opens this long before a set start time
# Tries of a round whose threads the channel refuses before the tournament waits for a
# manager (only they can give the permission back); a few, so a blip does not pause it.
THREAD_TRIES = 3


class ThreadRefused(Exception):
    """The tournament's channel refuses a table's thread (the ThreadMaker raises it):
    `reason` "gone" (the channel was deleted) or "denied" (the bot lacks a permission)."""

    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


def check_in_opens(row: TournamentRow) -> float | None:
    """When a check-in tournament's check-in opens: CHECK_IN_WINDOW before its start time
    (its start, else its sign-up deadline); None: open already (no start time is set, a
    manager starts it by hand)."""
    at = row.starts_at or row.signup_ends
    return None if at is None else at - CHECK_IN_WINDOW


# Makes a table's thread in the tournament's channel (the adapter: a bot-token request);
# its id. Given the tournament, the round, the table number and its entrants.
ThreadMaker = Callable[[TournamentRow, int, int, tuple[str, ...]], Awaitable[int]]
# Ends a live game with no result (Sessions.cancel: channel, by, is_manager, game_id).
CancelGame = Callable[[int, str, int], Awaitable[None]]


def entrant_rating(mu_sigma: tuple[float, float] | None) -> float:
    """Seeding strength: the openskill ordinal (mu - 3 sigma), as the leaderboard ranks."""
    return 0.0 if mu_sigma is None else mu_sigma[0] - 3 * mu_sigma[1]


def seats_of(entrants: Sequence[str]) -> list[str]:
    """A table's seats: a member as themself, an AI entrant ("bot:<level>:<n>") as an
    ordinary AI seat of its level."""
    seats: list[str] = []
    for entrant in entrants:
        if tour.is_ai_entrant(entrant):
            seats.append(new_ai(entrant.split(":")[1], seats))
        else:
            seats.append(entrant)
    return seats


def when(unix: float | None) -> datetime | None:
    return None if unix is None else datetime.fromtimestamp(unix, UTC)


class TournamentOps:
    def __init__(
        self,
        live: Live,
        storage: Storage,
        timers: TurnTimers,
        notify: ev.Listener,
        *,
        clock: Callable[[], float],
        seed_source: Callable[[], int],
        owns: Callable[[int], bool],
        retry_seconds: float,
        cancel_game: CancelGame,
    ) -> None:
        self.live = live
        self.storage = storage
        self.timers = timers
        self.notify = notify  # the games' events (Started), as every game says them
        self.clock = clock
        self.seed_source = seed_source
        self.owns = owns
        self.retry_seconds = retry_seconds
        self.cancel_game = cancel_game
        self.threads: ThreadMaker | None = None  # set by the composition root (the adapter)
        self.announce: Callable[[ev.TournamentEvent], Awaitable[None]] | None = None
        self.locks: dict[int, asyncio.Lock] = {}
        self.jobs: dict[int, asyncio.Task[None]] = {}  # the step running per tournament
        self.again: set[int] = set()  # asked to step again once the running one is done
        self.timers_: dict[int, asyncio.Task[None]] = {}  # sign-up deadlines
        self.background: set[asyncio.Task[None]] = set()
        self.refused: dict[int, int] = {}  # refused thread tries in a row, per tournament

    def lock_of(self, tournament_id: int) -> asyncio.Lock:
        return self.locks.setdefault(tournament_id, asyncio.Lock())

    # ----- reading

    async def get(self, tournament_id: int, guild_id: int | None = None) -> TournamentRow:
        row = await self.storage.tournaments.get(tournament_id)
        if row is None or (guild_id is not None and row.guild_id != guild_id):
            raise SessionError("tour.error.not_found")
        return row

    async def info(self, tournament_id: int, guild_id: int | None = None) -> tour.TournamentInfo:
        row = await self.get(tournament_id, guild_id)
        entrants = await self.storage.tournaments.entrants(tournament_id)
        if row.status == SIGNUP:  # a dropped entry then is a forgotten person's: nobody
            entrants = [e for e in entrants if not e.dropped]
        info = info_of(row, [tour.Entrant(e.entrant, e.rating) for e in entrants])
        if not row.check_in:
            return info
        checked = sum(e.checked_in or tour.is_ai_entrant(e.entrant) for e in entrants)
        opens = None if self.check_in_open(row) else when(check_in_opens(row))
        return replace(info, checked=checked, check_in_opens=opens)

    async def current(self, guild_id: int, channels: Collection[int] = ()) -> TournamentRow:
        """The tournament still in sign-up or running in one of `channels`, else the
        server's newest such."""
        rows = [
            r for r in await self.storage.tournaments.by_guild(guild_id)
            if r.status in (SIGNUP, RUNNING)
        ]  # fmt: skip
        for row in rows:
            if row.channel_id in channels:
                return row
        if rows:
            return rows[0]
        raise SessionError("tour.error.not_found")

    async def of_guild(self, guild_id: int, limit: int = 25) -> list[tour.TournamentInfo]:
        rows = await self.storage.tournaments.by_guild(guild_id, limit)
        out = []
        for row in rows:
            entrants = await self.storage.tournaments.entrants(row.id)
            out.append(info_of(row, [tour.Entrant(e.entrant, e.rating) for e in entrants]))
        return out

    async def standings(self, tournament_id: int) -> list[tour.Row]:
        entrants, rounds, byes, dropped = await self._course(tournament_id)
        return tour.standings(entrants, rounds, byes, dropped)

    async def tables(self, tournament_id: int, round: int) -> list[TableRow]:
        return await self.storage.tournaments.tables(tournament_id, round)

    async def plan(self, tournament_id: int, round: int) -> tuple[tour.RoundPlan, list[int | None]]:
        """A seated round as the ui shows it, and each table's thread."""
        rows = await self.storage.tournaments.tables(tournament_id, round)
        tables = [r for r in rows if r.status != BYE]
        byes = next((r.entrants for r in rows if r.status == BYE), ())
        dropped = {e.entrant for e in await self.storage.tournaments.entrants(tournament_id)
                   if e.dropped}  # fmt: skip
        before = {e for r in await self.storage.tournaments.tables(tournament_id, round - 1)
                  for e in r.entrants}  # fmt: skip
        row = await self.storage.tournaments.get(tournament_id)
        absent = tuple(row.settings.get("no_check_in", ())) if row and round == 1 else ()
        plan = tour.RoundPlan(
            round, tuple(r.entrants for r in tables), tuple(byes),
            left=tuple(sorted(dropped & before)), absent=absent,
        )  # fmt: skip
        return plan, [r.thread_id for r in tables]

    async def _course(
        self, tournament_id: int
    ) -> tuple[list[tour.Entrant], list[list[tour.TableResult]], list[list[str]], set[str]]:
        """What the domain's functions take: the entrants, each finished round's results and
        byes, and who dropped out."""
        rows = await self.storage.tournaments.entrants(tournament_id)
        entrants = [tour.Entrant(e.entrant, e.rating) for e in rows]
        dropped = {e.entrant for e in rows if e.dropped}
        tables = await self.storage.tournaments.tables(tournament_id)
        numbers = sorted({t.round for t in tables})
        rounds: list[list[tour.TableResult]] = []
        byes: list[list[str]] = []
        for n in numbers:
            these = [t for t in tables if t.round == n]
            played = [t for t in these if t.status != BYE]
            if any(t.status != DONE for t in played):
                break  # the round under way: not in the standings yet
            rounds.append([result_of(t) for t in played])
            byes.append([e for t in these if t.status == BYE for e in t.entrants])
        return entrants, rounds, byes, dropped

    # ----- sign-up

    async def create(
        self,
        guild_id: int,
        channel_id: int,
        host_id: str | int,
        name: str,
        *,
        format: str = "swiss",
        table_size: int = 4,
        rounds: int | None = None,
        preset: str = "standard",
        rules: Rules | None = None,
        turn_seconds: int | None = None,
        signup_ends: float | None = None,
        starts_at: float | None = None,
        counted: bool = True,
        check_in: bool = False,
        options: Mapping[str, Any] | None = None,
    ) -> TournamentRow:
        """A new tournament in sign-up. `rounds` None: as many as the domain advises for the
        entrants at the start (Swiss); a knockout has as many as it needs. `rules`: the
        preset with the server's rule options (stored, so a change of settings never alters
        a tournament under way); `options`: the tables' options (the server's settings)."""
        name = " ".join(name.split())[:NAME_LENGTH]
        if not name:
            raise SessionError("tourop.error.no_name")
        if format not in ("swiss", "knockout"):
            raise SessionError("tourop.error.format")
        if not tour.MIN_TABLE <= table_size <= tour.MAX_TABLE:
            raise SessionError("tourop.error.table_size")
        if rounds is not None and not 1 <= rounds <= 20:
            raise SessionError("tourop.error.rounds")
        now = self.clock()
        for moment in (signup_ends, starts_at):
            if moment is not None and moment <= now:
                raise SessionError("tourop.error.past")
        if signup_ends is not None and starts_at is not None and starts_at < signup_ends:
            raise SessionError("tourop.error.start_before_signup")
        for other in await self.storage.tournaments.by_guild(guild_id):
            if other.channel_id == channel_id and other.status in (SIGNUP, RUNNING):
                raise SessionError("tour.error.already_open")
        settings: dict[str, Any] = {
            "rules": None if rules is None else rules.to_dict(),
            "options": dict(options or {}),
            "advised": rounds is None,
        }
        try:
            row = await self.storage.tournaments.create(
                guild_id, channel_id, name, host_id, format=format, table_size=table_size,
                rounds=rounds or 0, preset=preset, seed=self.seed_source(),
                turn_seconds=turn_seconds, signup_ends=signup_ends, starts_at=starts_at,
                check_in=check_in, counted=counted, settings=settings,
            )  # fmt: skip
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        self._arm_start(row)
        return row

    async def set_message(self, tournament_id: int, message_id: int) -> None:
        """The sign-up message, so a restart edits it rather than posting another."""
        await self.storage.tournaments.set_message(tournament_id, message_id)

    async def join(self, tournament_id: int, user_id: str | int, guild_id: int) -> TournamentRow:
        user = str(user_id)
        row = await self.get(tournament_id, guild_id)
        if row.status != SIGNUP:
            raise SessionError("tour.error.signup_closed")
        have = await self.storage.tournaments.entrants(tournament_id)
        if sum(not e.dropped for e in have) >= MAX_ENTRANTS:
            raise SessionError("tour.error.full")
        rating = entrant_rating((await self.storage.stats.ratings(guild_id, [user])).get(user))
        checked = row.check_in and self.check_in_open(row)  # joining in the window checks in
        try:
            added = await self.storage.tournaments.join(
                tournament_id, user, rating, checked_in=checked
            )
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        if not added:  # signed up already, or the sign-up closed since `row` was read
            now = await self.get(tournament_id)
            raise SessionError(
                "tour.error.already_joined" if now.status == SIGNUP else "tour.error.signup_closed"
            )
        known = self.live.names_in(guild_id)
        if user in known:  # a person is stored once they sign up (docs/privacy.md)
            with contextlib.suppress(Exception):
                await self.storage.stats.set_name(guild_id, user, known[user])
        return row

    def check_in_open(self, row: TournamentRow) -> bool:
        opens = check_in_opens(row)
        return opens is None or self.clock() >= opens

    async def check_in(
        self, tournament_id: int, user_id: str | int, guild_id: int
    ) -> TournamentRow:
        """Check in for a tournament made with check-in, during its window (see
        check_in_opens): whoever has not checked in by the start is not seated."""
        row = await self.get(tournament_id, guild_id)
        if row.status != SIGNUP:
            raise SessionError("tour.error.signup_closed")
        if not row.check_in:
            raise SessionError("tour.error.no_check_in")
        opens = check_in_opens(row)
        if opens is not None and self.clock() < opens:
            raise SessionError("tour.error.check_in_later", when=f"<t:{int(opens)}:R>")
        entrant = str(user_id)
        mine = [e for e in await self.storage.tournaments.entrants(tournament_id)
                if e.entrant == entrant]  # fmt: skip
        if not mine:
            raise SessionError("tour.error.not_joined")
        if mine[0].checked_in:
            raise SessionError("tour.error.checked_in_already")
        try:
            done = await self.storage.tournaments.check_in(tournament_id, entrant)
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        if not done:
            raise SessionError("tour.error.signup_closed")
        return row

    async def leave(
        self, tournament_id: int, user_id: str | int, guild_id: int, *, by: str | int | None = None,
        manager: bool = False,
    ) -> TournamentRow:  # fmt: skip
        """Leave (or, `by` a manager, remove): during the sign-up the entrant is gone; once
        running, dropped from the later rounds (a game under way plays on: its turns run out
        as any absent player's)."""
        entrant = str(user_id)
        if by is not None and str(by) != entrant and not manager:
            raise NotHost("tour.error.managers_only")
        row = await self.get(tournament_id, guild_id)
        if row.status not in (SIGNUP, RUNNING):
            raise SessionError("tour.error.over")
        try:
            left = await self.storage.tournaments.leave(tournament_id, entrant)
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc
        if not left:
            raise SessionError("tour.error.not_joined")
        return row

    async def fill_with_ai(
        self, tournament_id: int, guild_id: int, count: int, level: str = "medium"
    ) -> int:
        """Sign up `count` AI entrants of this difficulty (managers). How many were added."""
        row = await self.get(tournament_id, guild_id)
        if row.status != SIGNUP:
            raise SessionError("tour.error.signup_closed")
        if not 1 <= count <= MAX_AI_FILL:
            raise SessionError("tourop.error.fill", n=MAX_AI_FILL)
        have = await self.storage.tournaments.entrants(tournament_id)
        room = MAX_ENTRANTS - sum(not e.dropped for e in have)
        taken = {e.entrant for e in have}
        made: list[tuple[str, float]] = []
        n = 1
        while len(made) < min(count, room):
            entrant = tour.ai_entrant(level, n)
            if entrant not in taken:
                made.append((entrant, 0.0))
            n += 1
        try:
            return await self.storage.tournaments.join_many(tournament_id, made)
        except Exception as exc:
            raise SaveFailed("tourop.error.save") from exc

    # ----- starting, cancelling

    async def start(self, tournament_id: int, guild_id: int | None = None) -> TournamentRow:
        """The sign-up is over: the first round is seated and its tables opened (in the
        background: `step`). Needs two entrants."""
        row = await self.get(tournament_id, guild_id)
        if row.status != SIGNUP:
            raise SessionError("tour.error.signup_closed")
        # Not a dropped entry (a forgotten person's, before forget took such entries out).
        entrants = [e for e in await self.storage.tournaments.entrants(tournament_id)
                    if not e.dropped]  # fmt: skip
        absent: list[str] = []
        if row.check_in:  # AI entrants count as checked in
            absent = [e.entrant for e in entrants
                      if not e.checked_in and not tour.is_ai_entrant(e.entrant)]  # fmt: skip
        n = len(entrants) - len(absent)
        if n < MIN_ENTRANTS:
            raise SessionError("tour.error.too_few")
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
            raise SessionError("tour.error.signup_closed")
        timer = self.timers_.pop(tournament_id, None)
        if timer is not None and timer is not asyncio.current_task():
            timer.cancel()
        self.kick(tournament_id)
        return await self.get(tournament_id)

    async def cancel(self, tournament_id: int, guild_id: int, by: str | int) -> TournamentRow:
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
                raise SessionError("tour.error.over")
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

    # ----- sign-up deadlines

    def _arm_start(self, row: TournamentRow) -> None:
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

    # ----- the rounds

    def kick(self, tournament_id: int) -> None:
        """Step the tournament in the background (again after the running step, if one is)."""
        job = self.jobs.get(tournament_id)
        if job is not None and not job.done():
            self.again.add(tournament_id)
            return
        job = asyncio.create_task(self._stepping(tournament_id))
        self.jobs[tournament_id] = job

    async def _stepping(self, tournament_id: int) -> None:
        while True:
            self.again.discard(tournament_id)
            await retry.until_done(
                lambda: self._step_or_pause(tournament_id), what="the tournament's round",
                game_id=tournament_id, first=self.retry_seconds,
            )  # fmt: skip
            if tournament_id not in self.again:
                break
        if self.jobs.get(tournament_id) is asyncio.current_task():
            del self.jobs[tournament_id]

    async def _step_or_pause(self, tournament_id: int) -> None:
        """`step`; a round whose threads are refused THREAD_TRIES times in a row pauses the
        tournament (stored: a restart keeps it paused) and the managers are told what to fix
        (RoundBlocked); `resume_round` goes on."""
        try:
            await self.step(tournament_id)
        except ThreadRefused as refused:
            tries = self.refused.get(tournament_id, 0) + 1
            self.refused[tournament_id] = tries
            if tries < THREAD_TRIES:
                raise
            del self.refused[tournament_id]
            await self._pause(tournament_id, refused.reason)
        else:
            self.refused.pop(tournament_id, None)

    async def _pause(self, tournament_id: int, reason: str) -> None:
        row = await self.storage.tournaments.get(tournament_id)
        if row is None:
            return
        serial = int(row.settings.get("blocks", 0)) + 1
        paused = {"round": row.round, "reason": reason}
        await self.storage.tournaments.update_settings(tournament_id, paused=paused, blocks=serial)
        log.warning("tournament %s: round %s paused, its channel refuses threads (%s)",
                    tournament_id, row.round, reason)  # fmt: skip
        await self._announce(
            ev.RoundBlocked(row.id, row.guild_id, row.channel_id, row.round, reason, serial)
        )

    async def resume_round(self, tournament_id: int, guild_id: int) -> TournamentRow:
        """A manager fixed the channel: the paused round is tried again (in the background;
        refused again, it pauses again and says so)."""
        row = await self.get(tournament_id, guild_id)
        if row.status != RUNNING:
            raise SessionError("tour.error.over")
        if row.settings.get("paused"):
            try:
                await self.storage.tournaments.update_settings(tournament_id, paused=None)
            except Exception as exc:
                raise SaveFailed("tourop.error.save") from exc
        self.kick(tournament_id)
        return row

    async def settle(self) -> None:
        """Wait until no step is running or asked for (tests, the bench)."""
        while True:
            running = [j for j in self.jobs.values() if not j.done()]
            if not running:
                return
            await asyncio.gather(*running, return_exceptions=True)

    async def step(self, tournament_id: int) -> None:
        """Move a running tournament on as far as it goes now (see the module's docstring).
        Idempotent; raises if storage or Discord fails (the caller tries again)."""
        async with self.lock_of(tournament_id):
            while True:
                row = await self.storage.tournaments.get(tournament_id)
                if row is None or row.status != RUNNING or not self.owns(row.guild_id):
                    return
                if row.settings.get("paused"):  # waits for a manager (resume_round)
                    return
                tables = [
                    t
                    for t in await self.storage.tournaments.tables(tournament_id, row.round)
                    if t.status != BYE
                ]
                opened = False
                for table in tables:
                    if table.status == SEATED:
                        await self._open(row, table)
                        opened = True
                    elif table.status == PLAYING:
                        await self._settle_table(row, table)
                if opened:
                    await self._announce(
                        ev.RoundStarted(row.id, row.guild_id, row.channel_id, row.round)
                    )
                tables = await self.storage.tournaments.tables(tournament_id, row.round)
                if any(t.status in (SEATED, PLAYING) for t in tables):
                    return  # the round is under way: its games' ends step it again
                if not await self._next_round(row):
                    return

    async def _next_round(self, row: TournamentRow) -> bool:
        """The round is over: standings said, then the next round seated (True: go on and
        open it) or the champion named (False)."""
        entrants, rounds, byes, dropped = await self._course(row.id)
        if row.round > 0:
            await self._announce(ev.RoundOver(row.id, row.guild_id, row.channel_id, row.round))
        fmt = cast(tour.Format, row.format)
        live = [e for e in entrants if e.id not in dropped]
        over = len(live) < MIN_ENTRANTS or tour.is_over(
            fmt, row.rounds, entrants, rounds, byes, dropped
        )
        plan = None
        if not over:
            seed = random.Random(f"{row.seed}/{row.round + 1}").getrandbits(63)
            if fmt == "knockout":
                plan = tour.seat_knockout(entrants, rounds, byes, dropped, row.table_size, seed)
            else:
                plan = tour.seat_swiss(entrants, rounds, byes, dropped, row.table_size, seed)
            over = plan is None or not plan.tables
        if over or plan is None:
            champion = tour.champion(fmt, entrants, rounds, byes, dropped)
            if champion is None and live and len(live) == 1:
                champion = live[0].id
            if await self.storage.tournaments.end(row.id, FINISHED, champion=champion):
                await self._announce(
                    ev.TournamentOver(row.id, row.guild_id, row.channel_id, champion)
                )
            return False
        await self.storage.tournaments.seat_round(row.id, row.round + 1, plan.tables, plan.byes)
        return True  # seated now, or by a step before a restart: open it either way

    async def _open(self, row: TournamentRow, table: TableRow) -> None:
        """A seated table's thread (made once) and its game, started there."""
        thread_id = table.thread_id
        if thread_id is None:
            if self.threads is None:
                raise RuntimeError("no thread maker: the composition root sets one")
            made = await self.threads(row, table.round, table.table_no, table.entrants)
            thread_id = await self.storage.tournaments.set_thread(
                row.id, table.round, table.table_no, made
            )
        rules = Rules.from_dict(row.settings["rules"]) if row.settings.get("rules") else None
        if rules is None:
            rules = PRESETS.get(row.preset) or PRESETS["standard"]
        seats = seats_of(table.entrants)
        seed = random.Random(f"{row.seed}/{table.round}/{table.table_no}").getrandbits(63)
        game = new_game(rules, seats, seed=seed, dealer=seed % len(seats))
        options = {
            **row.settings.get("options", {}),
            "turn_seconds": row.turn_seconds,
            "counted": row.counted,
            "tournament": row.id,
            "tournament_round": table.round,
            "tournament_table": table.table_no,
        }
        live = Table(
            0, row.guild_id, thread_id, row.host_id, game, version=0, options=options,
        )  # fmt: skip
        live.deadline = self.timers.deadline(live, game, live.away, live.forfeited)
        async with self.live.lock:
            try:
                game_id, made_now = await self.storage.tournaments.start_table(
                    row.id, table.round, table.table_no, guild_id=row.guild_id,
                    channel_id=thread_id, host_id=row.host_id, rules=rules.to_dict(),
                    state=state_of(live, game), deadline=live.deadline, options=options,
                )  # fmt: skip
            except ChannelTaken as exc:  # its thread plays another game (never ours)
                log.error("tournament %s: thread %s is taken by game %s", row.id, thread_id,
                          exc.game_id)  # fmt: skip
                raise
            if not made_now:  # a step before a restart started it: restore has it
                return
            live.game_id = game_id
            self.live.tables[game_id] = live
            self.live.channels[thread_id] = game_id
            self.timers.arm(live)
        await self.notify(ev.Started(live))

    async def _settle_table(self, row: TournamentRow, table: TableRow) -> None:
        """A table whose game may have ended while nobody listened (a restart): its result
        read from the game's stored end; a game ended with no result (cancelled, set aside)
        is a draw at 0 cards."""
        if table.game_id is None or table.game_id in self.live.tables:
            return
        game = await self.storage.games.get(table.game_id)
        if game is None or game.status in ("lobby", "active"):
            return  # under way (being recorded, or another process's)
        out: set[int] = set()
        if game.status == "finished":
            entry = await self.storage.history.get(table.game_id)
            if entry is None:
                return
            result = entry.record.get("result") or {}
            cards = list(result.get("bundle_sizes") or [0] * len(table.entrants))
            places = list(entry.places)
            out = {i for i, seat in enumerate(entry.seats) if seat in entry.forfeited}
        else:
            places, cards = [0] * len(table.entrants), [0] * len(table.entrants)
        out |= await self._left(row.id, table.entrants)
        result = {"places": leavers_last(places, out), "cards": cards}
        await self.storage.tournaments.record(row.id, table.round, table.table_no, result)

    async def _left(self, tournament_id: int, seats: Sequence[str]) -> set[int]:
        """The seats of a table whose entrants left the tournament (or were removed): they
        were seated, so they left during its game."""
        dropped = {e.entrant for e in await self.storage.tournaments.entrants(tournament_id)
                   if e.dropped}  # fmt: skip
        return {i for i, seat in enumerate(seats) if seat in dropped}

    async def game_over(self, table: Table) -> None:
        """A tournament table's game ended (GameOver): its result recorded, then the
        tournament stepped on. If storage fails, `step` finds the result in the game's own
        record later."""
        tid = table.options.get("tournament")
        if not isinstance(tid, int):
            return
        rnd, no = table.options.get("tournament_round"), table.options.get("tournament_table")
        if table.standing is not None and isinstance(rnd, int) and isinstance(no, int):
            game = table.game
            n = len(game.seats)
            cards = list(game.result.bundle_sizes) if game.result else [0] * n
            try:
                out = table.forfeited | await self._left(tid, game.seats)
                result = {"places": leavers_last(table.standing.places, out), "cards": cards}
                await self.storage.tournaments.record(tid, rnd, no, result)
            except Exception:
                log.warning("tournament %s: could not record table %s/%s yet", tid, rnd, no,
                            exc_info=True)  # fmt: skip
        self.kick(tid)

    async def game_closed(self, game_id: int) -> None:
        """A game ended with no result: if a tournament table's, it steps the tournament
        (the table counts as a draw)."""
        try:
            found = await self.storage.tournaments.table_of_game(game_id)
        except Exception:
            return
        if found is not None:
            self.kick(found.tournament_id)

    # ----- restart

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

    async def _reannounce(self, row: TournamentRow) -> None:
        """The announcements a restart may have cut off: the last round's standings and the
        current round's tables (each posted once: `_announce` skips those marked posted)."""
        if row.round > 1:
            await self._announce(ev.RoundOver(row.id, row.guild_id, row.channel_id, row.round - 1))
        tables = await self.storage.tournaments.tables(row.id, row.round)
        if row.round and all(t.status != SEATED for t in tables):
            await self._announce(ev.RoundStarted(row.id, row.guild_id, row.channel_id, row.round))

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

    async def close(self) -> None:
        tasks = [*self.jobs.values(), *self.timers_.values()]
        for task in tasks:
            task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self.jobs.clear()
        self.timers_.clear()


def leavers_last(places: Sequence[int], out: Collection[int]) -> list[int]:
    """A table's places from its game's (0 = first; ties share): the seats in `out` (who
    forfeited, left or were removed during the game) share the last place, the others keep
    the order the game gave them (docs/tournaments.md, Points)."""
    kept = sorted({p for seat, p in enumerate(places) if seat not in out})
    rank = {p: n for n, p in enumerate(kept)}
    return [len(kept) if seat in out else rank[p] for seat, p in enumerate(places)]


def result_of(table: TableRow) -> tour.TableResult:
    result = table.result or {}
    n = len(table.entrants)
    places = tuple(int(p) for p in result.get("places", [0] * n))
    cards = tuple(int(c) for c in result.get("cards", [0] * n))
    return tour.TableResult(table.entrants, places, cards)


def info_of(row: TournamentRow, entrants: Sequence[tour.Entrant]) -> tour.TournamentInfo:
    host = int(row.host_id) if row.host_id.isdigit() else 0
    status = cast(Literal["signup", "running", "finished", "cancelled"], row.status)
    return tour.TournamentInfo(
        id=row.id, guild_id=row.guild_id, channel_id=row.channel_id, name=row.name,
        host_id=host, format=cast(tour.Format, row.format), table_size=row.table_size,
        rounds=row.rounds, preset=row.preset, turn_seconds=row.turn_seconds,
        signup_ends=when(row.signup_ends), starts_at=when(row.starts_at),
        check_in=row.check_in, counted=row.counted, status=status, round=row.round,
        entrants=tuple(entrants), paused=(row.settings.get("paused") or {}).get("reason"),
    )  # fmt: skip
