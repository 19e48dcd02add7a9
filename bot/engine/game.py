"""The game state and the deal.

`Game` is a value to its callers: `apply` returns a new game and never changes the one it was
given. Inside the engine its fields are plain lists, changed in place on a private copy,
because random playouts (the simulator, the AI) run hundreds of thousands of moves a second.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Final, Literal, NamedTuple, TypedDict

from .rules import Rules

CAPTURE, STEAL, TRAIL = "capture", "steal", "trail"
ACTIONS = (CAPTURE, STEAL, TRAIL)
HAND_SIZE: Final = 4  # cards dealt to a hand at a time, and to the pool
MIN_SEATS, MAX_SEATS = 2, 4


class Move(NamedTuple):
    """One played card and what it does. Bundle indexes are used only with double bundles."""

    card: str
    action: str
    target_seat: int | None = None
    target_bundle: int | None = None
    own_bundle: int | None = None


# How a tie for first was settled (None in Result.tiebreak: there was no tie).
Tiebreak = Literal["last_capturer", "playoff", "shared"]


class ResultDict(TypedDict):
    bundle_sizes: list[int]
    winners: list[int]
    ranking: list[list[int]]
    tiebreak: Tiebreak | None
    leftovers_to: int | None
    leftovers: int


@dataclass(frozen=True)
class Result:
    bundle_sizes: tuple[int, ...]
    winners: tuple[int, ...]
    # Places, best first; seats that share a place stand together.
    ranking: tuple[tuple[int, ...], ...]
    tiebreak: Tiebreak | None
    leftovers_to: int | None
    leftovers: int

    def to_dict(self) -> ResultDict:
        return {
            "bundle_sizes": list(self.bundle_sizes),
            "winners": list(self.winners),
            "ranking": [list(place) for place in self.ranking],
            "tiebreak": self.tiebreak,
            "leftovers_to": self.leftovers_to,
            "leftovers": self.leftovers,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Result:
        return cls(
            tuple(data["bundle_sizes"]),
            tuple(data["winners"]),
            tuple(tuple(place) for place in data["ranking"]),
            data["tiebreak"],
            data["leftovers_to"],
            data["leftovers"],
        )


class Game:
    """The whole state of one game, or of one playoff round inside it. Seats are indexes."""

    rules: Rules
    seats: tuple[str, ...]  # player ids, in table order
    dealer: int
    seed: int | str | None
    players: tuple[int, ...]  # seats taking part: all of them, or the tied ones in a playoff
    redeal: bool  # False in a playoff: one hand each and done
    initial: tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]
    hands: list[list[str]]
    pool: list[str]
    stock: list[str]  # top card first
    bundles: list[list[list[str]]]  # seat -> bundle -> cards, bottom first
    turn: int | None
    last_capture: list[int]  # per seat, the move number of its latest capture or steal, or -1
    moves: list[tuple[int, Move, bool]]  # (seat, move, auto)
    playoffs: list[Game]
    award: tuple[int | None, int]  # leftovers: (to whom, how many)
    result: Result | None

    def copy(self) -> Game:
        new = Game.__new__(Game)
        d = self.__dict__.copy()
        d["hands"] = [h[:] for h in self.hands]
        d["pool"] = self.pool[:]
        d["stock"] = self.stock[:]
        d["bundles"] = [[b[:] for b in seat] for seat in self.bundles]
        d["last_capture"] = self.last_capture[:]
        d["moves"] = self.moves[:]
        d["playoffs"] = [p.copy() for p in self.playoffs]
        new.__dict__ = d
        return new

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Game) and self.__dict__ == other.__dict__

    __hash__ = None  # type: ignore[assignment]  # equal games may differ later: not hashable

    def __repr__(self) -> str:
        return f"<Game seats={self.seats} turn={self.turn} moves={len(self.moves)}>"

    @property
    def over(self) -> bool:
        return self.result is not None

    @property
    def last_capturer(self) -> int | None:
        best = max(self.last_capture)
        return self.last_capture.index(best) if best >= 0 else None

    def bundle_size(self, seat: int) -> int:
        return sum(len(b) for b in self.bundles[seat])


def shuffled_deck(rules: Rules, seed: int | str) -> list[str]:
    deck = list(rules.card_deck.cards)
    shuffle(deck, random.Random(seed))
    return deck


_BITS = [(i + 1).bit_length() for i in range(64)]  # the bits to draw j in 0..i (decks: 40-52)


def shuffle(deck: list[str], rng: random.Random) -> None:
    """Exactly `rng.shuffle(deck)` as Python 3.11 does it (tests/engine/test_playout.py checks
    this), in one loop: `random.shuffle` makes a Python method call per card, and took 7% of
    a random game. Spelled out, a seed's deal also no longer hangs on the Python version; it
    must never change, as records replay their playoffs from the seed."""
    getrandbits = rng.getrandbits
    for i in range(len(deck) - 1, 0, -1):
        # j uniform in 0..i: draw just enough random bits, again while the draw is too big.
        bits = _BITS[i]
        j = getrandbits(bits)
        while j > i:
            j = getrandbits(bits)
        deck[i], deck[j] = deck[j], deck[i]


def new_game(
    rules: Rules,
    seats: list[str] | tuple[str, ...],
    *,
    seed: int | str | None = None,
    deck: list[str] | tuple[str, ...] | None = None,
    dealer: int = 0,
) -> Game:
    """Deal a new game from a seed, or from an explicit deck order (top card first).

    Cards go 4 at a time to each player in turn order, starting with the player after the
    dealer, then 4 face up to the pool; the rest is the stock.
    """
    seats = tuple(str(s) for s in seats)
    if not MIN_SEATS <= len(seats) <= MAX_SEATS:
        raise ValueError(f"a game needs {MIN_SEATS} to {MAX_SEATS} players, not {len(seats)}")
    if len(set(seats)) != len(seats):
        raise ValueError("every seat needs a different player")
    if not (isinstance(dealer, int) and 0 <= dealer < len(seats)):
        raise ValueError(f"dealer must be a seat number from 0 to {len(seats) - 1}")
    if deck is None:
        if seed is None:
            raise ValueError("give a seed or a deck order")
        deck = shuffled_deck(rules, seed)
    else:
        cards = rules.card_deck.cards
        if len(deck) != len(cards) or set(deck) != set(cards):
            raise ValueError(f"the deck order must hold every card of {rules.deck} exactly once")
        deck = list(deck)
    return start(rules, seats, dealer, seed, tuple(range(len(seats))), True, deck)


def start(
    rules: Rules,
    seats: tuple[str, ...],
    dealer: int,
    seed: int | str | None,
    players: tuple[int, ...],
    redeal: bool,
    deck: list[str],
) -> Game:
    """Deal `deck` to `players` (all seats, or the tied ones for a playoff). The callers make
    sure the deck holds every card of the rules' deck once: a random game deals one per game."""
    n = len(seats)
    order = turn_order(n, rules.step, dealer, players)
    hands: list[list[str]] = [[] for _ in range(n)]
    at = 0
    for seat in order:
        hands[seat] = deck[at : at + HAND_SIZE]
        at += HAND_SIZE
    pool, stock = deck[at : at + HAND_SIZE], deck[at + HAND_SIZE :]
    g = Game.__new__(Game)
    g.rules = rules
    g.seats = seats
    g.dealer = dealer
    g.seed = seed
    g.players = players
    g.redeal = redeal
    g.initial = (tuple(map(tuple, hands)), tuple(pool), tuple(stock))
    g.hands = hands
    g.pool = pool
    g.stock = stock
    g.bundles = [[[], []] if rules.double_bundles else [[]] for _ in range(n)]
    g.turn = order[0]
    g.last_capture = [-1] * n
    g.moves = []
    g.playoffs = []
    g.award = (None, 0)
    g.result = None
    return g


def turn_order(n: int, step: int, dealer: int, players: tuple[int, ...]) -> list[int]:
    """The players in play order, starting with the one after `dealer`."""
    order = []
    seat = dealer
    for _ in range(n):
        seat = (seat + step) % n
        if seat in players:
            order.append(seat)
    return order


def active(game: Game) -> Game:
    """The game where play happens now: the game itself, or its running playoff."""
    if game.playoffs and game.result is None:
        return game.playoffs[-1]
    return game
