"""`storage.games`: one name for a game's whole life, from lobby to end. Its parts: the live
rows (live.py), the move write path (move_saves.py) and the end (finishing.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from .finishing import Finishing
from .live import LiveGames
from .move_saves import MoveSaves

if TYPE_CHECKING:
    from .connection import Connection


class Games:
    def __init__(self, connection: Connection) -> None:
        self.live_games = live = LiveGames(connection)
        self.move_saves = saves = MoveSaves(connection)
        self.finishing = finishing = Finishing(connection)
        # The parts' own methods, bound here: the session calls them as games.<name>, and a
        # test can replace one on this object.
        self.create = live.create
        self.get = live.get
        self.live = live.live
        self.heads = live.heads
        self.rows = live.rows
        self.moves = live.moves
        self.moves_of = live.moves_of
        self.update = live.update
        self.start = live.start
        self.set_aside = live.set_aside
        self.broken = live.broken
        self.save_move = saves.save_move
        self.group = saves.group  # the moves' group commit (tests and the bench count batches)
        self.prepare = saves.prepare
        self.close = saves.close
        self.cancel = finishing.cancel
        self.finish = finishing.finish
        self.finish_then = finishing.finish_then
