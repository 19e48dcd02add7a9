"""What one seat may see: the observer that UIs and AI policies get instead of the game."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .game import Game, Move, Result, active
from .rules import Rules


@dataclass(frozen=True)
class BundleView:
    top: str | None  # only the top card of a bundle shows
    size: int


@dataclass(frozen=True)
class View:
    seat: int
    seats: tuple[str, ...]
    rules: Rules
    dealer: int
    players: tuple[int, ...]  # who is playing now (the tied seats during a playoff)
    playoff: int  # 0 in the game itself, else the number of the running playoff
    turn: int | None
    hand: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    pool: tuple[str, ...]
    bundles: tuple[tuple[BundleView, ...], ...]  # per seat; two each with double bundles
    stock_size: int
    # Every card played so far in this game (or playoff): played cards are face up, so public.
    history: tuple[tuple[int, Move], ...]
    result: Result | None

    def to_dict(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "seats": list(self.seats),
            "rules": self.rules.to_dict(),
            "dealer": self.dealer,
            "players": list(self.players),
            "playoff": self.playoff,
            "turn": self.turn,
            "hand": list(self.hand),
            "hand_sizes": list(self.hand_sizes),
            "pool": list(self.pool),
            "bundles": [[{"top": b.top, "size": b.size} for b in seat] for seat in self.bundles],
            "stock_size": self.stock_size,
            "history": [{"seat": s, **m._asdict()} for s, m in self.history],
            "result": self.result.to_dict() if self.result else None,
        }


def view(game: Game, seat: int) -> View:
    g = active(game)
    return View(
        seat=seat,
        seats=game.seats,
        rules=game.rules,
        dealer=game.dealer,
        players=g.players,
        playoff=len(game.playoffs) if g is not game else 0,
        turn=g.turn,
        hand=tuple(g.hands[seat]),
        hand_sizes=tuple(len(h) for h in g.hands),
        pool=tuple(g.pool),
        bundles=tuple(
            tuple(BundleView(b[-1] if b else None, len(b)) for b in bundles)
            for bundles in g.bundles
        ),
        stock_size=len(g.stock),
        history=tuple((s, m) for s, m, _auto in g.moves),
        result=game.result,
    )
