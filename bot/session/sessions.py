"""Lobbies and tables per channel: who may do what, and saving every move.

Ids only, no Discord objects: the cog turns interactions into these calls and the results (and
`notify` callback's events, bot.session.events) into messages.

`Sessions` is the facade: its methods are those of the collaborators it owns, each a module
with one job (lobbies, play, hints, matches, restore, messages, records, timers,
tournaments).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable

from bot.domain.options import DEFAULTS, Options
from bot.engine import Move, Rules
from bot.metrics import QUIET, Instruments
from bot.storage import Storage

from . import events as ev
from .anchors import Anchors
from .errors import NoGame, NotHost, SaveFailed
from .hints import Hints
from .live import Live
from .lobbies import LobbyOps
from .matches import Matches
from .messages import GameMessages
from .models import CLOSED, Lobby, Table, closing
from .parts import Parts
from .play import Play
from .privacy import PURGE_GRACE, Privacy
from .records import Records
from .restore import RESTORE_GRACE, Restorer
from .retry import until_done
from .seasons import Seasons
from .timers import TurnTimers, stop
from .tournament import Desk, TournamentOps

log = logging.getLogger(__name__)

Notify = ev.Listener

# The first wait (seconds) before a background job that storage failed is tried again; then
# twice as long each time (retry.py). Longer than a blip, short next to a real outage.
RETRY_SECONDS = 10.0


def new_seed() -> int:
    return secrets.randbits(63)


class Sessions(Live):
    """Every lobby and table, by channel (the registry in live.py), and what may happen to
    them. It owns its collaborators, which share the registry: the lobby operations
    (lobbies.py), play (play.py), hints (hints.py), the end of a game and a match's next one
    (matches.py), restore after a restart (restore.py), the messages that show a game
    (messages.py), the turn timers (timers.py), the records the cogs read (records.py) and
    deleting data (privacy.py)."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        notify: Notify | None = None,
        options: Options = DEFAULTS,
        retry_seconds: float = RETRY_SECONDS,
        restore_grace: float = RESTORE_GRACE,
        owns: Callable[[int | None], bool] | None = None,
        purge_grace: float = PURGE_GRACE,
        instruments: Instruments = QUIET,
        tournament_desk: Callable[[Sessions], Desk] | None = None,
    ) -> None:
        super().__init__()
        self.instruments = instruments  # what the parts report (bot/metrics.py)
        # Which guilds' games are this process's (its shards'; see bot/shards.py). Another
        # process restores, times and plays the rest, and delivers what they owe.
        self.owns: Callable[[int | None], bool] = owns or (lambda guild_id: True)
        self.storage = storage
        self.records = Records(storage)
        self.backfilling: asyncio.Task[None] | None = None  # the stats rows' job (restore)
        self.clock = clock
        self.notify_cb = notify
        self.retry_seconds = retry_seconds  # RETRY_SECONDS
        self.restore_grace = restore_grace
        self.seed_source = options.seed_source or new_seed  # None: random seeds
        # The timers call back into play and restore, which are made after them (they take
        # the timers): through the two methods below.
        # Games where only interaction tokens reach: the presenter says whether one lives.
        self.anchors = Anchors(clock)
        self.resumed: set[asyncio.Task[None]] = set()  # resumed games' deadlines being stored
        self.timers = TurnTimers(
            clock, self._timed_move, anchors=self.anchors, turn_seconds=options.turn_seconds,
            away_delay=options.away_delay, bot_delay=options.bot_delay, ready=self._timer_ready,
            on_think=instruments.on_think,
        )  # fmt: skip
        # What every part shares, handed to each (parts.py).
        parts = Parts(
            self, storage, self.timers, self.notify, clock=clock, seed_source=self.seed_source,
            owns=self.owns, retry_seconds=retry_seconds, anchors=self.anchors,
        )  # fmt: skip
        self.lobby_ops = LobbyOps(parts, lobby_seconds=options.lobby_seconds)
        self.matches = Matches(parts, on_retry=instruments.on_retry)
        self.restorer = Restorer(parts, self.lobby_ops, self.matches, restore_grace=restore_grace)
        load = self.restorer.load
        self.play_ops = Play(parts, self.matches, load=load)
        self.hint_ops = Hints(self, storage, load=load)
        self.game_messages = GameMessages(storage, owns=self.owns)
        # Deleting data: a person on request, a server after the bot left it (privacy.py).
        self.privacy = Privacy(parts, grace=purge_grace)
        # Leaderboard seasons: a new one by hand, or timed (seasons.py).
        self.seasons = Seasons(parts)
        self.records.setting_changed = self._setting_changed
        # Tournaments: rounds of tables, each an ordinary game in its thread (tournament/);
        # the desk (the adapter's) reads them back through these Sessions, hence a maker.
        self.tournaments = TournamentOps(
            parts, cancel_game=self._cancel_for_tournament,
            desk=None if tournament_desk is None else tournament_desk(self),
        )  # fmt: skip
        # The collaborators' operations, as the cogs and tests call them.
        ops = self.lobby_ops
        self.open_lobby, self.join, self.leave, self.start = (
            ops.open_lobby, ops.join, ops.leave, ops.start
        )  # fmt: skip
        self.add_bot, self.remove_bot, self.withdraw = ops.add_bot, ops.remove_bot, ops.withdraw
        self.overdue, self.expire_overdue = ops.overdue, ops.expire_overdue
        play = self.play_ops
        self.play, self.hand, self.forfeit, self.back = (
            play.play, play.hand, play.forfeit, play.back
        )  # fmt: skip
        self.hint = self.hint_ops.hint
        restorer = self.restorer
        self.load, self.due, self.load_all = restorer.load, restorer.due, restorer.load_all
        shown = self.game_messages
        self.messages, self.keep_messages = shown.messages, shown.keep_messages
        self.owed, self.delivered, self.ended_table = shown.owed, shown.delivered, shown.ended_table
        self.announced, self.announcement = shown.announced, shown.announcement
        self.announcing = shown.announcing

    async def restore(self) -> list[int]:
        """Start-up: every stored lobby and game (Restorer.restore); then, in the background,
        the stats rows an upgrade left to work out (Records.backfill: the games play on
        meanwhile), and the timed seasons' job starts."""
        restored = await self.restorer.restore()
        if self.backfilling is None:
            self.backfilling = asyncio.create_task(self._backfill())
        try:  # after the games: a tournament's tables are restored with them
            await self.tournaments.resume()
        except Exception:  # the next start tries again; its games play on meanwhile
            log.exception("could not resume the tournaments")
        self.seasons.start()
        return restored

    async def _backfill(self) -> None:
        async def attempt() -> None:
            await self.records.backfill(self.owns)

        await until_done(attempt, what="working out the stats of the games before the upgrade",
                         game_id=0, first=self.retry_seconds)  # fmt: skip

    async def stats_ready(self) -> None:
        """Wait until the stats rows an upgrade left are worked out (tests, tools)."""
        if self.backfilling is not None:
            await asyncio.shield(self.backfilling)

    def _setting_changed(self, guild_id: int, key: str | None) -> None:
        if key in (None, "season_length"):
            self.seasons.wake()

    async def _cancel_for_tournament(self, channel_id: int, by: str, game_id: int) -> None:
        await self.cancel(channel_id, by, True, game_id=game_id)

    async def _timed_move(self, table: Table, version: int, thought: Move | None) -> None:
        await self.play_ops.timed_move(table, version, thought)

    async def _timer_ready(self, table: Table) -> None:
        await self.restorer.timer_ready(table)

    def listen(self, notify: Notify) -> None:
        """Where session events (bot.session.events) go: the presenter, once it exists."""
        self.notify_cb = notify

    def pause(self, game_id: int) -> bool:
        """A game only interaction tokens reach is losing its last one: its timer stops and
        nobody is played for until a click on its table resumes it. Whether it paused now."""
        table = self.tables.get(game_id)
        if table is None or not table.tokens_only or table.paused:
            return False
        table.paused = True
        stop(table.timer)
        table.timer = None
        return True

    def resume(self, game_id: int) -> bool:
        """A click on a paused game's table: it goes on, its seat to act given a whole turn
        (a game not read yet since a restart: the restart's grace). Whether it was paused."""
        table = self.tables.get(game_id)
        if table is None or not table.paused:
            return False
        table.paused = False
        if table.current:
            game = table.game
            table.deadline = self.timers.deadline(table, game, table.away, table.forfeited)
        elif table.deadline is not None:
            table.deadline = max(table.deadline, self.clock() + self.restore_grace)
        self.timers.arm(table)
        task = asyncio.create_task(self._keep_deadline(table), name=f"resumed-{game_id}")
        self.resumed.add(task)
        task.add_done_callback(self.resumed.discard)
        return True

    async def _keep_deadline(self, table: Table) -> None:
        """A resumed game's new deadline, stored so a restart keeps it (not the old one)."""
        try:
            async with table.lock:  # after a move being saved: its deadline is the newest
                await self.storage.games.update(table.game_id, deadline=table.deadline)
        except Exception:  # a restart then gives the stored deadline its grace
            log.warning("game %s: could not store its deadline", table.game_id, exc_info=True)

    async def remember(self, guild_id: int, user_id: str | int, name: str) -> None:
        """Keep a member's display name: in memory for whoever acts, stored (so tables and
        boards show it after a restart or once they leave the server) only for a player: one
        seated here now (joining stores it: LobbyOps) or with a row already. Someone who only
        looks is never stored (docs/privacy.md)."""
        user = str(user_id)
        known = self.names_in(guild_id)
        if known.get(user) == name:
            return
        known[user] = name
        live: list[Lobby | Table] = [*self.lobbies.values(), *self.tables.values()]
        seated = any(x.guild_id == guild_id and user in x.seats for x in live)
        try:
            await self.storage.stats.set_name(guild_id, user, name, create=seated)
        except Exception:
            log.warning("could not store the name of player %s", user, exc_info=True)

    # ----- what spans lobbies and tables

    async def cancel(
        self,
        channel_id: int,
        user_id: str | int,
        is_manager: bool = False,
        *,
        game_id: int | None = None,
        admin: bool = False,
    ) -> int:
        """End the channel's lobby or game with no result (host or a manager). Its id.
        Given `game_id`, only that one (a confirmed question was about it). `admin`: a server
        admin force-ends it, and the event says so."""
        async with self.lock:
            live = self.channels.get(channel_id)
            if live is None or (game_id is not None and live != game_id):
                raise NoGame()
            game_id = live
            is_manager = is_manager or admin
            lobby = self.lobbies.get(game_id)
            details = {"by": str(user_id), "admin": admin}
            if lobby is not None:
                if not (is_manager or str(user_id) == lobby.host_id):
                    raise NotHost()
                payload = closing(lobby, "cancelled", players=list(lobby.seats), **details)
                await self.lobby_ops.end(lobby, payload)
            else:
                table = self.tables.get(game_id)
                if table is None:  # a match between two games (see Matches.finish)
                    raise NoGame()
                if not (is_manager or str(user_id) == table.host_id):
                    raise NotHost()
                payload = closing(table, "cancelled", players=list(table.seats), **details)
                async with table.lock:
                    if self.tables.get(game_id) is not table:  # it ended while we waited
                        raise NoGame()
                    try:  # the message it owes is saved with the cancellation
                        await self.storage.games.cancel(game_id, owed=[(CLOSED, payload)])
                    except Exception as exc:
                        raise SaveFailed("error.save_cancel") from exc
                    self.drop(table)
        await self.notify(ev.Closed.of(game_id, payload))
        return game_id

    async def rules_here(self, channel_id: int) -> Rules | None:
        """`rules_in`, a restored game read first (its rules are in its state)."""
        live = self.live_in(channel_id)
        if isinstance(live, Table) and not live.loaded:
            try:
                await self.load(live.game_id)
            except NoGame:
                return None
        return self.rules_in(channel_id)

    async def broken(self, guild_id: int) -> list[tuple[int, int]]:
        """The guild's lobbies and games set aside because their rows could not be read
        (restore.py): (game id, channel id), for the admins."""
        return await self.storage.games.broken(guild_id)

    async def end_broken(self, guild_id: int, game_id: int) -> bool:
        """An admin ends a game set aside as broken. False if it is not one of the guild's."""
        if game_id not in {i for i, _ in await self.broken(guild_id)}:
            return False
        try:
            return await self.storage.games.cancel(game_id)
        except Exception as exc:
            raise SaveFailed("error.save_cancel") from exc

    async def close(self) -> None:
        """Stop every timer and background job (the storage stays open: its owner closes
        it)."""
        await self.seasons.close()
        if self.backfilling is not None:
            self.backfilling.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.backfilling
            self.backfilling = None
        live: list[Lobby | Table] = [*self.lobbies.values(), *self.tables.values()]
        for x in live:
            stop(x.timer)
        await self.timers.close()
        await self.tournaments.close()
        jobs = [*self.matches.jobs, *self.lobby_ops.jobs, *self.resumed]
        for job in jobs:
            job.cancel()
        tasks = [*jobs, *(x.timer for x in live if isinstance(x.timer, asyncio.Task))]
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self.lobbies.clear()
        self.tables.clear()
        self.channels.clear()

    async def notify(self, event: ev.Event) -> None:
        if self.notify_cb is not None:
            try:
                await self.notify_cb(event)
            except Exception:
                log.exception("notify %s for game %s failed", type(event).__name__, event.game_id)
        # A tournament table's end moves its tournament on (in the background), once the
        # listener has it: its end screen is marked before anything else is awaited.
        if isinstance(event, ev.GameOver) and event.table.setup.tournament is not None:
            await self.tournaments.game_over(event.table)
        elif isinstance(event, ev.Closed) and event.what == "game":
            await self.tournaments.game_closed(event.game_id)
