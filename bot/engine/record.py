"""Game records (docs/record-format.md): what was dealt and played, and `replay` to check it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final, TypedDict

from .errors import BadState, EngineError
from .events import Events
from .game import Game, Move, ResultDict, new_game
from .moves import apply
from .rules import Rules
from .serialize import DealDict, MoveDict, deal_to_dict, move_from_dict, move_to_dict

FORMAT: Final = "steal-the-bundle/1"


class PlayoffRecord(TypedDict):
    seats: list[int]
    initial: DealDict
    moves: list[MoveDict]
    bundle_sizes: list[int] | None


class RecordDict(TypedDict):
    format: str
    rules: dict[str, Any]
    seats: list[str]
    dealer: int
    seed: int | str | None
    initial: DealDict
    moves: list[MoveDict]
    playoffs: list[PlayoffRecord]
    result: ResultDict | None


def record(game: Game) -> RecordDict:
    """The game's record so far; `result` is null until it is over."""
    return {
        "format": FORMAT,
        "rules": game.rules.to_dict(),
        "seats": list(game.seats),
        "dealer": game.dealer,
        "seed": game.seed,
        "initial": deal_to_dict(*game.initial),
        "moves": [move_to_dict(*m) for m in game.moves],
        "playoffs": [
            {
                "seats": list(p.players),
                "initial": deal_to_dict(*p.initial),
                "moves": [move_to_dict(*m) for m in p.moves],
                "bundle_sizes": list(p.result.bundle_sizes) if p.result else None,
            }
            for p in game.playoffs
        ],
        "result": game.result.to_dict() if game.result else None,
    }


def _deck_order(
    rules: Rules,
    dealer: int,
    hands: Sequence[Sequence[str]],
    pool: Sequence[str],
    stock: Sequence[str],
) -> list[str]:
    # The inverse of new_game's deal: hands in play order, then the pool, then the stock.
    n = len(hands)
    order = [(dealer + rules.step * i) % n for i in range(1, n + 1)]
    for seat in order:
        if len(hands[seat]) != 4:
            raise BadState(f"seat {seat} was dealt {len(hands[seat])} cards, not 4")
    if len(pool) != 4:
        raise BadState(f"the pool was dealt {len(pool)} cards, not 4")
    return [c for seat in order for c in hands[seat]] + list(pool) + list(stock)


def replay(rec: Mapping[str, Any], events: list[Events] | None = None) -> Game:
    """Play a record again from its deal; raise BadState if anything in it is not legal.
    Each move's events are appended to `events` when it is given (to rebuild a move log)."""
    try:
        if rec.get("format") != FORMAT:
            raise BadState(f"unknown record format {rec.get('format')!r}; expected {FORMAT}")
        rules = Rules.from_dict(rec["rules"])
        initial = rec["initial"]
        deck = _deck_order(
            rules, rec["dealer"], initial["hands"], initial["pool"], initial["stock"]
        )
        game = new_game(rules, rec["seats"], seed=rec["seed"], deck=deck, dealer=rec["dealer"])
        game = _play_all(game, rec["moves"], "move", events)
        for number, playoff in enumerate(rec["playoffs"], start=1):
            if len(game.playoffs) != number:
                raise BadState(f"the record has playoff {number}, but the game did not need it")
            dealt = game.playoffs[-1].initial
            if deal_to_dict(*dealt) != playoff["initial"]:
                raise BadState(f"playoff {number}'s deal does not follow from the seed")
            game = _play_all(game, playoff["moves"], f"playoff {number} move", events)
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, BadState):
            raise
        raise BadState(f"malformed record: {exc!r}") from exc
    want = rec.get("result")
    got = game.result.to_dict() if game.result else None
    if want is not None and want != got:
        raise BadState(f"the record's result {want} does not match the replay's {got}")
    return game


def _play_all(
    game: Game, moves: list[dict[str, Any]], label: str, sink: list[Events] | None = None
) -> Game:
    for number, data in enumerate(moves, start=1):
        seat, move, auto = move_from_dict(data)
        try:
            game, events = apply(game, Move(*move), seat=seat, auto=auto)
        except EngineError as exc:
            raise BadState(f"{label} {number} ({data.get('card')}): {exc}") from exc
        if sink is not None:
            sink.append(events)
    return game
