"""Playing a running game: a player's move, their hand, a forfeit, coming back from away, and
the move a turn timer plays for the seat to act. A collaborator Sessions owns; it shares
Sessions' registry."""

from __future__ import annotations

import json
import logging
from collections.abc import Mapping
from typing import Any

from bot.domain.seats import is_ai
from bot.engine import GameOver, IllegalMove, Move, apply
from bot.engine.serialize import move_to_dict

from . import events as ev
from . import retry
from .errors import Forfeited, MoveRefused, NoGame, NotInGame, NotYourTurn, SaveFailed, StaleHand
from .matches import Matches
from .models import RECENT, Hand, Played, Table, state_of
from .parts import Parts
from .restore import Load
from .timers import auto_move

log = logging.getLogger(__name__)

AWAY_AFTER = 3  # consecutive auto moves that make a seat "away"


class Play:
    def __init__(self, parts: Parts, matches: Matches, *, load: Load) -> None:
        self.live = parts.live
        self.storage = parts.storage
        self.timers = parts.timers
        self.matches = matches
        self.notify = parts.notify
        self.load = load
        self.clock = parts.clock
        self.retry_seconds = parts.retry_seconds  # the first wait after a timer's move failed

    async def play(self, game_id: int, user_id: str | int, move: Move, version: int) -> Played:
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        async with table.lock:
            if self.live.tables.get(game_id) is not table:
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

    async def forfeit(self, game_id: int, user_id: str | int) -> Table:
        """The seat stays in the game, played by the bot to the end, and places last."""
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        async with table.lock:
            if self.live.tables.get(game_id) is not table or table.game.over:
                raise NoGame()
            if seat in table.forfeited:
                raise Forfeited()
            forfeited = table.forfeited | {seat}
            deadline = table.deadline  # another seat's turn keeps its time
            if table.turn == seat:  # this seat is played at once
                deadline = self.timers.deadline(table, table.game, table.away, forfeited)
            state = state_of(table, table.game, forfeited=forfeited)
            try:
                await self._save(table, deadline=deadline, state=state)
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
            if self.live.tables.get(game_id) is not table or seat not in table.away:
                return False
            if table.game.over:  # being recorded: nothing to come back to
                return False
            away = table.away - {seat}
            autos = {**table.autos, seat: 0}
            deadline = self.timers.deadline(table, table.game, away, table.forfeited)
            state = state_of(table, table.game, autos=autos, away=away)
            try:
                await self._save(table, deadline=deadline, state=state)
            except Exception as exc:
                raise SaveFailed("error.save_return") from exc
            table.away, table.autos, table.deadline = away, autos, deadline
            self.timers.arm(table)
        await self.notify(ev.Back(game_id, seat))
        return True

    async def _save(self, table: Table, **changes: Any) -> None:
        """A change to a game that is not a move (a forfeit, a return), saved only if the
        stored game is at this table's version. If it fails, or its outcome is unknown, the
        table is `stale`: its next use reads it again."""
        try:
            await self.storage.games.update(table.game_id, version=table.version, **changes)
        except Exception:
            table.stale = True
            raise

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
        saved = move_to_dict(seat, Move(*move), auto)
        try:
            await self.storage.games.save_move(
                table.game_id, state, saved, version, deadline=deadline
            )
        except Exception as exc:
            log.warning("game %s: move %s not saved: %r", table.game_id, version, exc)
            if not await self._counted(table, version, saved):
                raise SaveFailed() from exc
            log.warning("game %s: move %s was saved all the same", table.game_id, version)
        became_away = seat in away and seat not in table.away
        table.game, table.version, table.deadline = game, version, deadline
        table.autos, table.away = autos, away
        table.recent = (*table.recent, (seat, tuple(events)))[-RECENT:]
        nxt = None
        if game.over:
            nxt = await self.matches.finish(table)
        else:
            self.timers.arm(table)
        if became_away:
            await self.notify(ev.Away(table.game_id, seat))
        return Played(table.game_id, game, events, version, seat, auto, game.over, nxt)

    async def _counted(self, table: Table, version: int, move: Mapping[str, Any]) -> bool:
        """After saving move `version` failed: whether storage holds it all the same (the
        commit happened and its acknowledgement was lost). False if storage holds the game as
        this table has it (nothing changed). Otherwise, or if storage cannot be read, this copy
        may be stale: it is marked so (its next use reads it again); SaveFailed says the move
        may or may not have counted when that is not known."""
        try:
            row = await self.storage.games.get(table.game_id)
            stored = await self.storage.games.moves(table.game_id) if row is not None else []
        except Exception as exc:
            table.stale = True
            raise SaveFailed("error.save_unsure") from exc
        if row is not None and row.status == "active":
            if row.version == version and stored and stored[-1] == json.loads(json.dumps(move)):
                return True
            if row.version == table.version:
                return False
        table.stale = True  # moved on elsewhere, or ended: what storage holds counts
        return False

    async def timed_move(self, table: Table, version: int, thought: Move | None) -> None:
        """A turn timer ran out: play for the seat to act (its AI's `thought`, or the
        stand-in's move), unless the game has moved on since the timer was armed."""
        async with table.lock:
            if self.live.tables.get(table.game_id) is not table or table.version != version:
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
                retry.failed(f"the timer's move for seat {seat}", table.game_id, table.failures)
                wait = retry.wait(table.failures, self.retry_seconds)  # then longer each time
                table.deadline = self.clock() + wait
                table.failures += 1
                self.timers.arm(table)
                return
            retry.recovered("the timer's move", table.game_id, table.failures)
            table.failures = 0
        await self._announce(table, played)

    async def _announce(self, table: Table, played: Played) -> None:
        events = tuple(played.events)
        await self.notify(ev.Moved(table, played.seat, played.auto, played.version, events))
        if played.ended and table.recorded:  # else it says so once recorded (Matches.finish)
            await self.notify(ev.GameOver(table, played.next))
