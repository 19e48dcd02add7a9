"""Scenario tests of single turns: the deal as the helpers build it, capture, steal, free and
forced play, and the moves refused.

Each test sets up the cards itself (see `deals.py`), plays named moves and asserts the exact
cards, sizes, turns and events that the rules call for.
"""

from __future__ import annotations

import pytest

from bot.engine import (
    BundleView,
    IllegalMove,
    Move,
    Rules,
    apply,
    legal_moves,
    new_game,
    to_dict,
    view,
)

from .deals import SEATS, deal, game, position
from .moves import cap, kinds, only, run, steal, trail

STANDARD = Rules()
FORCED = Rules(play="forced")


# --- the deal convention of the helpers -------------------------------------------------------


def test_hand_built_deal_lands_where_asked():
    hands = [["1S", "2S", "3S", "4S"], ["5S", "6S", "7S", "8S"], ["9S", "10S", "11S", "12S"]]
    deck = deal(STANDARD, hands, ["13S", "1H", "2H", "3H"], ["4H", "5H"], dealer=2)
    # Dealer 2: seat 0 is dealt first, then 1, then 2, then the pool.
    assert deck[:12] == hands[0] + hands[1] + hands[2]
    g = new_game(STANDARD, SEATS[:3], deck=deck, dealer=2)
    assert g.hands == hands
    assert g.pool == ["13S", "1H", "2H", "3H"]
    assert g.stock[:2] == ["4H", "5H"]
    assert len(g.stock) == 52 - 16
    assert g.turn == 0
    assert g.bundles == [[[]], [[]], [[]]]


# --- capture ----------------------------------------------------------------------------------


def test_capture_takes_every_pool_card_of_the_rank_and_lands_on_top():
    g = game(
        STANDARD,
        [["2C", "3C", "4C", "12C"], ["7S", "8S", "9S", "10S"]],
        ["7H", "12D", "7D", "13C"],
    )
    assert g.turn == 1  # the player after the dealer (seat 0) starts
    # One capture move per card, however many pool cards it matches.
    assert [m for m in legal_moves(g) if m.card == "7S"] == [cap("7S"), trail("7S")]
    before = to_dict(g)

    g2, events = apply(g, cap("7S"), seat=1)
    assert g2.bundles[1] == [["7H", "7D", "7S"]]  # both sevens, the played card on top
    assert g2.pool == ["12D", "13C"]
    assert g2.hands[1] == ["8S", "9S", "10S"]
    assert g2.stock == g.stock  # the pool was not emptied: no refill
    assert kinds(events) == ["played", "captured"]
    assert events[0] == {"type": "played", "seat": 1, "card": "7S", "auto": False}
    ev = events[1]
    assert (ev["seat"], ev["card"], ev["cards"], ev["n"]) == (1, "7S", ["7H", "7D"], 2)
    assert ev["sweep_bonus"] is None
    assert view(g2, 0).bundles[1] == (BundleView("7S", 3),)
    assert g2.turn == 0
    assert to_dict(g) == before  # apply never changes the game it is given

    g3, events = apply(g2, cap("12C"), seat=0)  # a single match
    assert g3.bundles[0] == [["12D", "12C"]]
    assert g3.pool == ["13C"]
    assert only(events, "captured")["n"] == 1
    assert g3.turn == 1


# --- steal ------------------------------------------------------------------------------------


def test_steal_takes_the_whole_bundle_and_caps_it():
    g = game(
        STANDARD,
        [["7C", "3C", "4C", "5C"], ["7S", "8S", "9S", "10S"]],
        ["7H", "12D", "2D", "13C"],
    )
    g, _ = run(g, cap("7S"))
    assert g.bundles[1] == [["7H", "7S"]]
    assert steal("7C", 1) in legal_moves(g)

    g, events = apply(g, steal("7C", 1), seat=0)
    assert g.bundles[0] == [["7H", "7S", "7C"]]
    assert g.bundles[1] == [[]]
    assert kinds(events) == ["played", "stole"]
    ev = events[1]
    assert (ev["seat"], ev["card"], ev["from_seat"], ev["n"]) == (0, "7C", 1, 2)
    assert g.pool == ["12D", "2D", "13C"]  # a steal leaves the pool alone
    assert g.turn == 1


def test_stolen_bundle_goes_on_top_of_yours_with_the_played_card_last():
    g = position(
        STANDARD,
        hands=[["3C", "9C"], ["5C", "13C"]],
        pool=["12D"],
        bundles=[["2S", "2H"], ["5S", "3H", "3D"]],
    )
    g, events = apply(g, steal("3C", 1), seat=0)
    assert g.bundles[0] == [["2S", "2H", "5S", "3H", "3D", "3C"]]
    assert g.bundles[1] == [[]]
    assert only(events, "stole")["n"] == 3
    assert view(g, 1).bundles == ((BundleView("3C", 6),), (BundleView(None, 0),))
    # The victim's 5 no longer matches anything: its old top (5S) is buried.
    assert legal_moves(g) == [trail("5C"), trail("13C")]


def test_cannot_steal_an_empty_bundle_your_own_or_a_buried_card():
    g = position(
        STANDARD,
        hands=[["3C", "4C"], ["9H"], ["10H"]],
        pool=["12D"],
        bundles=[["5S", "3H"], ["4H", "9D"], []],
    )
    # Own top is 3H, seat 1's top is 9D (its 4H is buried), seat 2 has no bundle.
    assert legal_moves(g) == [trail("3C"), trail("4C")]
    before = to_dict(g)
    for bad in (steal("3C", 0), steal("3C", 2), steal("4C", 1), steal("4C", 2)):
        with pytest.raises(IllegalMove):
            apply(g, bad, seat=0)
    assert to_dict(g) == before


# --- free and forced play ---------------------------------------------------------------------

CHOICE_HANDS = [["7S", "9S", "4S", "13D"], ["2C"], ["3C"]]
CHOICE_POOL = ["7C", "9H", "12D"]
CHOICE_BUNDLES = [["1S"], ["2H", "7H"], ["7D"]]


def test_free_play_may_trail_even_when_it_could_capture_or_steal():
    g = position(STANDARD, CHOICE_HANDS, CHOICE_POOL, CHOICE_BUNDLES)
    assert [m for m in legal_moves(g) if m.card == "7S"] == [
        steal("7S", 1),
        steal("7S", 2),
        cap("7S"),
        trail("7S"),
    ]
    g2, events = apply(g, trail("7S"), seat=0)
    assert g2.pool == ["7C", "9H", "12D", "7S"]
    assert g2.bundles == g.bundles
    assert kinds(events) == ["played", "trailed"]
    g3, _ = apply(g, trail("9S"), seat=0)
    assert g3.pool == ["7C", "9H", "12D", "9S"]


def test_forced_play_steal_before_capture_before_trail():
    g = position(FORCED, CHOICE_HANDS, CHOICE_POOL, CHOICE_BUNDLES)
    # 7S can steal (two targets, the player picks) so it may not capture or trail; 9S can only
    # capture so it may not trail; 4S and 13D match nothing and trail.
    assert legal_moves(g) == [
        steal("7S", 1),
        steal("7S", 2),
        cap("9S"),
        trail("4S"),
        trail("13D"),
    ]
    before = to_dict(g)
    for bad, why in (
        (cap("7S"), "must"),
        (trail("7S"), "must"),
        (trail("9S"), "must"),
        (steal("4S", 1), "cannot steal"),
    ):
        with pytest.raises(IllegalMove, match=why):
            apply(g, bad, seat=0)
        assert to_dict(g) == before

    g2, _ = apply(g, steal("7S", 2), seat=0)  # the less obvious target is still allowed
    assert g2.bundles == [[["1S", "7D", "7S"]], [["2H", "7H"]], [[]]]
    g3, _ = apply(g, cap("9S"), seat=0)
    assert g3.bundles[0] == [["1S", "9H", "9S"]]
    assert g3.pool == ["7C", "12D"]


# --- illegal moves ----------------------------------------------------------------------------


def test_illegal_moves_are_refused_and_change_nothing():
    g = game(
        STANDARD,
        [["7C", "3C", "4C", "5C"], ["7S", "8S", "9S", "10S"]],
        ["7H", "12D", "2D", "13C"],
    )
    before = to_dict(g)
    assert g.turn == 1
    with pytest.raises(IllegalMove, match="not in your hand"):
        apply(g, trail("7C"))  # seat 0's card
    with pytest.raises(IllegalMove, match="not in your hand"):
        apply(g, trail("1H"))  # in the stock
    with pytest.raises(IllegalMove, match="not your turn"):
        apply(g, trail("7S"), seat=0)
    with pytest.raises(IllegalMove):
        apply(g, Move("7S", "discard"))
    with pytest.raises(IllegalMove):
        apply(g, cap("8S"))  # no 8 in the pool
    with pytest.raises(IllegalMove):
        apply(g, ("7S",))  # not a move at all
    assert to_dict(g) == before
    g2, _ = apply(g, trail("7S"), seat=1)  # the right seat may
    assert g2.turn == 0
