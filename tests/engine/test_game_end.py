"""Scenario tests of the end of a game: leftovers, the result, tie-breaks and playoffs, and
no move after the end.

Each test sets up the cards itself (see `deals.py`), plays named moves and asserts the exact
cards, sizes, turns and events that the rules call for.
"""

from __future__ import annotations

import pytest

from bot.engine import GameOver, IllegalMove, Rules, active, apply, legal_moves, to_dict, view

from .deals import position
from .moves import cap, kinds, only, run, steal, trail, trail_out

STANDARD = Rules()


# --- leftovers --------------------------------------------------------------------------------


def leftover_position(rules, hands):
    return position(rules, hands=hands, pool=["5S", "9H"], bundles=[["2S"], ["3S", "3H"]], stock=[])


def test_leftovers_go_to_the_last_capturer():
    g = leftover_position(STANDARD, [["5H"], ["8D"]])
    g, events = run(g, cap("5H"), trail("8D"))
    assert kinds(events) == [
        "played",
        "captured",
        "played",
        "trailed",
        "leftovers_awarded",
        "game_over",
    ]
    ev = only(events, "leftovers_awarded")
    assert (ev["seat"], ev["n"]) == (0, 2)
    assert g.pool == []
    assert sorted(g.bundles[0][0]) == sorted(["2S", "5S", "5H", "9H", "8D"])
    assert g.bundles[0][0][-1] == "5H"  # the last card played still shows
    assert g.bundles[1] == [["3S", "3H"]]
    r = g.result
    assert (r.leftovers_to, r.leftovers, r.bundle_sizes) == (0, 2, (5, 2))


def test_leftovers_go_to_the_last_stealer():
    g = leftover_position(STANDARD, [["5H", "4C"], ["5D", "6C"]])
    g, events = run(g, cap("5H"), steal("5D", 0), trail("4C"), trail("6C"))
    ev = only(events, "leftovers_awarded")
    assert (ev["seat"], ev["n"]) == (1, 3)
    assert g.bundles[0] == [[]]
    assert sorted(g.bundles[1][0]) == sorted(["3S", "3H", "2S", "5S", "5H", "5D", "9H", "4C", "6C"])
    assert g.bundles[1][0][-1] == "5D"
    assert g.result.bundle_sizes == (0, 9)
    assert (g.result.leftovers_to, g.result.leftovers) == (1, 3)
    assert g.result.winners == (1,)


def test_leftovers_nobody_leaves_them_in_the_pool():
    g = leftover_position(Rules(leftovers="nobody"), [["5H"], ["8D"]])
    g, events = run(g, cap("5H"), trail("8D"))
    assert kinds(events) == ["played", "captured", "played", "trailed", "game_over"]
    assert g.pool == ["9H", "8D"]
    assert g.bundles == [[["2S", "5S", "5H"]], [["3S", "3H"]]]
    r = g.result
    assert (r.leftovers_to, r.leftovers, r.bundle_sizes) == (None, 0, (3, 2))


# --- game end and tie-breaks ------------------------------------------------------------------


def test_game_end_result():
    g = position(
        STANDARD,
        hands=[["5H"], ["8D"], ["6C"]],
        pool=["5S", "13H"],
        bundles=[["2S", "2H", "2D", "2C"], ["3S", "3H"], ["4S", "4H"]],
    )
    g, events = run(g, cap("5H"), trail("8D"))
    assert g.result is None
    g, events = apply(g, trail("6C"), seat=2)
    assert g.over and g.turn is None
    r = g.result
    assert r.bundle_sizes == (9, 2, 2)  # 4 + 5S 5H + leftovers 13H 8D 6C
    assert r.winners == (0,)
    assert r.ranking == ((0,), (1, 2))  # seats with equal bundles share a place
    assert r.tiebreak is None
    over = only(events, "game_over")
    assert over["bundle_sizes"] == [9, 2, 2]
    assert over["winners"] == [0]
    assert over["ranking"] == [[0], [1, 2]]
    assert legal_moves(g) == []


def tie_position(tiebreak: str):
    """Seats 0 and 1 end on 5 cards each; seat 2 on 3, and seat 2 captures last."""
    return position(
        Rules(leftovers="nobody", tiebreak=tiebreak),
        hands=[["9S"], ["4H"], ["6C"]],
        pool=["9C", "4D", "6H", "13S"],
        bundles=[["2S", "2H", "2D"], ["3S", "3H", "3D"], ["5S"]],
    )


TIE_MOVES = (cap("9S"), cap("4H"), cap("6C"))


def test_tiebreak_last_capturer():
    g, events = run(tie_position("last_capturer"), *TIE_MOVES)
    r = g.result
    assert r.bundle_sizes == (5, 5, 3)
    # Seat 2 captured last of all, but among the tied seats 0 and 1 it was seat 1.
    assert r.winners == (1,)
    assert r.tiebreak == "last_capturer"
    assert r.ranking == ((1,), (0,), (2,))
    assert only(events, "game_over")["tiebreak"] == "last_capturer"


def test_tiebreak_last_capturer_orders_every_tied_seat():
    g = position(
        Rules(leftovers="nobody"),
        hands=[["9S"], ["4H"], ["6C"]],
        pool=["9C", "4D", "6H", "13S"],
        bundles=[["2S", "2H"], ["3S", "3H"], ["5S", "5H"]],
    )
    g, _ = run(g, *TIE_MOVES)
    r = g.result
    assert r.bundle_sizes == (4, 4, 4)
    assert r.winners == (2,)
    assert r.tiebreak == "last_capturer"
    assert r.ranking == ((2,), (1,), (0,))  # most recent capture first


def test_tiebreak_last_capturer_counts_steals():
    g = position(
        Rules(leftovers="nobody"),
        hands=[["12S"], ["9S"], ["6C"]],
        pool=["12H", "13D"],
        bundles=[["2S", "2H", "2D", "4H"], ["3S", "3H", "3D", "3C"], ["9D"]],
    )
    g, _ = run(g, cap("12S"), steal("9S", 2), trail("6C"))
    r = g.result
    assert r.bundle_sizes == (6, 6, 0)
    assert r.winners == (1,)  # seat 1's steal came after seat 0's capture
    assert r.tiebreak == "last_capturer"
    assert r.ranking == ((1,), (0,), (2,))
    assert g.pool == ["13D", "6C"]


def test_tiebreak_last_capturer_shares_when_no_tied_seat_ever_captured():
    g = position(Rules(leftovers="nobody"), hands=[["5H"], ["8D"]], pool=["13S"])
    g, _ = run(g, trail("5H"), trail("8D"))
    r = g.result
    assert r.bundle_sizes == (0, 0)
    assert r.winners == (0, 1)
    assert r.tiebreak == "shared"
    assert r.ranking == ((0, 1),)


def test_tiebreak_shared():
    g, _ = run(tie_position("shared"), *TIE_MOVES)
    r = g.result
    assert r.bundle_sizes == (5, 5, 3)
    assert r.winners == (0, 1)
    assert r.tiebreak == "shared"
    assert r.ranking == ((0, 1), (2,))


def test_tiebreak_playoff_is_played_by_the_tied_seats_only():
    g, events = run(tie_position("playoff"), *TIE_MOVES)
    assert g.result is None
    assert kinds(events)[-1] == "playoff_started"
    assert only(events, "playoff_started") == {
        "type": "playoff_started",
        "number": 1,
        "seats": [0, 1],
    }
    p = active(g)
    assert p is g.playoffs[0]
    assert p.players == (0, 1)
    # 4 cards to each tied seat, 4 to the pool, the rest of a fresh deck is the stock.
    assert [len(h) for h in p.hands] == [4, 4, 0]
    assert len(p.pool) == 4 and len(p.stock) == 52 - 12
    assert sorted([c for h in p.hands for c in h] + p.pool + p.stock) == sorted(
        STANDARD.card_deck.cards
    )
    assert p.bundles == [[[]], [[]], [[]]]
    assert p.turn == 1  # the first tied seat after the dealer (seat 0)
    assert legal_moves(g) == legal_moves(p)
    assert {m.card for m in legal_moves(g)} == set(p.hands[1])
    move = legal_moves(g)[0]
    for seat in (0, 2):  # not seat 0's turn; seat 2 is not in the playoff at all
        with pytest.raises(IllegalMove):
            apply(g, move, seat=seat)
    v = view(g, 2)
    assert (v.playoff, v.players, v.turn, v.hand) == (1, (0, 1), 1, ())
    # The main game's bundles stand as they were.
    assert [g.bundle_size(s) for s in range(3)] == [5, 5, 3]

    # Rig the playoff's cards, then play it: seat 0 captures 5 cards, seat 1 captures 2.
    g = g.copy()
    p = g.playoffs[0]
    p.hands[1] = ["2S", "3S", "12S", "4S"]
    p.hands[0] = ["9S", "10S", "5H", "6H"]
    p.pool = ["9H", "9D", "10H", "12C"]
    used = {c for h in p.hands for c in h} | set(p.pool)
    p.stock = [c for c in STANDARD.card_deck.cards if c not in used]
    g, events = run(
        g,
        trail("2S"),
        cap("9S"),
        trail("3S"),
        cap("10S"),
        cap("12S"),
        trail("5H"),
        trail("4S"),
    )
    assert g.result is None
    g, events = apply(g, trail("6H"), seat=0)
    assert kinds(events) == ["played", "trailed", "game_over"]
    assert g.playoffs[0].result.bundle_sizes == (5, 2, 0)
    r = g.result
    assert r.winners == (0,)
    assert r.tiebreak == "playoff"
    assert r.bundle_sizes == (5, 5, 3)  # the game's own bundles, not the playoff's
    assert r.ranking == ((0,), (1,), (2,))
    assert len(g.playoffs) == 1
    assert legal_moves(g) == []
    with pytest.raises(GameOver):
        apply(g, trail("2S"))


def test_tiebreak_playoff_narrows_to_the_playoff_leaders():
    g = position(
        Rules(leftovers="nobody", tiebreak="playoff"),
        hands=[["5H"], ["8D"], ["6C"]],
        pool=["13S"],
        bundles=[["2S", "2H"], ["3S", "3H"], ["4S", "4H"]],
    )
    g, events = run(g, trail("5H"), trail("8D"), trail("6C"))
    assert only(events, "playoff_started")["seats"] == [0, 1, 2]
    g = g.copy()
    p = g.playoffs[0]
    assert p.turn == 1
    p.hands = [["10S", "4C", "5C", "6C"], ["9S", "4S", "5S", "6S"], ["4D", "5D", "6D", "7D"]]
    p.pool = ["9H", "10H", "2C", "3C"]
    g, events = run(
        g,
        cap("9S"),
        trail("4D"),
        cap("10S"),
        *[trail(c) for c in ("4S", "5D", "4C", "5S", "6D", "5C", "6S", "7D", "6C")],
    )
    assert g.playoffs[0].result.bundle_sizes == (2, 2, 0)
    assert g.result is None
    assert only(events, "playoff_started") == {
        "type": "playoff_started",
        "number": 2,
        "seats": [0, 1],
    }
    assert active(g).players == (0, 1)
    assert [len(h) for h in active(g).hands] == [4, 4, 0]


def test_tiebreak_playoff_three_ties_then_shared():
    g, events = run(tie_position("playoff"), *TIE_MOVES)
    for number in (1, 2, 3):
        assert len(g.playoffs) == number
        assert active(g).players == (0, 1)
        g, turns, events = trail_out(g)  # nobody captures: the playoff is tied 0-0
        assert turns == [1, 0] * 4
        if number < 3:
            assert g.result is None
            assert only(events, "playoff_started")["number"] == number + 1
    assert kinds(events)[-1] == "game_over"
    r = g.result
    assert r.winners == (0, 1)
    assert r.tiebreak == "shared"
    assert r.ranking == ((0, 1), (2,))
    assert r.bundle_sizes == (5, 5, 3)
    assert len(g.playoffs) == 3


# --- no move after the end --------------------------------------------------------------------


def test_game_over_refuses_every_move():
    g = leftover_position(STANDARD, [["5H"], ["8D"]])
    g, _ = run(g, cap("5H"), trail("8D"))
    assert g.over
    before = to_dict(g)
    for seat in (None, 0, 1):
        with pytest.raises(GameOver):
            apply(g, trail("8D"), seat=seat)
    assert legal_moves(g) == []
    assert to_dict(g) == before
