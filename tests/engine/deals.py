"""Hand-built deals and positions for the engine's scenario tests.

`deal` builds a deck order for `new_game(deck=...)` from the hands, pool and top of stock a test
wants; it works the deal order out by itself (not with the engine's helpers), so a test of the
deal checks the engine rather than repeating it. `position` builds a mid-game situation by
setting the plain list fields of a game directly.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.engine import Game, Rules, new_game

SEATS = ("ann", "bob", "cat", "dan")


def deal_order(rules: Rules, players: int, dealer: int) -> list[int]:
    """Seats in the order they are dealt to (and play): the one after the dealer first."""
    step = 1 if rules.direction == "clockwise" else -1
    return [(dealer + step * i) % players for i in range(1, players + 1)]


def _check_cards(rules: Rules, cards: Sequence[str]) -> None:
    deck = set(rules.card_deck.cards)
    unknown = [c for c in cards if c not in deck]
    assert not unknown, f"not cards of {rules.deck}: {unknown}"
    dup = sorted({c for c in cards if cards.count(c) > 1})
    assert not dup, f"cards used twice: {dup}"


def deal(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    pool: Sequence[str],
    stock_top: Sequence[str] = (),
    dealer: int = 0,
) -> list[str]:
    """The deck order (top card first) that deals `hands[seat]` to each seat and `pool` to the
    pool, with `stock_top` on top of the stock and every other card below it in deck order."""
    assert all(len(h) == 4 for h in hands), "every hand is dealt 4 cards"
    assert len(pool) == 4, "the pool is dealt 4 cards"
    order = deal_order(rules, len(hands), dealer)
    head = [c for seat in order for c in hands[seat]] + list(pool) + list(stock_top)
    _check_cards(rules, head)
    used = set(head)
    return head + [c for c in rules.card_deck.cards if c not in used]


def game(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    pool: Sequence[str],
    stock_top: Sequence[str] = (),
    dealer: int = 0,
) -> Game:
    """A new game dealt exactly as asked (see `deal`)."""
    deck = deal(rules, hands, pool, stock_top, dealer)
    return new_game(rules, SEATS[: len(hands)], deck=deck, dealer=dealer)


def position(
    rules: Rules,
    hands: Sequence[Sequence[str]],
    pool: Sequence[str] = (),
    bundles: Sequence | None = None,
    stock: Sequence[str] = (),
    turn: int = 0,
    dealer: int = 0,
) -> Game:
    """A mid-game situation: the given hands, pool, bundles and stock (top first), `turn` to act.

    `bundles[seat]` is that seat's bundle as a list of cards, bottom first; with double bundles
    it is the seat's list of two bundles. Cards in none of these are simply out of play.
    """
    n = len(hands)
    g = new_game(rules, SEATS[:n], seed=0, dealer=dealer).copy()
    per_seat = rules.bundles_per_seat
    if bundles is None:
        bundles = [[[] for _ in range(per_seat)] for _ in range(n)]
    elif per_seat == 1:
        bundles = [[list(b)] for b in bundles]
    assert len(bundles) == n and all(len(seat) == per_seat for seat in bundles)
    g.hands = [list(h) for h in hands]
    g.pool = list(pool)
    g.stock = list(stock)
    g.bundles = [[list(b) for b in seat] for seat in bundles]
    g.turn = turn
    everything = [c for h in g.hands for c in h] + g.pool + g.stock
    everything += [c for seat in g.bundles for b in seat for c in b]
    _check_cards(rules, everything)
    return g
