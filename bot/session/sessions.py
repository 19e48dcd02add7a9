"""Lobbies and tables per channel: who may do what, and saving every move.

Ids only, no Discord objects: the cog turns interactions into these calls and the results (and
`notify` callback's events, bot.session.events) into messages.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import time
from collections.abc import Callable, Collection
from typing import Any

from bot.domain.match import after_game, next_dealer
from bot.domain.options import DEFAULTS, Options
from bot.domain.seats import is_ai
from bot.engine import (
    Game,
    GameOver,
    IllegalMove,
    Move,
    Rules,
    apply,
    from_dict,
    new_game,
    replay,
)
from bot.engine.serialize import move_to_dict
from bot.storage import GameRow, LiveHead, Storage

from . import events as ev
from . import results
from .errors import (
    Forfeited,
    MoveRefused,
    NoGame,
    NoHints,
    NotHost,
    NotInGame,
    NotYourTurn,
    SaveFailed,
    StaleHand,
)
from .hints import suggest
from .live import Live
from .lobbies import LobbyOps
from .models import (
    CLOSED,
    ENDED,
    Hand,
    Lobby,
    Played,
    Table,
    closing,
    state_of,
    with_moves,
)
from .records import Records
from .timers import TurnTimers, auto_move, stop

log = logging.getLogger(__name__)

Notify = ev.Listener
AWAY_AFTER = 3  # consecutive auto moves that make a seat "away"
# After a restart, the person whose turn it is gets at least this long (seconds) before the bot
# plays for them: their stored deadline may have run out while the bot was down (a deploy), and
# they had no chance to play then.
RESTORE_GRACE = 60.0


def ended_state(state: dict[str, Any] | None) -> bool:
    """Whether a stored engine state is of a game that is over (its result is set)."""
    return state is not None and state.get("result") is not None


def new_seed() -> int:
    return secrets.randbits(63)


class Sessions(Live):
    """Every lobby and table, by channel (the registry in live.py), and what may happen to
    them. It owns its collaborators: the lobby operations (lobbies.py), the turn timers
    (timers.py) and the records the cogs read (records.py)."""

    def __init__(
        self,
        storage: Storage,
        *,
        clock: Callable[[], float] = time.time,
        notify: Notify | None = None,
        options: Options = DEFAULTS,
        retry_seconds: float = 5.0,
        restore_grace: float = RESTORE_GRACE,
        owns: Callable[[int], bool] | None = None,
    ) -> None:
        super().__init__()
        # Which guilds' games are this process's (its shards'; see bot/shards.py). Another
        # process restores, times and plays the rest, and delivers what they owe.
        self.owns: Callable[[int], bool] = owns or (lambda guild_id: True)
        self.storage = storage
        self.records = Records(storage)
        self.clock = clock
        self.notify_cb = notify
        self.retry_seconds = retry_seconds  # after a timer's move could not be saved
        self.restore_grace = restore_grace
        self.seed_source = options.seed_source or new_seed  # None: random seeds
        self.timers = TurnTimers(
            clock, self._timed_move, turn_seconds=options.turn_seconds,
            away_delay=options.away_delay, bot_delay=options.bot_delay, ready=self._timer_ready,
        )  # fmt: skip
        self.lobby_ops = LobbyOps(
            self, storage, self.timers, self.notify, clock=clock,
            seed_source=self.seed_source, lobby_seconds=options.lobby_seconds,
        )  # fmt: skip
        # The lobby operations, as the cogs and tests call them.
        ops = self.lobby_ops
        self.open_lobby, self.join, self.leave, self.start = (
            ops.open_lobby, ops.join, ops.leave, ops.start
        )  # fmt: skip
        self.add_bot, self.remove_bot = ops.add_bot, ops.remove_bot

    def listen(self, notify: Notify) -> None:
        """Where session events (bot.session.events) go: the presenter, once it exists."""
        self.notify_cb = notify

    async def remember(self, guild_id: int, user_id: str | int, name: str) -> None:
        """Keep a player's display name (stored, so tables and boards show it after a
        restart or once they leave the server)."""
        user = str(user_id)
        known = self.names_in(guild_id)
        if known.get(user) == name:
            return
        known[user] = name
        try:
            await self.storage.stats.set_name(guild_id, user, name)
        except Exception:
            log.warning("could not store the name of player %s", user, exc_info=True)

    # ----- the messages that show a game

    async def messages(self, game_id: int) -> tuple[int | None, int | None, int | None]:
        """The ids of a game's lobby, table and turn ping messages, as stored."""
        row = await self.storage.games.get(game_id)
        if row is None:
            return None, None, None
        return row.lobby_message_id, row.table_message_id, row.ping_message_id

    async def keep_messages(self, game_id: int, **ids: int | None) -> None:
        """Store message ids (lobby, table, ping) so a restart finds the messages again."""
        columns = {f"{what}_message_id": value for what, value in ids.items()}
        await self.storage.games.update(game_id, **columns)

    async def owed(self) -> list[ev.Owed]:
        """Messages that this process's games which ended still owe Discord: end screens
        (EndOwed) and closings (Closed, as the event said)."""
        # Every owed payload names its guild (ENDED and `closing` payloads); one that did not
        # is delivered, as before shards: showing it twice is harmless (see storage.outbox).
        return [
            ev.Closed.of(item.game_id, item.payload) if item.kind == CLOSED
            else ev.EndOwed(item.game_id)
            for item in await self.storage.outbox.pending()
            if item.payload.get("guild_id") is None or self.owns(int(item.payload["guild_id"]))
        ]  # fmt: skip

    async def delivered(self, game_id: int) -> None:
        """A game's owed message is shown: nothing is owed for it any more."""
        await self.storage.outbox.settle(game_id)

    async def ended_table(self, game_id: int) -> Table | None:
        """A finished game as its end screen shows it (after a restart)."""
        row = await self.storage.games.get(game_id)
        if row is None:
            return None
        entry = await self.storage.history.get(game_id)
        if entry is not None:  # a finished game keeps only its record: played again to its end
            game = await asyncio.to_thread(replay, entry.record)
            return self._table_of(row, [], game)
        if row.state is None:
            return None
        return self._table_of(row, await self.storage.games.moves(game_id))

    # ----- playing

    async def play(self, game_id: int, user_id: str | int, move: Move, version: int) -> Played:
        table = await self.load(game_id)
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
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        return table.hand(seat)

    async def hint(self, game_id: int, user_id: str | int, version: int) -> Move:
        """The medium AI's suggestion for this player's turn, worked out in a thread from
        their view only. Each hint is saved with the game (a server may not count games
        where someone took one)."""
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        if not table.hints_offered:
            raise NoHints()
        async with table.lock:
            if self.tables.get(game_id) is not table or version != table.version:
                raise StaleHand()
            if table.turn != seat:
                raise NotYourTurn()
            move = await asyncio.to_thread(suggest, table.game)
            hints = {**table.hints, seat: table.hints.get(seat, 0) + 1}
            before, table.hints = table.hints, hints
            try:
                await self.storage.games.update(game_id, state=state_of(table, table.game))
            except Exception as exc:
                table.hints = before
                raise SaveFailed() from exc
        return move

    async def forfeit(self, game_id: int, user_id: str | int) -> Table:
        """The seat stays in the game, played by the bot to the end, and places last."""
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        async with table.lock:
            if seat in table.forfeited:
                raise Forfeited()
            forfeited = table.forfeited | {seat}
            deadline = table.deadline  # another seat's turn keeps its time
            if table.turn == seat:  # this seat is played at once
                deadline = self.timers.deadline(table, table.game, table.away, forfeited)
            state = state_of(table, table.game, forfeited=forfeited)
            try:
                await self.storage.games.update(game_id, deadline=deadline, state=state)
            except Exception as exc:
                raise SaveFailed("error.save_forfeit") from exc
            table.forfeited, table.deadline = forfeited, deadline
            self.timers.arm(table)
        await self.notify(ev.Forfeited(game_id, seat))
        return table

    async def back(self, game_id: int, user_id: str | int) -> bool:
        """A player who was away did something (opened their hand, clicked a card): they are
        back, so the bot stops playing for them and their turn gets the full timer. True if
        they were away."""
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None or seat not in table.away:
            return False
        async with table.lock:
            if seat not in table.away:
                return False
            away = table.away - {seat}
            autos = {**table.autos, seat: 0}
            deadline = self.timers.deadline(table, table.game, away, table.forfeited)
            state = state_of(table, table.game, autos=autos, away=away)
            try:
                await self.storage.games.update(game_id, deadline=deadline, state=state)
            except Exception as exc:
                raise SaveFailed("error.save_return") from exc
            table.away, table.autos, table.deadline = away, autos, deadline
            self.timers.arm(table)
        await self.notify(ev.Back(game_id, seat))
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
            details = {"by": str(user_id), "admin": admin}
            if lobby is not None:
                if not (is_manager or str(user_id) == lobby.host_id):
                    raise NotHost()
                payload = closing(lobby, "cancelled", players=list(lobby.seats), **details)
                await self.lobby_ops.end(lobby, payload)
            else:
                table = self.tables.get(game_id)
                if table is None:  # a match between two games (see _finish)
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
                    self._drop(table)
        await self.notify(ev.Closed.of(game_id, payload))
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
        deadline = self.timers.deadline(table, game, away, table.forfeited)
        state = state_of(table, game, autos=autos, away=away)
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
            self.timers.arm(table)
        if became_away:
            await self.notify(ev.Away(table.game_id, seat))
        return Played(table.game_id, game, events, version, seat, auto, game.over, nxt)

    async def _timed_move(self, table: Table, version: int, thought: Move | None) -> None:
        """A turn timer ran out: play for the seat to act (its AI's `thought`, or the
        stand-in's move), unless the game has moved on since the timer was armed."""
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
                self.timers.arm(table)
                return
        await self._announce(table, played)

    async def _announce(self, table: Table, played: Played) -> None:
        events = tuple(played.events)
        await self.notify(ev.Moved(table, played.seat, played.auto, played.version, events))
        if played.ended:
            await self.notify(ev.GameOver(table, played.next))

    async def _finish(self, table: Table) -> Table | None:
        """Record a game that is over and forget it. In a match that goes on, the next game is
        saved in the same transaction, started and returned. A failure to record is retried by
        restore()."""
        if table.standing is None:  # once, for every screen (one read over has it already)
            table.standing = results.standing(table.game, table.forfeited)
        nxt = self._next_game(table)
        self._drop(table)
        if nxt is not None:
            # The channel stays claimed (by this game's id) until the next game has its own: never
            # free while that is saved, or a /steal new (open_lobby, which claims channels under
            # self.lock) could open a second live game in it. Not self.lock here: we hold the
            # table's lock, and cancel() takes self.lock and then the table's.
            self.channels[table.channel_id] = table.game_id
        game = table.game
        known = self.names_in(table.guild_id)
        bots = {s for s in game.seats if is_ai(s)}
        details: dict[str, Any] = {
            "names": {s: known[s] for s in game.seats if s in known},
            "forfeited": [game.seats[s] for s in sorted(table.forfeited)],
            "counted": table.counted,
            "unrated": bots,
            "placed": table.standing,
            # The end screen is owed with the result, so a restart cannot lose it.
            "owed": [(ENDED, {"guild_id": table.guild_id, "channel_id": table.channel_id})],
        }
        then = None if nxt is None else (state_of(nxt, nxt.game), nxt.deadline, nxt.options)
        try:
            new_id = await results.finish(
                self.storage, table.game_id, table.guild_id, game, then=then, **details
            )
            if nxt is None:
                return None
        except Exception:
            log.exception("game %s is over but could not be finished", table.game_id)
            self._drop(table)  # frees the channel, as for a single game
            return None
        if new_id is None:  # finished before: its next game was saved then, and restored
            self._drop(table)
            return None
        nxt.game_id = new_id
        self.tables[new_id] = nxt
        self.channels[nxt.channel_id] = new_id  # the hand-over: no await since the claim
        self.timers.arm(nxt)
        return nxt

    def _next_game(self, last: Table) -> Table | None:
        """Counts the game in its match; if the match goes on, its next game (not saved yet):
        same seats and rules, the deal passed one seat on."""
        if last.match is None:
            return None
        old = last.game
        assert last.standing is not None  # set by _finish, which asks
        result = {
            "game_id": last.game_id,
            "sizes": list(old.result.bundle_sizes) if old.result else [],
            "places": list(last.standing.places),
            "forfeited": sorted(last.forfeited),
        }
        last.match = {**last.match, "results": [*last.match["results"], result]}
        verdict, winners = after_game(last.match, len(old.seats), old.rules.tiebreak)
        if verdict == "over":
            last.match["winners"] = list(winners)
            return None
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
        table.deadline = self.timers.deadline(table, game, table.away, table.forfeited)
        return table

    def _drop(self, table: Table) -> None:
        stop(table.timer)
        table.timer = None
        self.tables.pop(table.game_id, None)
        if self.channels.get(table.channel_id) == table.game_id:
            del self.channels[table.channel_id]

    # ----- start-up and shut-down

    async def restore(self) -> list[int]:
        """Register every stored lobby and game of this process's guilds (`owns`) and re-arm
        their timers from the stored deadlines; finish games that ended before a restart.

        Lazy: a game's state, moves and players' names are read on its first use (`load`: a
        click, a hand, its timer running out), not here. Lobbies are read; so are the states
        (not the moves) of games with no stored deadline, to tell one that ended (read whole
        and finished) from an untimed one. A person whose turn it is gets RESTORE_GRACE from
        now, applied when the game is read."""
        restored = []
        heads = [h for h in await self.storage.games.heads() if self.owns(h.guild_id)]
        lobbies = {h.id for h in heads if h.status == "lobby"}
        untimed = {h.id for h in heads if h.status != "lobby" and h.deadline is None}
        # Three queries for all of them, not three per game: the rows of lobbies and untimed
        # games, the moves of those that ended, the names of those shown now (lobbies) or
        # finished now. The names in other games are read with the game (`load`, `load_all`).
        rows = {r.id: r for r in await self.storage.games.rows(lobbies | untimed)}
        ended = {i for i in untimed if i in rows and ended_state(rows[i].state)}
        moves = await self.storage.games.moves_of(ended)
        await self._learn_names({(r.guild_id, s) for r in rows.values() for s in r.seats})
        now = self.clock()
        for head in heads:
            try:
                row = rows.get(head.id)
                if head.id in lobbies or head.id in ended:
                    ok = row is not None and await self._restore(row, moves.get(head.id, []))
                elif head.id in untimed:
                    ok = row is not None and self._restore_head(head, self._deadline_of(row), now)
                else:
                    ok = self._restore_head(head, head.deadline, now)
                if ok:
                    restored.append(head.id)
            except Exception:
                log.exception("could not restore game %s", head.id)
        return restored

    def _restore_head(self, head: LiveHead, deadline: float | None, now: float) -> bool:
        """A game registered unread at `now`: routed, and its timer armed."""
        if head.id in self.tables:
            return True
        if head.channel_id in self.channels:
            log.warning("game %s: channel %s is already taken", head.id, head.channel_id)
            return False
        table = Table(
            head.id, head.guild_id, head.channel_id, head.host_id, None, head.version,
            deadline=deadline, options=dict(head.options), stored_seats=head.seats,
            grace=now + self.restore_grace,
        )  # fmt: skip
        self.tables[head.id] = table
        self.channels[head.channel_id] = head.id
        self.timers.arm_restored(table, now)
        return True

    def _deadline_of(self, row: GameRow) -> float | None:
        """A game with no stored deadline (not over): its seat to act's, from the stored state
        alone (no moves, no engine)."""
        state = row.state or {}
        playoffs = state["playoffs"]
        seat = (playoffs[-1] if playoffs else state)["turn"]
        if seat is None:
            return None
        session = state.get("session") or {}
        absent = {*session.get("away", ()), *session.get("forfeited", ())}
        return self.timers.deadline_of(seat, row.seats[seat], absent, row.options)

    async def load(self, game_id: int) -> Table:
        """A running game's table with its game read: a restored game's first use reads its
        state and moves. NoGame if there is none, or if its state cannot be read (logged;
        the game is dropped, as restore() dropped it before restores were lazy)."""
        table = self.table(game_id)
        await self._ready(table)
        return table

    def due(self, game_ids: Collection[int]) -> list[int]:
        """Restored games not read yet whose turn runs out within the restart's grace: the
        bot reads them at start-up, so their tables show the time the grace gives at once
        (the others still show what they showed)."""
        return [
            i
            for i in game_ids
            if (t := self.tables.get(i)) is not None
            and not t.loaded
            and t.deadline is not None
            and t.grace is not None
            and t.deadline < t.grace
        ]

    async def load_all(self, game_ids: Collection[int]) -> None:
        """`load` for many games at once (three queries), e.g. to show every restored table;
        those that cannot be read are dropped. Lobbies and unknown ids are left alone."""
        waiting = [t for i in game_ids if (t := self.tables.get(i)) is not None and not t.loaded]
        if not waiting:
            return
        ids = [t.game_id for t in waiting]
        rows = {r.id: r for r in await self.storage.games.rows(ids)}
        moves = await self.storage.games.moves_of(ids)
        await self._learn_names({(t.guild_id, s) for t in waiting for s in t.seats})
        for table in waiting:
            async with table.lock:
                if table.loaded or self.tables.get(table.game_id) is not table:  # a click read it
                    continue
                with contextlib.suppress(NoGame):
                    await self._adopt(table, rows.get(table.game_id), moves.get(table.game_id, []))

    async def _ready(self, table: Table) -> None:
        """Read a restored table's game, once (its first use). NoGame if it cannot be read
        or turns out to be over; a storage error is raised as it is (the next use retries)."""
        if table.loaded:
            return
        async with table.lock:  # one read, however many clicks wait for it
            if table.loaded:
                return
            if self.tables.get(table.game_id) is not table:  # dropped while we waited
                raise NoGame()
            row = await self.storage.games.get(table.game_id)
            moves = await self.storage.games.moves(table.game_id)
            await self._learn_names({(table.guild_id, s) for s in table.seats})
            await self._adopt(table, row, moves)

    async def _learn_names(self, seated: set[tuple[int, str]]) -> None:
        """The stored names of these (guild, player), in one query; a name seen since is kept."""
        if not seated:
            return
        for (guild_id, user_id), name in (await self.storage.stats.names_of(seated)).items():
            self.names_in(guild_id).setdefault(user_id, name)

    async def _timer_ready(self, table: Table) -> None:
        """_ready for a timer that ran out: if storage failed, it tries again later."""
        try:
            await self._ready(table)
        except NoGame:
            raise
        except Exception:
            log.exception("game %s: could not be read for its timer", table.game_id)
            table.deadline = self.clock() + self.retry_seconds
            self.timers.arm(table)
            raise

    async def _adopt(self, table: Table, row: GameRow | None, moves: list[dict[str, Any]]) -> None:
        """A restored table takes its game from its stored row and moves, and the grace it
        was restored with (under its lock). Raises NoGame, dropping the table, if they do not
        read, or if the game is over (it is finished, as restore() finishes one)."""
        try:
            if row is None or row.state is None or row.version != table.version:
                raise ValueError(f"the stored game is not the one restored: {row!r}")
            read = self._table_of(row, moves)
        except Exception as exc:
            log.exception("could not restore game %s", table.game_id)
            self._drop(table)
            raise NoGame() from exc
        table.game, table.autos, table.away = read.game, read.autos, read.away
        table.forfeited, table.match, table.hints = read.forfeited, read.match, read.hints
        grace, table.grace = table.grace, None
        if read.game.over:  # restore reads those with no deadline, where an ended one is
            await self._end_restored(table)
            raise NoGame()
        waits = table.deadline is not None and grace is not None and table.deadline < grace
        if waits and self._waits_for_person(table):  # see RESTORE_GRACE (AI, away: no grace)
            table.deadline = grace
            self.timers.arm(table)

    async def _restore(self, row: GameRow, moves: list[dict[str, Any]]) -> bool:
        """A lobby, or a game read whole: one that ended before the restart, finished now
        (False: it is not restored)."""
        if row.id in self.lobbies or row.id in self.tables:
            return True
        if row.channel_id in self.channels:
            log.warning("game %s: channel %s is already taken", row.id, row.channel_id)
            return False
        if row.state is None:
            lobby = Lobby(
                row.id, row.guild_id, row.channel_id, row.host_id,
                Rules.from_dict(row.rules), list(row.seats), row.max_players, row.deadline,
                row.match, dict(row.options),
            )  # fmt: skip
            self.lobby_ops.add(lobby)
            return True
        table = self._table_of(row, moves)
        if not table.game.over:  # restore reads no other game whole
            raise ValueError(f"game {row.id} was read whole but is not over")
        await self._end_restored(table)
        return False

    async def _end_restored(self, table: Table) -> None:
        """A game that ended before a restart but was not recorded: record it now."""
        nxt = await self._finish(table)
        await self.notify(ev.GameOver(table, nxt))

    @staticmethod
    def _table_of(row: GameRow, moves: list[dict[str, Any]], game: Game | None = None) -> Table:
        """A stored game and its moves (or the `game` itself) as a table: the engine's state
        and the session's bookkeeping."""
        session = (row.state or {}).get("session") or {}
        if game is None:
            assert row.state is not None
            game = from_dict(with_moves(row.state, moves))
        forfeited = set(session.get("forfeited", ()))
        # A game read over (after a restart) has its places worked out here, once.
        standing = results.standing(game, forfeited) if game.over else None
        return Table(
            row.id, row.guild_id, row.channel_id, row.host_id, game, row.version,
            deadline=row.deadline,
            autos={int(s): int(n) for s, n in session.get("autos", {}).items()},
            away=set(session.get("away", ())),
            forfeited=forfeited,
            match=session.get("match"),
            options=dict(row.options),
            hints={int(s): int(n) for s, n in session.get("hints", {}).items()},
            standing=standing,
        )  # fmt: skip

    @staticmethod
    def _waits_for_person(table: Table) -> bool:
        seat = table.turn
        if seat is None or is_ai(table.seats[seat]):
            return False
        return seat not in table.away and seat not in table.forfeited

    async def close(self) -> None:
        """Stop every timer (the storage stays open: its owner closes it)."""
        live: list[Lobby | Table] = [*self.lobbies.values(), *self.tables.values()]
        for x in live:
            stop(x.timer)
        tasks = [x.timer for x in live if isinstance(x.timer, asyncio.Task)]
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.gather(*tasks, return_exceptions=True)
        self.lobbies.clear()
        self.tables.clear()
        self.channels.clear()

    async def notify(self, event: ev.Event) -> None:
        if self.notify_cb is None:
            return
        try:
            await self.notify_cb(event)
        except Exception:
            log.exception("notify %s for game %s failed", type(event).__name__, event.game_id)
