"""The moments worth showing at the end of a game. Pure: read from each move's events, as the
presenter saw them (`Tally`, fed one move at a time) or as a replay of the game gives them."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from bot.engine import Event, Game, record, replay

MoveEvents = Sequence[Event]  # one move's engine events


@dataclass(frozen=True)
class Highlights:
    biggest_steal: tuple[int, int, int, str] | None  # (thief, victim, cards, card played)
    most_steals: tuple[tuple[int, ...], int] | None  # (seats, steals each)
    longest_top: tuple[int, str, int] | None  # (seat, card, turns it stayed on top)


class Tally:
    """The highlights so far, fed each move's events in the order played (`add`). Only the
    main game's moves count: a playoff is a fresh deal with its own bundles."""

    def __init__(self, seats: int) -> None:
        self.moves = 0  # moves added, playoffs' included
        self._main = True  # no playoff started yet
        self._ply = 0  # main-game moves added
        self._biggest: tuple[int, int, int, str] | None = None
        self._steals = [0] * seats
        self._tops: dict[tuple[int, int], tuple[str, int]] = {}  # (seat, bundle) -> (card, since)
        self._longest: tuple[int, str, int] | None = None

    def add(self, events: MoveEvents) -> None:
        self.moves += 1
        if not self._main:
            return
        ply = self._ply
        for e in events:
            if e["type"] == "playoff_started":
                self._main = False  # this move still counts: it ended the main game
            if e["type"] not in ("captured", "stole"):
                continue
            mine = (e["seat"], e.get("own_bundle") or 0)
            self._retire(mine, ply)
            self._tops[mine] = (e["card"], ply)
            if e["type"] == "stole":
                self._retire((e["from_seat"], e.get("from_bundle") or 0), ply)
                self._steals[e["seat"]] += 1
                if self._biggest is None or e["n"] > self._biggest[2]:
                    self._biggest = (e["seat"], e["from_seat"], e["n"], e["card"])
        self._ply += 1

    def _retire(self, key: tuple[int, int], ply: int) -> None:
        if key in self._tops:
            card, since = self._tops.pop(key)
            self._longest = _longer(self._longest, key[0], card, ply - since)

    def result(self) -> Highlights:
        """The highlights as the game stands: the cards still on top count up to now."""
        longest = self._longest
        for (seat, _), (card, since) in self._tops.items():
            longest = _longer(longest, seat, card, self._ply - since)
        most = max(self._steals, default=0)
        seats = tuple(s for s, n in enumerate(self._steals) if n == most)
        return Highlights(self._biggest, (seats, most) if most else None, longest)


def _longer(
    best: tuple[int, str, int] | None, seat: int, card: str, turns: int
) -> tuple[int, str, int] | None:
    return (seat, card, turns) if best is None or turns > best[2] else best


def highlights_of(moves: Iterable[MoveEvents], seats: int) -> Highlights:
    """The highlights of a game of `seats` seats from each of its moves' events, in order."""
    tally = Tally(seats)
    for events in moves:
        tally.add(events)
    return tally.result()


def highlights(game: Game) -> Highlights:
    """From the game's own moves, played again (when no move's events were kept)."""
    events: list[list[Event]] = []
    replay(record(game), events)
    return highlights_of(events, len(game.seats))
