"""Shortcuts of the engine's scenario tests: moves by name, played in turn, and the events
they make."""

from __future__ import annotations

from bot.engine import CAPTURE, STEAL, TRAIL, Move, active, apply


def cap(card: str, own: int | None = None) -> Move:
    return Move(card, CAPTURE, None, None, own)


def steal(card: str, seat: int, bundle: int | None = None, own: int | None = None) -> Move:
    return Move(card, STEAL, seat, bundle, own)


def trail(card: str) -> Move:
    return Move(card, TRAIL)


def run(g, *moves: Move):
    """Play `moves` in order, each for whoever is to act; return the game and all events."""
    events = []
    for move in moves:
        g, new = apply(g, move, seat=active(g).turn)
        events += new
    return g, events


def kinds(events) -> list[str]:
    return [e["type"] for e in events]


def only(events, kind: str) -> dict:
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, f"expected one {kind!r} event in {kinds(events)}"
    return found[0]


def trail_out(g):
    """Trail the first card of whoever is to act until the game (or playoff) ends."""
    turns, events = [], []
    start = len(g.playoffs)
    while g.result is None and len(g.playoffs) == start:
        a = active(g)
        turns.append(a.turn)
        g, new = apply(g, trail(a.hands[a.turn][0]), seat=a.turn)
        events += new
    return g, turns, events
