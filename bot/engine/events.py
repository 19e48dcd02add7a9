"""What a move did, as events: one TypedDict per kind, told apart by its "type".

They stay plain dicts at run time (the session passes them on and records them as they are);
the types only say which keys each kind has. In the order a move makes them: Played; then
Captured, Stole or Trailed; then, as they happen, PoolRefilled, HandsDealt,
LeftoversAwarded, PlayoffStarted and GameEnded ("game_over", with the result).
"""

from __future__ import annotations

from typing import Literal, TypedDict

from .game import ResultDict


class Played(TypedDict):
    type: Literal["played"]
    seat: int
    card: str
    auto: bool  # the bot moved for the player (timer or away seat)


class Captured(TypedDict):
    type: Literal["captured"]
    seat: int
    card: str
    cards: list[str]  # taken from the pool
    sweep_bonus: str | None  # the stock's top card, earned by emptying the pool
    own_bundle: int | None  # with double bundles: which of the player's bundles
    n: int  # cards taken, the bonus included; the played card is not counted


class Stole(TypedDict):
    type: Literal["stole"]
    seat: int
    card: str
    from_seat: int
    from_bundle: int | None  # with double bundles: which of the victim's bundles
    own_bundle: int | None
    n: int  # the victim's bundle; the played card is not counted


class Trailed(TypedDict):
    type: Literal["trailed"]
    seat: int
    card: str


class PoolRefilled(TypedDict):
    type: Literal["pool_refilled"]
    cards: list[str]
    n: int


class HandsDealt(TypedDict):
    type: Literal["hands_dealt"]
    sizes: list[int]  # per seat


class LeftoversAwarded(TypedDict):
    type: Literal["leftovers_awarded"]
    seat: int
    n: int


class PlayoffStarted(TypedDict):
    type: Literal["playoff_started"]
    number: int
    seats: list[int]  # the tied seats that play it


class GameEnded(ResultDict):
    type: Literal["game_over"]


Event = (
    Played
    | Captured
    | Stole
    | Trailed
    | PoolRefilled
    | HandsDealt
    | LeftoversAwarded
    | PlayoffStarted
    | GameEnded
)
Events = list[Event]  # one move's, in order
