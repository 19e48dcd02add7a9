"""`to_dict` / `from_dict`: the whole live state as JSON-safe data, for storage."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any, Final, TypedDict

from .errors import BadState
from .game import Game, Move, Result, ResultDict
from .rules import Rules

STATE_VERSION: Final = 1


class MoveDict(TypedDict):
    seat: int
    card: str
    action: str
    target_seat: int | None
    target_bundle: int | None
    own_bundle: int | None
    auto: bool


class DealDict(TypedDict):
    hands: list[list[str]]
    pool: list[str]
    stock: list[str]


class StateDict(TypedDict):
    version: int
    rules: dict[str, Any]
    seats: list[str]
    dealer: int
    seed: int | str | None
    players: list[int]
    redeal: bool
    initial: DealDict
    hands: list[list[str]]
    pool: list[str]
    stock: list[str]
    bundles: list[list[list[str]]]
    turn: int | None
    last_capture: list[int]
    moves: list[MoveDict]
    playoffs: list[StateDict]
    award: list[int | None]
    result: ResultDict | None


def move_to_dict(seat: int, move: Move, auto: bool) -> MoveDict:
    return {
        "seat": seat,
        "card": move.card,
        "action": move.action,
        "target_seat": move.target_seat,
        "target_bundle": move.target_bundle,
        "own_bundle": move.own_bundle,
        "auto": auto,
    }


def move_from_dict(data: dict[str, Any]) -> tuple[int, Move, bool]:
    move = Move(
        data["card"], data["action"], data["target_seat"], data["target_bundle"], data["own_bundle"]
    )
    return data["seat"], move, bool(data["auto"])


def deal_to_dict(
    hands: Iterable[Iterable[str]], pool: Iterable[str], stock: Iterable[str]
) -> DealDict:
    return {"hands": [list(h) for h in hands], "pool": list(pool), "stock": list(stock)}


def to_dict(game: Game, *, moves: bool = True) -> StateDict:
    """The game's state. `moves` False: its move lists (the game's and each playoff's) empty,
    for a caller that stores the moves apart (what `session.models.without_moves` makes of
    the whole state, without encoding every move of the game on each move)."""
    g = game
    return {
        "version": STATE_VERSION,
        "rules": g.rules.to_dict(),
        "seats": list(g.seats),
        "dealer": g.dealer,
        "seed": g.seed,
        "players": list(g.players),
        "redeal": g.redeal,
        "initial": deal_to_dict(*g.initial),
        "hands": [list(h) for h in g.hands],
        "pool": list(g.pool),
        "stock": list(g.stock),
        "bundles": [[list(b) for b in seat] for seat in g.bundles],
        "turn": g.turn,
        "last_capture": list(g.last_capture),
        "moves": [move_to_dict(*m) for m in g.moves] if moves else [],
        "playoffs": [to_dict(p, moves=moves) for p in g.playoffs],
        "award": list(g.award),
        "result": g.result.to_dict() if g.result else None,
    }


def from_dict(data: dict[str, Any]) -> Game:
    """Rebuild a game saved by `to_dict`. Raises BadState if the data is not a consistent game."""
    try:
        if data.get("version") != STATE_VERSION:
            raise BadState(f"unsupported state version {data.get('version')!r}")
        g = Game.__new__(Game)
        g.rules = Rules.from_dict(data["rules"])
        g.seats = tuple(data["seats"])
        g.dealer = data["dealer"]
        g.seed = data["seed"]
        g.players = tuple(data["players"])
        g.redeal = data["redeal"]
        initial = data["initial"]
        g.initial = (
            tuple(tuple(h) for h in initial["hands"]),
            tuple(initial["pool"]),
            tuple(initial["stock"]),
        )
        g.hands = [list(h) for h in data["hands"]]
        g.pool = list(data["pool"])
        g.stock = list(data["stock"])
        g.bundles = [[list(b) for b in seat] for seat in data["bundles"]]
        g.turn = data["turn"]
        g.last_capture = list(data["last_capture"])
        g.moves = [move_from_dict(m) for m in data["moves"]]
        g.playoffs = [from_dict(p) for p in data["playoffs"]]
        g.award = tuple(data["award"])
        g.result = Result.from_dict(data["result"]) if data["result"] else None
    except (KeyError, TypeError, ValueError) as exc:
        if isinstance(exc, BadState):
            raise
        raise BadState(f"not a saved game: {exc!r}") from exc
    check_cards(g)
    return g


def check_cards(g: Game) -> None:
    """Hands, pool, stock and bundles must hold exactly the deck, each card once."""
    held = Counter(c for h in g.hands for c in h)
    held.update(g.pool)
    held.update(g.stock)
    held.update(c for seat in g.bundles for b in seat for c in b)
    if held != Counter(g.rules.card_deck.cards):
        raise BadState("the cards in this game are not exactly one deck")
