"""Scenario tests of the rule variants: wild jacks, double bundles, direction of play and
friendly games (no stealing).

Each test sets up the cards itself (see `deals.py`), plays named moves and asserts the exact
cards, sizes, turns and events that the rules call for.
"""

from __future__ import annotations

import random

import pytest

from bot.engine import (
    STEAL,
    BundleView,
    IllegalMove,
    Rules,
    apply,
    legal_moves,
    new_game,
    preset,
    view,
)

from .deals import SEATS, deal, game, position
from .moves import cap, only, run, steal, trail

STANDARD = Rules()


def trail_n(g, n):
    """Trail the first card of whoever is to act, `n` times; return the game and the turns."""
    turns = []
    for _ in range(n):
        turns.append(g.turn)
        g, _ = apply(g, trail(g.hands[g.turn][0]), seat=g.turn)
    return g, turns


# --- wild jacks -------------------------------------------------------------------------------


def jack_position(rules, jack, other):
    return position(
        rules,
        hands=[[jack, other], ["2C"], ["3C"], ["6C"]],
        pool=["12D"],
        bundles=[["5D"], ["3H", "9H"], ["13C"], []],
    )


def test_wild_jack_steals_any_opponent_bundle():
    g = jack_position(Rules(wild_jacks=True), "11S", "4S")
    assert legal_moves(g) == [steal("11S", 1), steal("11S", 2), trail("11S"), trail("4S")]
    g2, events = apply(g, steal("11S", 1), seat=0)
    assert g2.bundles[0] == [["5D", "3H", "9H", "11S"]]
    assert g2.bundles[1] == [[]]
    assert only(events, "stole")["n"] == 2
    # Without the variant the jack is an ordinary card.
    g = jack_position(STANDARD, "11S", "4S")
    assert legal_moves(g) == [trail("11S"), trail("4S")]
    with pytest.raises(IllegalMove):
        apply(g, steal("11S", 1), seat=0)


def test_wild_jack_must_steal_in_forced_play():
    g = jack_position(Rules(wild_jacks=True, play="forced"), "11S", "12S")
    # The queen may capture 12D; the jack must steal one of the two bundles.
    assert legal_moves(g) == [steal("11S", 1), steal("11S", 2), cap("12S")]


@pytest.mark.parametrize(
    ("deck", "jack", "not_jacks"),
    [
        ("french52", "11H", ["12H", "13H", "10H"]),
        ("spanish40", "10O", ["11O", "12O", "7O"]),  # sota, not caballo or rey
        ("spanish48", "10O", ["11O", "12O", "9O"]),
        ("italian40", "8D", ["9D", "10D", "7D"]),  # fante, not cavallo or re
    ],
)
def test_wild_jack_rank_per_deck(deck, jack, not_jacks):
    rules = Rules(deck=deck, wild_jacks=True)
    g = position(
        rules,
        hands=[[jack, *not_jacks], ["1C"]],
        pool=["3C"],
        bundles=[["2C"], ["4C", "5C"]],
    )
    assert legal_moves(g) == [steal(jack, 1)] + [trail(c) for c in [jack, *not_jacks]]


# --- double bundles ---------------------------------------------------------------------------


def test_double_bundles_capture_and_steal_choose_bundles_and_both_count():
    rules = Rules(double_bundles=True)
    g = position(
        rules,
        hands=[["6D", "7C", "9S"], ["2C"]],
        pool=["7H", "12D"],
        bundles=[[["2S"], ["3S", "4S"]], [["5H", "6H"], ["9H"]]],
    )
    assert g.bundles[0] == [["2S"], ["3S", "4S"]]
    assert legal_moves(g) == [
        steal("6D", 1, 0, 0),
        steal("6D", 1, 0, 1),
        trail("6D"),
        cap("7C", 0),
        cap("7C", 1),
        trail("7C"),
        steal("9S", 1, 1, 0),
        steal("9S", 1, 1, 1),
        trail("9S"),
    ]
    for bad in (cap("7C"), steal("6D", 1), steal("6D", 1, 1, 0), steal("6D", 0, 0, 1)):
        with pytest.raises(IllegalMove):
            apply(g, bad, seat=0)

    g, events = apply(g, steal("6D", 1, 0, 1), seat=0)
    assert g.bundles[0] == [["2S"], ["3S", "4S", "5H", "6H", "6D"]]
    assert g.bundles[1] == [[], ["9H"]]
    ev = only(events, "stole")
    assert (ev["from_seat"], ev["from_bundle"], ev["own_bundle"], ev["n"]) == (1, 0, 1, 2)

    g, _ = run(g, trail("2C"), cap("7C", 0))
    assert g.bundles[0] == [["2S", "7H", "7C"], ["3S", "4S", "5H", "6H", "6D"]]
    assert g.pool == ["12D", "2C"]
    assert view(g, 1).bundles[0] == (BundleView("7C", 3), BundleView("6D", 5))
    assert g.bundle_size(0) == 8

    g, _ = apply(g, steal("9S", 1, 1, 0), seat=0)  # the last card: the game ends
    assert g.bundles[1] == [[], []]
    r = g.result
    # 5 in bundle 0 (2S 7H 7C 9H 9S) + 2 leftovers + 5 in bundle 1.
    assert r.bundle_sizes == (12, 0)
    assert r.winners == (0,)
    assert (r.leftovers_to, r.leftovers) == (0, 2)


# --- direction --------------------------------------------------------------------------------


def test_counterclockwise_deal_and_turn_order():
    rules = Rules(direction="counterclockwise")
    hands = [
        ["1S", "2S", "3S", "4S"],
        ["5S", "6S", "7S", "8S"],
        ["9S", "10S", "11S", "12S"],
        ["1H", "2H", "3H", "4H"],
    ]
    deck = deal(rules, hands, ["5D", "6D", "7D", "8D"])
    # Dealer 0: seat 3 is dealt first, then 2, 1 and 0.
    assert deck[:16] == hands[3] + hands[2] + hands[1] + hands[0]
    g = new_game(rules, SEATS, deck=deck, dealer=0)
    assert g.hands == hands
    assert g.turn == 3
    assert trail_n(g, 5)[1] == [3, 2, 1, 0, 3]

    g = game(rules, hands, ["5D", "6D", "7D", "8D"], dealer=2)
    assert g.hands == hands
    assert g.turn == 1
    assert trail_n(g, 4)[1] == [1, 0, 3, 2]


@pytest.mark.parametrize("name", ["casita", "rubamazzo"])
def test_casita_and_rubamazzo_play_counterclockwise(name):
    rules = preset(name)
    g = new_game(rules, SEATS[:3], seed=5, dealer=1)
    assert g.turn == 0  # (dealer - 1) % 3
    assert len(g.stock) == 40 - 16
    g, _ = apply(g, legal_moves(g)[0], seat=0)
    assert g.turn == 2
    g, _ = apply(g, legal_moves(g)[0], seat=2)
    assert g.turn == 1


# --- friendly: no stealing --------------------------------------------------------------------


def test_friendly_never_offers_a_steal():
    rules = preset("friendly")
    g = position(rules, hands=[["7S", "9S"], ["2C"]], pool=["9H"], bundles=[[], ["2H", "7H"]])
    assert legal_moves(g) == [trail("7S"), cap("9S"), trail("9S")]
    with pytest.raises(IllegalMove, match="stealing is off"):
        apply(g, steal("7S", 1), seat=0)

    # A whole game: chances to steal come up, but no steal is ever offered.
    g = new_game(rules, SEATS[:3], seed=11)
    rng = random.Random(11)
    chances = 0
    while not g.over:
        moves = legal_moves(g)
        assert all(m.action != STEAL for m in moves)
        tops = {b[-1][:-1] for s, seat in enumerate(g.bundles) if s != g.turn for b in seat if b}
        chances += any(c[:-1] in tops for c in g.hands[g.turn])
        g, _ = apply(g, rng.choice(moves))
    assert chances > 0
