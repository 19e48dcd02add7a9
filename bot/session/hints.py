"""Hints: the medium AI's suggestion for a player's turn, and the count of hints each seat
took, saved with the game (a server may not count games where someone took one). A
collaborator Sessions owns; it shares Sessions' registry."""

from __future__ import annotations

import random

from bot import work
from bot.engine import Game, Move, active, view
from bot.storage import Storage

from .errors import NoHints, NotInGame, NotYourTurn, SaveFailed, StaleHand
from .live import Live
from .models import state_of
from .restore import Load
from .timers import AUTO_PLAYER


def suggest(game: Game) -> Move:
    """A hint: the medium AI's move for the seat to act, from that seat's view, seeded by the
    position (the same position always gets the same hint)."""
    g = active(game)
    seat = g.turn
    assert seat is not None, "the game is over"
    rng = random.Random(f"hint/{game.seed}/{len(game.playoffs)}/{len(g.moves)}/{seat}")
    # The same medium AI the bot plays absent seats with (the timers' stand-in).
    return AUTO_PLAYER.choose(view(game, seat), rng)


class Hints:
    def __init__(self, live: Live, storage: Storage, *, load: Load) -> None:
        self.live = live
        self.storage = storage
        self.load = load

    async def hint(self, game_id: int, user_id: str | int, version: int) -> Move:
        """The medium AI's suggestion for this player's turn, worked out in a thread from
        their view only, and saved (counted) with the game. Once a turn: a second click in
        the same turn gets the same move again, without the AI or a write."""
        table = await self.load(game_id)
        seat = table.seat_of(user_id)
        if seat is None:
            raise NotInGame()
        if not table.hints_offered:
            raise NoHints()
        async with table.lock:
            if self.live.tables.get(game_id) is not table or version != table.version:
                raise StaleHand()
            if table.turn != seat:
                raise NotYourTurn()
            again = table.last_hint  # one hint a turn is plenty: a second click shows it again
            if again is not None and again[:2] == (version, seat):
                return again[2]
            move = await work.run(table.guild_id, suggest, table.game)
            hints = {**table.hints, seat: table.hints.get(seat, 0) + 1}
            before, table.hints = table.hints, hints
            try:
                await self.storage.games.update(
                    game_id, version=table.version, state=state_of(table, table.game)
                )
            except Exception as exc:
                # The count is saved or not: the next use reads the game again to know.
                table.hints, table.stale = before, True
                raise SaveFailed() from exc
            table.last_hint = (version, seat, move)
        return move
