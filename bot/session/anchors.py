"""Which games played where only interaction tokens reach (a group DM: `Place.tokens_only`)
still have a token that shows them, their anchor, and until when. The presenter keeps it; the
turn timers and a lobby's expiry read it: they act only while an anchor lives, so nobody is
played for, and no lobby closes, where nothing could show it (the game is paused instead)."""

from __future__ import annotations

from collections.abc import Callable


class Anchors:
    def __init__(self, clock: Callable[[], float]) -> None:
        self.clock = clock
        self.until: dict[int, float] = {}  # game id -> when its anchor expires (unix seconds)

    def hold(self, game_id: int, expires: float) -> None:
        self.until[game_id] = expires

    def drop(self, game_id: int) -> None:
        self.until.pop(game_id, None)

    def alive(self, game_id: int) -> bool:
        return self.until.get(game_id, float("-inf")) > self.clock()
