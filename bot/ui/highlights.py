"""The moments worth showing at the end of a game. Pure: read from the game's own moves."""

from __future__ import annotations

from dataclasses import dataclass

from bot.engine import Event, Game, record, replay


@dataclass(frozen=True)
class Highlights:
    biggest_steal: tuple[int, int, int, str] | None  # (thief, victim, cards, card played)
    most_steals: tuple[tuple[int, ...], int] | None  # (seats, steals each)
    longest_top: tuple[int, str, int] | None  # (seat, card, turns it stayed on top)


def highlights(game: Game) -> Highlights:
    """From the main game's moves (a playoff is a fresh deal with its own bundles)."""
    events: list[list[Event]] = []
    replay(record(game), events)
    events = events[: len(game.moves)]
    biggest: tuple[int, int, int, str] | None = None
    steals = [0] * len(game.seats)
    tops: dict[tuple[int, int], tuple[str, int]] = {}  # (seat, bundle) -> (card, since ply)
    longest: tuple[int, str, int] | None = None

    def retire(key: tuple[int, int], ply: int) -> None:
        nonlocal longest
        if key in tops:
            card, since = tops.pop(key)
            if longest is None or ply - since > longest[2]:
                longest = (key[0], card, ply - since)

    for ply, move_events in enumerate(events):
        for e in move_events:
            if e["type"] != "captured" and e["type"] != "stole":
                continue
            mine = (e["seat"], e.get("own_bundle") or 0)
            retire(mine, ply)
            tops[mine] = (e["card"], ply)
            if e["type"] == "stole":
                retire((e["from_seat"], e.get("from_bundle") or 0), ply)
                steals[e["seat"]] += 1
                if biggest is None or e["n"] > biggest[2]:
                    biggest = (e["seat"], e["from_seat"], e["n"], e["card"])
    for key in list(tops):
        retire(key, len(events))
    most = max(steals)
    most_steals = (tuple(s for s, n in enumerate(steals) if n == most), most) if most else None
    return Highlights(biggest, most_steals, longest)
