"""Match play: several games with the same seats, scored by games won or by cards. Pure.

A match is a plain dict, stored with each of its games' state:
{"games": n, "scoring": "wins" | "cards", "number": k (the game being played, from 1),
 "results": [{"game_id": id, "sizes": [...], "places": [...], "forfeited": [...]}, ...]}
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

SCORINGS = ("wins", "cards")
MAX_GAMES = 9
MAX_EXTRA = 3  # deciding games added to a tied match when the rules settle ties by playoff


def new_match(games: int, scoring: str) -> dict[str, Any] | None:
    """The match settings of a lobby; None for a single game."""
    if not 1 <= games <= MAX_GAMES:
        raise ValueError(f"a match has 1 to {MAX_GAMES} games")
    if scoring not in SCORINGS:
        raise ValueError(f"scoring is one of {', '.join(SCORINGS)}")
    return None if games == 1 else {"games": games, "scoring": scoring, "number": 1, "results": []}


@dataclass(frozen=True)
class Standing:
    seat: int
    wins: int
    cards: int


def standings(match: dict[str, Any], seats: int) -> list[Standing]:
    """Every seat's games won and cards so far, best first by the match's scoring."""
    wins, cards = [0] * seats, [0] * seats
    for r in match["results"]:
        out = set(r.get("forfeited", ()))
        for seat in range(seats):
            cards[seat] += r["sizes"][seat]
            if r["places"][seat] == 0 and seat not in out:
                wins[seat] += 1
    table = [Standing(s, wins[s], cards[s]) for s in range(seats)]
    return sorted(table, key=lambda st: (-score(match, st), st.seat))


def score(match: dict[str, Any], standing: Standing) -> int:
    return standing.wins if match["scoring"] == "wins" else standing.cards


def leaders(match: dict[str, Any], seats: int) -> tuple[int, ...]:
    table = standings(match, seats)
    best = score(match, table[0])
    return tuple(st.seat for st in table if score(match, st) == best)


def after_game(match: dict[str, Any], seats: int, tiebreak: str) -> tuple[str, tuple[int, ...]]:
    """What comes after the match's latest result: ("next", ()) for another game, or
    ("over", winners). A tie for first is settled as the rules settle a tied game: by the
    latest game's places (last_capturer), by deciding games (playoff), or shared."""
    played = len(match["results"])
    top = leaders(match, seats)
    if played < match["games"]:
        return "next", ()
    if len(top) == 1:
        return "over", top
    if tiebreak == "playoff" and played < match["games"] + MAX_EXTRA:
        return "next", ()
    if tiebreak == "last_capturer":
        for r in reversed(match["results"]):  # the tied player who did best most recently
            best = min(r["places"][s] for s in top)
            top = tuple(s for s in top if r["places"][s] == best)
            if len(top) == 1:
                break
    return "over", top


def next_dealer(dealer: int, seats: int, step: int) -> int:
    """The deal passes one seat on, the way play goes, each game."""
    return (dealer + step) % seats
