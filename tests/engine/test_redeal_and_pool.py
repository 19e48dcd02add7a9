"""Scenario tests of the cards coming in: redeals, pool refills and the sweep bonus.

Each test sets up the cards itself (see `deals.py`), plays named moves and asserts the exact
cards, sizes, turns and events that the rules call for.
"""

from __future__ import annotations

import pytest

from bot.engine import BundleView, IllegalMove, Rules, apply, view

from .deals import game, position
from .moves import cap, kinds, only, run, steal, trail, trail_out

STANDARD = Rules()


# --- redeal -----------------------------------------------------------------------------------


def test_redeal_when_every_hand_is_empty_leaves_the_pool_alone():
    top = ["1H", "2H", "3H", "4H", "5H", "6H", "7H", "8H"]
    g = game(
        STANDARD,
        [["5S", "6S", "7S", "8S"], ["1S", "2S", "3S", "4S"]],
        ["9S", "10S", "12S", "13S"],
        top,
    )
    order = ["1S", "5S", "2S", "6S", "3S", "7S", "4S", "8S"]
    g, events = run(g, *map(trail, order[:-1]))
    assert "hands_dealt" not in kinds(events)
    g, events = run(g, trail(order[-1]))
    assert kinds(events) == ["played", "trailed", "hands_dealt"]
    assert only(events, "hands_dealt")["sizes"] == [4, 4]
    assert g.hands[1] == top[:4]  # seat 1 is due next, so it is dealt first
    assert g.hands[0] == top[4:]
    assert g.pool == ["9S", "10S", "12S", "13S", *order]  # no new pool cards
    assert len(g.stock) == 52 - 8 - 4 - 8
    assert g.turn == 1


def test_redeal_starts_with_the_player_due_next_not_after_the_dealer():
    stock = ["1H", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "12H", "13H"]
    g = position(STANDARD, hands=[[], ["5C"], []], pool=["13S"], stock=stock, turn=1)
    g, events = apply(g, trail("5C"), seat=1)
    assert only(events, "hands_dealt")["sizes"] == [4, 4, 4]
    assert g.hands == [stock[4:8], stock[8:], stock[:4]]  # seat 2, then 0, then 1
    assert g.stock == []
    assert g.pool == ["13S", "5C"]
    assert g.turn == 2


@pytest.mark.parametrize(
    ("direction", "stock_size", "sizes", "turns"),
    [
        # Seat 1 plays its last card; seat 2 is due next (clockwise) and is dealt first.
        ("clockwise", 6, [2, 0, 4], [2, 0, 2, 0, 2, 2]),
        ("clockwise", 3, [0, 0, 3], [2, 2, 2]),
        ("clockwise", 9, [4, 1, 4], [2, 0, 1, 2, 0, 2, 0, 2, 0]),
        # Counterclockwise seat 0 is due next, then seat 2.
        ("counterclockwise", 6, [4, 0, 2], [0, 2, 0, 2, 0, 0]),
    ],
)
def test_short_final_redeal_deals_in_order_and_skips_empty_hands(
    direction, stock_size, sizes, turns
):
    rules = Rules(direction=direction)
    stock = ["1H", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"][:stock_size]
    g = position(rules, hands=[[], ["5C"], []], pool=["13S"], stock=stock, turn=1)
    g, events = apply(g, trail("5C"), seat=1)
    assert only(events, "hands_dealt")["sizes"] == sizes
    assert [len(h) for h in g.hands] == sizes
    assert g.stock == []
    for seat, size in enumerate(sizes):
        if size == 0:
            with pytest.raises(IllegalMove):
                apply(g, trail("13S"), seat=seat)
    g, played, _ = trail_out(g)
    assert played == turns
    assert g.result is not None


def test_pool_is_not_refilled_at_a_redeal():
    stock = ["1H", "2H", "3H", "4H", "5H", "6H", "8H", "9H"]
    rules = Rules(refill_pool=False)
    g = position(rules, hands=[[], ["7S"]], pool=["7H"], stock=stock, turn=1)
    g, events = apply(g, cap("7S"), seat=1)
    assert kinds(events) == ["played", "captured", "hands_dealt"]
    assert g.pool == []
    assert g.hands == [stock[:4], stock[4:]]
    assert g.turn == 0


def test_pool_refill_comes_before_a_redeal_and_can_starve_it():
    stock = ["1H", "2H", "3H", "4H", "5H", "6H", "8H", "9H"]
    g = position(STANDARD, hands=[[], ["7S"]], pool=["7H"], stock=stock, turn=1)
    g, events = apply(g, cap("7S"), seat=1)
    assert kinds(events) == ["played", "captured", "pool_refilled", "hands_dealt"]
    assert g.pool == stock[:4]
    assert g.hands == [stock[4:], []]
    assert only(events, "hands_dealt")["sizes"] == [4, 0]
    g, played, _ = trail_out(g)
    assert played == [0, 0, 0, 0]


# --- pool refill ------------------------------------------------------------------------------

REFILL_STOCK = ["1H", "2H", "3H", "4H", "5H", "6H"]


def refill_position(rules=STANDARD, pool=("7H", "7D"), stock=REFILL_STOCK):
    return position(
        rules,
        hands=[["7S", "2C", "9C"], ["3C"]],
        pool=list(pool),
        bundles=[[], ["8D", "9D"]],
        stock=list(stock),
    )


def test_pool_refilled_after_a_capture_empties_it():
    g, events = apply(refill_position(), cap("7S"), seat=0)
    assert g.bundles[0] == [["7H", "7D", "7S"]]
    assert g.pool == ["1H", "2H", "3H", "4H"]
    assert g.stock == ["5H", "6H"]
    assert kinds(events) == ["played", "captured", "pool_refilled"]
    ev = only(events, "pool_refilled")
    assert (ev["cards"], ev["n"]) == (["1H", "2H", "3H", "4H"], 4)


def test_pool_refill_on_a_short_stock_takes_what_is_left():
    g, events = apply(refill_position(stock=["1H", "2H"]), cap("7S"), seat=0)
    assert g.pool == ["1H", "2H"]
    assert g.stock == []
    assert only(events, "pool_refilled")["n"] == 2
    g, events = apply(refill_position(stock=[]), cap("7S"), seat=0)
    assert g.pool == []
    assert kinds(events) == ["played", "captured"]


@pytest.mark.parametrize(
    ("rules", "pool", "move", "pool_after"),
    [
        (STANDARD, ["7H", "2D"], cap("7S"), ["2D"]),  # the capture leaves a card
        (STANDARD, ["7H", "7D"], trail("2C"), ["7H", "7D", "2C"]),
        (STANDARD, ["7H", "7D"], steal("9C", 1), ["7H", "7D"]),
        (Rules(refill_pool=False), ["7H", "7D"], cap("7S"), []),
    ],
    ids=["capture-not-emptying", "trail", "steal", "refill-off"],
)
def test_no_pool_refill_otherwise(rules, pool, move, pool_after):
    g, events = apply(refill_position(rules, pool), move, seat=0)
    assert g.pool == pool_after
    assert g.stock == REFILL_STOCK
    assert "pool_refilled" not in kinds(events)


# --- sweep bonus ------------------------------------------------------------------------------


def test_sweep_bonus_takes_the_stock_top_under_the_played_card():
    rules = Rules(sweep_bonus=True)
    g = refill_position(rules)
    g2, events = apply(g, cap("7S"), seat=0)
    assert g2.bundles[0] == [["7H", "7D", "1H", "7S"]]
    ev = only(events, "captured")
    assert (ev["sweep_bonus"], ev["n"]) == ("1H", 3)
    # The refill comes after the bonus card.
    assert g2.pool == ["2H", "3H", "4H", "5H"]
    assert g2.stock == ["6H"]
    assert view(g2, 1).bundles[0] == (BundleView("7S", 4),)


def test_sweep_bonus_only_for_a_capture_that_empties_the_pool():
    rules = Rules(sweep_bonus=True)
    g, events = apply(refill_position(rules, pool=["7H", "2D"]), cap("7S"), seat=0)
    assert g.bundles[0] == [["7H", "7S"]]
    assert only(events, "captured")["sweep_bonus"] is None
    assert g.stock == REFILL_STOCK
    # A steal never sweeps.
    g, events = apply(refill_position(rules), steal("9C", 1), seat=0)
    assert g.bundles[0] == [["8D", "9D", "9C"]]
    assert g.stock == REFILL_STOCK
    # Nothing to take from an empty stock.
    g, events = apply(refill_position(rules, stock=[]), cap("7S"), seat=0)
    assert g.bundles[0] == [["7H", "7D", "7S"]]
    assert only(events, "captured")["n"] == 2


def test_sweep_bonus_without_refill_leaves_the_pool_empty():
    rules = Rules(sweep_bonus=True, refill_pool=False)
    g, _ = apply(refill_position(rules), cap("7S"), seat=0)
    assert g.bundles[0] == [["7H", "7D", "1H", "7S"]]
    assert g.pool == []
    assert g.stock == REFILL_STOCK[1:]


def test_no_sweep_bonus_by_default():
    g, events = apply(refill_position(), cap("7S"), seat=0)
    assert g.bundles[0] == [["7H", "7D", "7S"]]
    assert only(events, "captured")["sweep_bonus"] is None
