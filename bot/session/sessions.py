"""Lobbies and tables per channel: who may do what, saving every move, and the turn timers.

Ids only, no Discord objects: the cog turns interactions into these calls and the results (and
`notify` callbacks) into messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import copy
import logging
import random
import secrets
import time
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from bot import stats
from bot.ai import get_policy
from bot.engine import (
    Game,
    GameOver,
    IllegalMove,
    Move,
    Rules,
    active,
    apply,
    from_dict,
    new_game,
    to_dict,
    view,
)
from bot.engine.serialize import move_to_dict
from bot.match import MAX_GAMES, after_game, new_match, next_dealer
from bot.seats import difficulty, humans, is_ai, new_ai
from bot.storage import GameRow, Storage

from .errors import (
    AlreadyRunning,
    AlreadySeated,
    Forfeited,
    LobbyFull,
    MoveRefused,
    NoGame,
    NoLobby,
    NotEnoughPlayers,
    NotHost,
    NotInGame,
    NotYourTurn,
    SaveFailed,
    SessionError,
    StaleHand,
    TooManyGames,
)
from .models import Hand, Lobby, Played, Table

log = logging.getLogger(__name__)

Notify = Callable[[str, int, dict[str, Any]], Awaitable[None]]
AWAY_AFTER = 3  # consecutive auto moves that make a seat "away"
MIN_PLAYERS, MAX_PLAYERS = 2, 4


def seed_source() -> int:
    return secrets.randbits(63)


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


class Sessions:
    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        notify: Notify | None = None,
        turn_seconds: float | None = 120,
        lobby_seconds: float | None = 600,
        away_delay: float = 1.0,
        bot_delay: float = 1.5,
        retry_seconds: float = 5.0,
        seed_source: Callable[[], int] = seed_source,
    ) -> None:
        self.storage = storage
        self.clock = clock
        self.notify_cb = notify
        self.turn_seconds = turn_seconds
        self.lobby_seconds = lobby_seconds
        self.away_delay = away_delay
        self.bot_delay = bot_delay  # AI opponents wait this long, so people can follow
        self.retry_seconds = retry_seconds  # after a timer's move could not be saved
        self.seed_source = seed_source
        self.lobbies: dict[int, Lobby] = {}
        self.tables: dict[int, Table] = {}
        self.channels: dict[int, int] = {}  # channel id -> game id of its lobby or table
        self.names: dict[str, str] = {}  # player id -> last display name seen
        self.lock = asyncio.Lock()  # lobby changes and channel claims

    # ----- lookups

    def lobby_in(self, channel_id: int) -> Lobby:
        lobby = self.lobbies.get(self.channels.get(channel_id, -1))
        if lobby is None:
            raise NoLobby()
        return lobby

    def table(self, game_id: int) -> Table:
        table = self.tables.get(game_id)
        if table is None:
            raise NoGame()
        return table

    def table_in(self, channel_id: int) -> Table:
        return self.table(self.channels.get(channel_id, -1))

    def count_in(self, guild_id: int) -> int:
        """Lobbies and games going in a guild (a match counts once: one game at a time)."""
        live = [*self.lobbies.values(), *self.tables.values()]
        return sum(1 for x in live if x.guild_id == guild_id)

    async def remember(self, guild_id: int, user_id: str | int, name: str) -> None:
        """Keep a player's display name (stored, so tables and boards show it after a
        restart or once they leave the server)."""
        user = str(user_id)
        if self.names.get(user) == name:
            return
        self.names[user] = name
        try:
            await self.storage.stats.set_name(guild_id, user, name)
        except Exception:
            log.warning("could not store the name of player %s", user, exc_info=True)

    # ----- lobbies

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
        options: dict[str, Any] | None = None,
        lobby_seconds: float | None = None,
        max_games: int | None = None,
    ) -> Lobby:
        """A new lobby, with the host seated (and `seats`, for a rematch) and, for a match of
        `games` games, how it is scored; `bots` are AI difficulties to seat. `options` (the
        server's settings: turn_seconds, pings, ai_counts) stay with the game; `lobby_seconds`
        and `max_games` (lobbies and games at once in the guild) default to bot-wide values."""
        if not MIN_PLAYERS <= max_players <= MAX_PLAYERS:
            raise NotEnoughPlayers()
        try:
            settings = new_match(games, scoring)
        except ValueError:
            raise SessionError("error.bad_match", games=MAX_GAMES) from None
        host = str(host_id)
        if is_ai(host):
            raise NotHost("error.ai_cannot_host")
        seated = [host, *dict.fromkeys(str(s) for s in seats if str(s) != host)]
        for level in bots:
            seated.append(new_ai(level, seated))
        if len(seated) > max_players:
            raise LobbyFull()
        async with self.lock:
            if channel_id in self.channels:
                raise AlreadyRunning(self.channels[channel_id])
            if max_games is not None and self.count_in(guild_id) >= max_games:
                raise TooManyGames(max_games)
            try:
                row = await self.storage.games.create(
                    guild_id, channel_id, host, rules.to_dict(), seats=seated
                )
            except Exception as exc:
                raise SaveFailed("error.save_lobby") from exc
            deadline = None
            wait = self.lobby_seconds if lobby_seconds is None else lobby_seconds
            if wait is not None:
                deadline = self.clock() + wait
            options = dict(options or {})
            if wait is not None:
                options["lobby_seconds"] = wait  # for the expiry message, after a restart too
            try:
                await self.storage.games.update(
                    row.id, deadline=deadline, max_players=max_players, match=settings,
                    options=options,
                )  # fmt: skip
            except Exception as exc:
                with contextlib.suppress(Exception):
                    await self.storage.games.cancel(row.id)
                raise SaveFailed("error.save_lobby") from exc
            lobby = Lobby(
                row.id, guild_id, channel_id, host, rules, seated, max_players, deadline, settings,
                options,
            )  # fmt: skip
            self._add_lobby(lobby)
            return lobby

    async def join(self, channel_id: int, user_id: str | int) -> Lobby:
        user = str(user_id)
        async with self.lock:
            lobby = self.lobby_in(channel_id)
            if user in lobby.seats:
                raise AlreadySeated()
            if len(lobby.seats) >= lobby.max_players:
                raise LobbyFull()
            await self._save_lobby(lobby, seats=[*lobby.seats, user])
            lobby.seats.append(user)
            return lobby

    async def add_bot(self, channel_id: int, user_id: str | int, level: str) -> Lobby:
        """The host seats an AI opponent of this difficulty."""
        async with self.lock:
            lobby = self.lobby_in(channel_id)
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
        async with self.lock:
            lobby = self.lobby_in(channel_id)
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
        async with self.lock:
            lobby = self.lobby_in(channel_id)
            if user not in lobby.seats:
                raise NotInGame()
            seats = [s for s in lobby.seats if s != user]
            if not humans(seats):
                await self._end_lobby(lobby)
                await self.notify("lobby_closed", lobby.game_id, {"channel_id": channel_id})
                return None
            host = humans(seats)[0] if user == lobby.host_id else lobby.host_id
            await self._save_lobby(lobby, seats=seats, host_id=host)
            lobby.seats, lobby.host_id = seats, host
            return lobby

    async def start(self, channel_id: int, user_id: str | int) -> Table:
        async with self.lock:
            lobby = self.lobby_in(channel_id)
            if str(user_id) != lobby.host_id:
                raise NotHost()
            if not MIN_PLAYERS <= len(lobby.seats) <= lobby.max_players:
                raise NotEnoughPlayers()
            seed = self.seed_source()
            game = new_game(lobby.rules, lobby.seats, seed=seed, dealer=seed % len(lobby.seats))
            table = Table(
                lobby.game_id, lobby.guild_id, channel_id, lobby.host_id, game, version=0,
                match=copy.deepcopy(lobby.match), options=dict(lobby.options),
            )  # fmt: skip
            table.deadline = self._deadline(table, game, table.away, table.forfeited)
            try:
                await self.storage.games.start(
                    table.game_id, self._state(table, game), deadline=table.deadline
                )
            except Exception as exc:
                raise SaveFailed("error.save_start") from exc
            self._stop(lobby.timer)
            del self.lobbies[lobby.game_id]
            self.tables[table.game_id] = table
            self._arm(table)
            return table

    async def _save_lobby(self, lobby: Lobby, **changes: Any) -> None:
        try:
            await self.storage.games.update(lobby.game_id, **changes)
        except Exception as exc:
            raise SaveFailed("error.save_lobby_unchanged") from exc

    async def _end_lobby(self, lobby: Lobby) -> None:
        try:
            await self.storage.games.cancel(lobby.game_id)
        except Exception as exc:
            raise SaveFailed("error.save_close") from exc
        self._stop(lobby.timer)
        self.lobbies.pop(lobby.game_id, None)
        if self.channels.get(lobby.channel_id) == lobby.game_id:
            del self.channels[lobby.channel_id]

    def _add_lobby(self, lobby: Lobby) -> None:
        self.lobbies[lobby.game_id] = lobby
        self.channels[lobby.channel_id] = lobby.game_id
        if lobby.deadline is not None:
            lobby.timer = asyncio.create_task(self._lobby_timer(lobby))

    async def _lobby_timer(self, lobby: Lobby) -> None:
        assert lobby.deadline is not None
        await asyncio.sleep(max(0.0, lobby.deadline - self.clock()))
        async with self.lock:
            if self.lobbies.get(lobby.game_id) is not lobby:
                return
            lobby.timer = None  # this task: do not cancel ourselves
            try:
                await self._end_lobby(lobby)
            except Exception:
                log.exception("could not expire lobby %s", lobby.game_id)
                return
        waited = lobby.options.get("lobby_seconds", self.lobby_seconds)
        await self.notify(
            "lobby_expired", lobby.game_id, {"channel_id": lobby.channel_id, "seconds": waited}
        )

    # ----- playing

    async def play(self, game_id: int, user_id: str | int, move: Move, version: int) -> Played:
        table = self.table(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        async with table.lock:
            if self.tables.get(game_id) is not table:
                raise NoGame()
            if version != table.version:
                raise StaleHand()
            if seat in table.forfeited:
                raise Forfeited()
            if table.turn != seat:
                raise NotYourTurn()
            played = await self._apply(table, seat, move, auto=False)
        await self._announce(table, played)
        return played

    async def hand(self, game_id: int, user_id: str | int) -> Hand:
        table = self.table(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        return table.hand(seat)

    async def forfeit(self, game_id: int, user_id: str | int) -> Table:
        """The seat stays in the game, played by the bot to the end, and places last."""
        table = self.table(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        async with table.lock:
            if seat in table.forfeited:
                raise Forfeited()
            forfeited = table.forfeited | {seat}
            deadline = table.deadline  # another seat's turn keeps its time
            if table.turn == seat:  # this seat is played at once
                deadline = self._deadline(table, table.game, table.away, forfeited)
            state = self._state(table, table.game, forfeited=forfeited)
            try:
                await self.storage.games.update(game_id, deadline=deadline, state=state)
            except Exception as exc:
                raise SaveFailed("error.save_forfeit") from exc
            table.forfeited, table.deadline = forfeited, deadline
            self._arm(table)
        await self.notify("forfeited", game_id, {"seat": seat, "user_id": str(user_id)})
        return table

    async def back(self, game_id: int, user_id: str | int) -> bool:
        """A player who was away did something (opened their hand, clicked a card): they are
        back, so the bot stops playing for them and their turn gets the full timer. True if
        they were away."""
        table = self.table(game_id)
        seat = table.seat_of(user_id)
        if seat is None or seat not in table.away:
            return False
        async with table.lock:
            if seat not in table.away:
                return False
            away = table.away - {seat}
            autos = {**table.autos, seat: 0}
            deadline = self._deadline(table, table.game, away, table.forfeited)
            state = self._state(table, table.game, autos=autos, away=away)
            try:
                await self.storage.games.update(game_id, deadline=deadline, state=state)
            except Exception as exc:
                raise SaveFailed("error.save_return") from exc
            table.away, table.autos, table.deadline = away, autos, deadline
            self._arm(table)
        await self.notify("back", game_id, {"seat": seat, "user_id": str(user_id), "table": table})
        return True

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
            players = list(lobby.seats) if lobby is not None else []
            if lobby is not None:
                if not (is_manager or str(user_id) == lobby.host_id):
                    raise NotHost()
                await self._end_lobby(lobby)
            else:
                table = self.tables[game_id]
                players = list(table.seats)
                if not (is_manager or str(user_id) == table.host_id):
                    raise NotHost()
                async with table.lock:
                    try:
                        await self.storage.games.cancel(game_id)
                    except Exception as exc:
                        raise SaveFailed("error.save_cancel") from exc
                    self._drop(table)
        payload = {"channel_id": channel_id, "by": str(user_id), "admin": admin, "players": players}
        await self.notify("cancelled", game_id, payload)
        return game_id

    async def _apply(self, table: Table, seat: int, move: Move, *, auto: bool) -> Played:
        """Play, save, then adopt: under the table's lock. The new state is used only once
        it is committed; if saving fails the table is left exactly as it was."""
        try:
            game, events = apply(table.game, move, seat=seat, auto=auto)
        except GameOver as exc:
            raise NoGame() from exc
        except IllegalMove as exc:
            raise MoveRefused(str(exc)) from exc
        autos = dict(table.autos)
        away = set(table.away)
        if auto:
            autos[seat] = autos.get(seat, 0) + 1
            if autos[seat] >= AWAY_AFTER and seat not in table.forfeited:
                away.add(seat)
        else:
            autos[seat] = 0
            away.discard(seat)
        version = table.version + 1
        deadline = self._deadline(table, game, away, table.forfeited)
        state = self._state(table, game, autos=autos, away=away)
        try:
            await self.storage.games.save_move(
                table.game_id, state, move_to_dict(seat, Move(*move), auto), version,
                deadline=deadline,
            )  # fmt: skip
        except Exception as exc:
            log.warning("game %s: move %s not saved: %r", table.game_id, version, exc)
            raise SaveFailed() from exc
        became_away = seat in away and seat not in table.away
        table.game, table.version, table.deadline = game, version, deadline
        table.autos, table.away = autos, away
        nxt = None
        if game.over:
            nxt = await self._finish(table)
        else:
            self._arm(table)
        if became_away:
            await self.notify("away", table.game_id, {"seat": seat, "user_id": game.seats[seat]})
        return Played(table.game_id, game, events, version, seat, auto, game.over, nxt)

    async def _announce(self, table: Table, played: Played) -> None:
        payload = {
            "table": table,
            "seat": played.seat,
            "user_id": played.game.seats[played.seat],
            "auto": played.auto,
            "version": played.version,
            "events": played.events,
            "ended": played.ended,
        }
        await self.notify("moved", table.game_id, payload)
        if played.ended:
            await self.notify("game_over", table.game_id, self._over_payload(table, played.next))

    def _over_payload(self, table: Table, nxt: Table | None) -> dict[str, Any]:
        result = table.game.result
        return {
            "table": table,
            "next": nxt,
            "channel_id": table.channel_id,
            "result": result.to_dict() if result else None,
            "forfeited": [table.game.seats[s] for s in sorted(table.forfeited)],
        }

    async def _finish(self, table: Table) -> Table | None:
        """Record a game that is over and forget it; in a match, start the next game and
        return it. A failure to record is retried by restore()."""
        self._drop(table)
        game = table.game
        forfeited = [game.seats[s] for s in sorted(table.forfeited)]
        bots = {s for s in game.seats if is_ai(s)}
        counted = not bots or bool(table.options.get("ai_counts", False))
        try:
            names = {s: self.names[s] for s in game.seats if s in self.names}
            await self.storage.games.finish(
                table.game_id, game, names=names, forfeited=forfeited, counted=counted,
                unrated=bots,
            )  # fmt: skip
        except Exception:
            log.exception("game %s is over but could not be finished", table.game_id)
            return None
        if table.match is None:
            return None
        result = {
            "game_id": table.game_id,
            "sizes": list(game.result.bundle_sizes) if game.result else [],
            "places": list(stats.places(game, table.forfeited)),
            "forfeited": sorted(table.forfeited),
        }
        table.match = {**table.match, "results": [*table.match["results"], result]}
        verdict, winners = after_game(table.match, len(game.seats), game.rules.tiebreak)
        if verdict == "over":
            table.match["winners"] = list(winners)
            return None
        try:
            return await self._next_game(table)
        except Exception:
            log.exception("match of game %s: the next game could not be started", table.game_id)
            return None

    async def _next_game(self, last: Table) -> Table:
        """The match's next game: same seats and rules, the deal passed one seat on."""
        old = last.game
        n = len(old.seats)
        game = new_game(
            old.rules, old.seats, seed=self.seed_source(),
            dealer=next_dealer(old.dealer, n, old.rules.step),
        )  # fmt: skip
        match = {**last.match, "number": last.match["number"] + 1}
        table = Table(
            0, last.guild_id, last.channel_id, last.host_id, game, version=0,
            away=set(last.away), forfeited=set(last.forfeited), match=match,
            options=dict(last.options),
        )  # fmt: skip
        table.deadline = self._deadline(table, game, table.away, table.forfeited)
        row = await self.storage.games.create(
            last.guild_id, last.channel_id, last.host_id, old.rules.to_dict(),
            state=self._state(table, game),
        )  # fmt: skip
        table.game_id = row.id
        await self.storage.games.update(row.id, deadline=table.deadline, options=table.options)
        self.tables[row.id] = table
        self.channels[table.channel_id] = row.id
        self._arm(table)
        return table

    def _drop(self, table: Table) -> None:
        self._stop(table.timer)
        table.timer = None
        self.tables.pop(table.game_id, None)
        if self.channels.get(table.channel_id) == table.game_id:
            del self.channels[table.channel_id]

    def _state(
        self,
        table: Table,
        game: Game,
        *,
        autos: dict[int, int] | None = None,
        away: set[int] | None = None,
        forfeited: set[int] | None = None,
    ) -> dict[str, Any]:
        session = table.session_dict()
        if forfeited is not None:
            session["forfeited"] = sorted(forfeited)
        if autos is not None:
            session["autos"] = {str(s): n for s, n in autos.items() if n}
        if away is not None:
            session["away"] = sorted(away)
        return {**to_dict(game), "session": session}

    # ----- turn timers

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

    # ----- start-up and shut-down

    async def restore(self) -> list[int]:
        """Rebuild every stored lobby and game; finish games that ended before a restart.
        Timers are re-armed from their stored deadlines (a past one fires at once)."""
        restored = []
        for row in await self.storage.games.live():
            try:
                if await self._restore(row):
                    restored.append(row.id)
            except Exception:
                log.exception("could not restore game %s", row.id)
        return restored

    async def _restore(self, row: GameRow) -> bool:
        if row.id in self.lobbies or row.id in self.tables:
            return True
        known = await self.storage.stats.names(row.guild_id, row.seats)
        self.names.update({u: n for u, n in known.items() if u not in self.names})
        if row.channel_id in self.channels:
            log.warning("game %s: channel %s is already taken", row.id, row.channel_id)
            return False
        if row.state is None:
            lobby = Lobby(
                row.id, row.guild_id, row.channel_id, row.host_id,
                Rules.from_dict(row.rules), list(row.seats), row.max_players, row.deadline,
                row.match, dict(row.options),
            )  # fmt: skip
            self._add_lobby(lobby)
            return True
        game = from_dict(row.state)
        session = row.state.get("session") or {}
        table = Table(
            row.id, row.guild_id, row.channel_id, row.host_id, game, row.version,
            deadline=row.deadline,
            autos={int(s): int(n) for s, n in session.get("autos", {}).items()},
            away=set(session.get("away", ())),
            forfeited=set(session.get("forfeited", ())),
            match=session.get("match"),
            options=dict(row.options),
        )  # fmt: skip
        if game.over:
            nxt = await self._finish(table)
            await self.notify("game_over", row.id, self._over_payload(table, nxt))
            return False
        self.tables[row.id] = table
        self.channels[row.channel_id] = row.id
        if table.deadline is None:
            table.deadline = self._deadline(table, game, table.away, table.forfeited)
        self._arm(table)
        return True

    async def close(self) -> None:
        """Stop every timer (the storage stays open: its owner closes it)."""
        tasks = [t.timer for t in [*self.lobbies.values(), *self.tables.values()] if t.timer]
        for task in tasks:
            self._stop(task)
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self.lobbies.clear()
        self.tables.clear()
        self.channels.clear()

    async def notify(self, kind: str, game_id: int, payload: dict[str, Any]) -> None:
        if self.notify_cb is None:
            return
        try:
            await self.notify_cb(kind, game_id, payload)
        except Exception:
            log.exception("notify %s for game %s failed", kind, game_id)
