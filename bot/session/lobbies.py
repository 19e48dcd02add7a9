"""Lobby operations: opening, joining, leaving, AI seats, starting, expiring. A collaborator
Sessions owns; it shares Sessions' registry of live games (and its lock)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.domain.match import MAX_GAMES, new_match
from bot.domain.place import Place
from bot.domain.seats import humans, is_ai, new_ai
from bot.domain.table_setup import NONE_GIVEN, TableSetup
from bot.engine import Rules, new_game
from bot.storage import ChannelTaken

from . import events as ev
from . import retry
from .errors import (
    AlreadyHosting,
    AlreadyRunning,
    AlreadySeated,
    LobbyFull,
    NotEnoughPlayers,
    NotHost,
    NotInGame,
    SaveFailed,
    SessionError,
    TooManyGames,
)
from .models import CLOSED, Lobby, Table, closing, state_of, stored_guild
from .parts import Parts
from .timers import stop

log = logging.getLogger(__name__)

MIN_PLAYERS, MAX_PLAYERS = 2, 4


class LobbyOps:
    def __init__(self, parts: Parts, *, lobby_seconds: float | None) -> None:
        self.live = parts.live
        self.storage = parts.storage
        self.timers = parts.timers
        self.notify = parts.notify
        self.clock = parts.clock
        self.anchors = parts.anchors
        self.seed_source = parts.seed_source
        self.lobby_seconds = lobby_seconds  # the bot-wide default; a server's may differ
        self.retry_seconds = parts.retry_seconds  # after storage failed a background job
        self.jobs: set[asyncio.Task[None]] = set()  # withdrawals saved in the background

    async def open_lobby(
        self,
        guild_id: int,
        channel_id: int,
        host_id: str | int,
        rules: Rules,
        max_players: int = MAX_PLAYERS,
        *,
        seats: Sequence[str | int] = (),
        games: int = 1,
        scoring: str = "wins",
        bots: Sequence[str] = (),
        setup: TableSetup = NONE_GIVEN,
        lobby_seconds: float | None = None,
        max_games: int | None = None,
        place: Place | None = None,
    ) -> Lobby:
        """A new lobby, with the host seated (and `seats`, for a rematch) and, for a match of
        `games` games, how it is scored; `bots` are AI difficulties to seat. `setup` (the
        server's settings: turn timer, pings, ai_counts) stays with the game; `lobby_seconds`
        and `max_games` (lobbies and games at once in the guild) default to bot-wide values."""
        if not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
            raise NotEnoughPlayers()
        try:
            settings = new_match(games, scoring)
        except ValueError:
            raise SessionError("error.bad_match", games=MAX_GAMES) from None
        if place is not None:  # outside a server its board stands for the server
            guild_id = place.board_id
        host = str(host_id)
        if is_ai(host):
            raise NotHost("error.ai_cannot_host")
        seated = [host, *dict.fromkeys(str(s) for s in seats if str(s) != host)]
        for level in bots:
            seated.append(new_ai(level, seated))
        if len(seated) > max_players:
            raise LobbyFull()
        async with self.live.lock:
            if channel_id in self.live.channels:
                raise AlreadyRunning(self.live.channels[channel_id])
            held = self.live.hosting(guild_id, host)
            if held is not None:  # one open lobby per host per server
                raise AlreadyHosting(held.channel_id)
            if max_games is not None and self.live.count_in(guild_id) >= max_games:
                raise TooManyGames(max_games)
            # No bot-wide wait (the playground): lobbies never expire, whatever a server says.
            wait = lobby_seconds if lobby_seconds is not None else self.lobby_seconds
            if self.lobby_seconds is None:
                wait = None
            deadline = None if wait is None else self.clock() + wait
            if wait is not None:  # for the expiry message, after a restart too
                setup = replace(setup, lobby_seconds=wait)
            try:  # one transaction: a lobby is saved whole or not at all
                row = await self.storage.games.create(
                    stored_guild(guild_id, place), channel_id, host, rules.to_dict(),
                    seats=seated, deadline=deadline,
                    max_players=max_players, match=None if settings is None else settings.to_dict(),
                    options=setup.to_dict(), place=None if place is None else place.to_dict(),
                )  # fmt: skip
            except ChannelTaken as exc:  # another process, or a game this one lost track of
                raise AlreadyRunning(exc.game_id) from exc
            except Exception as exc:
                raise SaveFailed("error.save_lobby") from exc
            lobby = Lobby(
                row.id, guild_id, channel_id, host, rules, seated, max_players, deadline, settings,
                setup, place=place,
            )  # fmt: skip
            self.add(lobby)
        await self.keep_names(guild_id, humans(seated))
        return lobby

    async def keep_names(self, guild_id: int, users: Sequence[str]) -> None:
        """Store the names of members who now play (a looker's stay in memory only:
        Sessions.remember). A failed write costs only the name shown after a restart."""
        known = self.live.names_in(guild_id)
        for user in users:
            if user in known:
                try:
                    await self.storage.stats.set_name(guild_id, user, known[user])
                except Exception:
                    log.warning("could not store the name of player %s", user, exc_info=True)

    async def join(self, channel_id: int, user_id: str | int) -> Lobby:
        user = str(user_id)
        async with self.live.lock:
            lobby = self.live.lobby_in(channel_id)
            if user in lobby.seats:  # the host's next step is Start, not waiting for it
                raise AlreadySeated("error.already_host" if user == lobby.host_id else None)
            if len(lobby.seats) >= lobby.max_players:
                raise LobbyFull()
            await self._save_lobby(lobby, seats=[*lobby.seats, user])
            lobby.seats.append(user)
        await self.keep_names(lobby.guild_id, [user])
        return lobby

    async def add_bot(self, channel_id: int, user_id: str | int, level: str) -> Lobby:
        """The host seats an AI opponent of this difficulty."""
        async with self.live.lock:
            lobby = self.live.lobby_in(channel_id)
            if str(user_id) != lobby.host_id:
                raise NotHost("error.only_host_adds_bots")
            if len(lobby.seats) >= lobby.max_players:
                raise LobbyFull()
            seats = [*lobby.seats, new_ai(level, lobby.seats)]
            await self._save_lobby(lobby, seats=seats)
            lobby.seats = seats
            return lobby

    async def remove_bot(self, channel_id: int, user_id: str | int) -> Lobby:
        """The host takes the last AI opponent out of the lobby."""
        async with self.live.lock:
            lobby = self.live.lobby_in(channel_id)
            if str(user_id) != lobby.host_id:
                raise NotHost("error.only_host_removes_bots")
            bots = [s for s in lobby.seats if is_ai(s)]
            if not bots:
                raise SessionError("error.no_bot")
            seats = [s for s in lobby.seats if s != bots[-1]]
            await self._save_lobby(lobby, seats=seats)
            lobby.seats = seats
            return lobby

    async def leave(self, channel_id: int, user_id: str | int) -> Lobby | None:
        """Leave a lobby. The host passes to the next person; when no person is left (AI
        opponents never play alone) the lobby closes (None)."""
        user = str(user_id)
        async with self.live.lock:
            lobby = self.live.lobby_in(channel_id)
            if user not in lobby.seats:
                raise NotInGame()
            seats = [s for s in lobby.seats if s != user]
            if not humans(seats):
                payload = closing(lobby, "lobby_closed")
                await self.end(lobby, payload)
                await self.notify(ev.Closed.of(lobby.game_id, payload))
                return None
            host = humans(seats)[0] if user == lobby.host_id else lobby.host_id
            await self._save_lobby(lobby, seats=seats, host_id=host)
            lobby.seats, lobby.host_id = seats, host
            return lobby

    async def start(
        self, channel_id: int, user_id: str | int, *, message_id: int | None = None
    ) -> Table:
        """The host starts the lobby's game. `message_id`: the lobby message, if the caller
        knows it (a click on it): the Started event says it becomes the table."""
        async with self.live.lock:
            lobby = self.live.lobby_in(channel_id)
            if str(user_id) != lobby.host_id:
                raise NotHost()
            if not MIN_PLAYERS <= len(lobby.seats) <= lobby.max_players:
                raise NotEnoughPlayers()
            seed = self.seed_source()
            game = new_game(lobby.rules, lobby.seats, seed=seed, dealer=seed % len(lobby.seats))
            table = Table(
                lobby.game_id, lobby.guild_id, channel_id, lobby.host_id, game, version=0,
                match=lobby.match, setup=lobby.setup, place=lobby.place,
            )  # fmt: skip
            table.deadline = self.timers.deadline(table, game, table.away, table.forfeited)
            try:
                await self.storage.games.start(
                    table.game_id, state_of(table, game), deadline=table.deadline
                )
            except Exception as exc:
                raise SaveFailed("error.save_start") from exc
            stop(lobby.timer)
            del self.live.lobbies[lobby.game_id]
            self.live.tables[table.game_id] = table
            self.timers.arm(table)
        await self.notify(ev.Started(table, message_id))
        return table

    async def _save_lobby(self, lobby: Lobby, **changes: Any) -> None:
        try:
            await self.storage.games.update(lobby.game_id, **changes)
        except Exception as exc:
            raise SaveFailed("error.save_lobby_unchanged") from exc

    async def end(self, lobby: Lobby, closed: dict[str, Any]) -> None:
        """Close a lobby; `closed` is what its message owes (saved with the closing)."""
        try:
            await self.storage.games.cancel(lobby.game_id, owed=[(CLOSED, closed)])
        except Exception as exc:
            raise SaveFailed("error.save_close") from exc
        stop(lobby.timer)
        self.live.lobbies.pop(lobby.game_id, None)
        if self.live.channels.get(lobby.channel_id) == lobby.game_id:
            del self.live.channels[lobby.channel_id]

    def add(self, lobby: Lobby) -> None:
        self.live.lobbies[lobby.game_id] = lobby
        self.live.channels[lobby.channel_id] = lobby.game_id
        if lobby.deadline is not None:
            lobby.timer = asyncio.create_task(self._lobby_timer(lobby))

    async def withdraw(self, game_id: int) -> None:
        """Undo a lobby whose message could not be posted: nobody saw it, so it closes with
        no message, and its channel is free at once (a new /steal new opens a new lobby). If
        storage fails, the closing is saved in the background (retry.py)."""
        async with self.live.lock:
            lobby = self.live.lobbies.pop(game_id, None)
            if lobby is None:
                return
            stop(lobby.timer)
            if self.live.channels.get(lobby.channel_id) == game_id:
                del self.live.channels[lobby.channel_id]
        try:
            await self.storage.games.cancel(game_id)
        except Exception:
            retry.failed("withdrawing the lobby", game_id, 0)
            job = asyncio.create_task(self._keep_withdrawing(game_id))
            self.jobs.add(job)
            job.add_done_callback(self.jobs.discard)

    async def _keep_withdrawing(self, game_id: int) -> None:
        await asyncio.sleep(retry.wait(0, self.retry_seconds))
        await retry.until_done(
            lambda: self.storage.games.cancel(game_id), what="withdrawing the lobby",
            game_id=game_id, first=self.retry_seconds, failures=1,
        )  # fmt: skip

    def overdue(self, game_id: int) -> bool:
        """A lobby only tokens reach whose time ran out while no token could say so (its
        expiry waits for a live anchor): nobody may join or start it any more."""
        lobby = self.live.lobbies.get(game_id)
        return (
            lobby is not None and lobby.tokens_only and lobby.deadline is not None
            and lobby.deadline <= self.clock()
        )  # fmt: skip

    async def expire_overdue(self, game_id: int) -> bool:
        """Close an `overdue` lobby now, at the first click on it (whose token says so), as
        its expiry would have. Whether it did."""
        async with self.live.lock:
            lobby = self.live.lobbies.get(game_id)
            if lobby is None or not self.overdue(game_id):
                return False
            payload = closing(lobby, "lobby_expired", seconds=self._waited(lobby))
            await self.end(lobby, payload)
        await self.notify(ev.Closed.of(game_id, payload))
        return True

    def _waited(self, lobby: Lobby) -> float | None:
        waited = lobby.setup.lobby_seconds
        return self.lobby_seconds if waited is None else waited

    async def _lobby_timer(self, lobby: Lobby) -> None:
        """Expire the lobby at its deadline; if storage fails, again until it works (or the
        lobby has gone otherwise: started, closed)."""
        assert lobby.deadline is not None
        await asyncio.sleep(max(0.0, lobby.deadline - self.clock()))

        async def attempt() -> dict[str, Any] | None:
            async with self.live.lock:
                if self.live.lobbies.get(lobby.game_id) is not lobby:
                    return None
                if lobby.tokens_only and not self.anchors.alive(lobby.game_id):
                    return None  # nothing could say so: it waits, paused, for a click
                payload = closing(lobby, "lobby_expired", seconds=self._waited(lobby))
                await self.end(lobby, payload)  # stops lobby.timer: not this running task
                return payload

        payload = await retry.until_done(
            attempt, what="expiring the lobby", game_id=lobby.game_id, first=self.retry_seconds
        )
        if payload is not None:
            await self.notify(ev.Closed.of(lobby.game_id, payload))
