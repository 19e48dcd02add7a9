"""Match play: several games with the same seats, scored by games won or by cards. Pure.

A match is a `Match` value, stored as a dict beside each of its games' state (`to_dict`,
`from_dict`; the stored form is the one the bot always wrote):
{"games": n, "scoring": "wins" | "cards", "number": k (the game being played, from 1),
 "results": [{"game_id": id, "sizes": [...], "places": [...], "forfeited": [...]}, ...],
 "winners": [seat, ...] (only once the match is over)}
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace
from typing import Any

SCORINGS = ("wins", "cards")
MAX_GAMES = 9
MAX_EXTRA = 3  # deciding games added to a tied match when the rules settle ties by playoff


@dataclass(frozen=True)
class GameResult:
    """One game of a match as it counts: each seat's final bundle size and place (0 = first),
    and the seats that forfeited it (they win nothing, whatever their place)."""

    game_id: int
    sizes: tuple[int, ...]
    places: tuple[int, ...]
    forfeited: tuple[int, ...] = ()

    def to_dict(self) -> dict[str, Any]:
        return {
            "game_id": self.game_id,
            "sizes": list(self.sizes),
            "places": list(self.places),
            "forfeited": list(self.forfeited),
        }

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> GameResult:
        return cls(
            int(data["game_id"]),
            tuple(int(n) for n in data["sizes"]),
            tuple(int(n) for n in data["places"]),
            tuple(int(s) for s in data.get("forfeited", ())),  # older results have none
        )


@dataclass(frozen=True)
class Match:
    """A match's settings and progress: how many games and how they are scored, the game
    being played (from 1), the results so far, and, once it is over, its winners' seats."""

    games: int
    scoring: str
    number: int = 1
    results: tuple[GameResult, ...] = ()
    winners: tuple[int, ...] | None = None  # None while the match goes on

    @property
    def over(self) -> bool:
        return self.winners is not None

    def counted(self, result: GameResult) -> Match:
        """The match with one more game's result."""
        return replace(self, results=(*self.results, result))

    def next_game(self) -> Match:
        return replace(self, number=self.number + 1)

    def won_by(self, winners: tuple[int, ...]) -> Match:
        return replace(self, winners=winners)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {
            "games": self.games,
            "scoring": self.scoring,
            "number": self.number,
            "results": [r.to_dict() for r in self.results],
        }
        if self.winners is not None:
            data["winners"] = list(self.winners)
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Match:
        winners = data.get("winners")
        return cls(
            int(data["games"]),
            str(data["scoring"]),
            int(data.get("number", 1)),  # settings stored without progress: the first game
            tuple(GameResult.from_dict(r) for r in data.get("results", ())),
            None if winners is None else tuple(int(s) for s in winners),
        )

    @classmethod
    def read(cls, data: Mapping[str, Any] | None) -> Match | None:
        """A stored match, or None (a single game)."""
        return None if data is None else cls.from_dict(data)


def new_match(games: int, scoring: str) -> Match | None:
    """The match settings of a lobby; None for a single game."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"a match has 1 to {MAX_GAMES} games")
    if scoring not in SCORINGS:
        raise ValueError(f"scoring is one of {', '.join(SCORINGS)}")
    return None if games == 1 else Match(games, scoring)


@dataclass(frozen=True)
class Standing:
    seat: int
    wins: int
    cards: int


def standings(match: Match, seats: int) -> list[Standing]:
    """Every seat's games won and cards so far, best first by the match's scoring."""
    wins, cards = [0] * seats, [0] * seats
    for r in match.results:
        out = set(r.forfeited)
        for seat in range(seats):
            cards[seat] += r.sizes[seat]
            if r.places[seat] == 0 and seat not in out:
                wins[seat] += 1
    table = [Standing(s, wins[s], cards[s]) for s in range(seats)]
    return sorted(table, key=lambda st: (-score(match, st), st.seat))


def score(match: Match, standing: Standing) -> int:
    return standing.wins if match.scoring == "wins" else standing.cards


def leaders(match: Match, seats: int) -> tuple[int, ...]:
    table = standings(match, seats)
    best = score(match, table[0])
    return tuple(st.seat for st in table if score(match, st) == best)


def after_game(match: Match, seats: int, tiebreak: str) -> tuple[str, tuple[int, ...]]:
    """What comes after the match's latest result: ("next", ()) for another game, or
    ("over", winners). A tie for first is settled as the rules settle a tied game: by the
    latest game's places (last_capturer), by deciding games (playoff), or shared."""
    played = len(match.results)
    top = leaders(match, seats)
    if played < match.games:
        return "next", ()
    if len(top) == 1:
        return "over", top
    if tiebreak == "playoff" and played < match.games + MAX_EXTRA:
        return "next", ()
    if tiebreak == "last_capturer":
        for r in reversed(match.results):  # the tied player who did best most recently
            best = min(r.places[s] for s in top)
            top = tuple(s for s in top if r.places[s] == best)
            if len(top) == 1:
                break
    return "over", top


def next_dealer(dealer: int, seats: int, step: int) -> int:
    """The deal passes one seat on, the way play goes, each game."""
    return (dealer + step) % seats
