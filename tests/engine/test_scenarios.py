"""Scenario tests: every rule clause of the engine, checked on hand-built deals and positions.

Each test sets up the cards itself (see `deals.py`), plays named moves and asserts the exact
cards, sizes, turns and events that the rules call for.
"""

from __future__ import annotations

import json
import random

import pytest

from bot.engine import (
    CAPTURE,
    STEAL,
    TRAIL,
    BadState,
    BundleView,
    GameOver,
    IllegalMove,
    Move,
    Rules,
    active,
    apply,
    from_dict,
    legal_moves,
    new_game,
    preset,
    record,
    replay,
    to_dict,
    view,
)
from bot.engine.playout import random_game
from bot.engine.serialize import move_from_dict

from .deals import SEATS, deal, game, position

STANDARD = Rules()
FORCED = Rules(play="forced")


def cap(card: str, own: int | None = None) -> Move:
    return Move(card, CAPTURE, None, None, own)


def steal(card: str, seat: int, bundle: int | None = None, own: int | None = None) -> Move:
    return Move(card, STEAL, seat, bundle, own)


def trail(card: str) -> Move:
    return Move(card, TRAIL)


def run(g, *moves: Move):
    """Play `moves` in order, each for whoever is to act; return the game and all events."""
    events = []
    for move in moves:
        g, new = apply(g, move, seat=active(g).turn)
        events += new
    return g, events


def kinds(events) -> list[str]:
    return [e["type"] for e in events]


def only(events, kind: str) -> dict:
    found = [e for e in events if e["type"] == kind]
    assert len(found) == 1, f"expected one {kind!r} event in {kinds(events)}"
    return found[0]


def trail_out(g):
    """Trail the first card of whoever is to act until the game (or playoff) ends."""
    turns, events = [], []
    start = len(g.playoffs)
    while g.result is None and len(g.playoffs) == start:
        a = active(g)
        turns.append(a.turn)
        g, new = apply(g, trail(a.hands[a.turn][0]), seat=a.turn)
        events += new
    return g, turns, events


def trail_n(g, n):
    """Trail the first card of whoever is to act, `n` times; return the game and the turns."""
    turns = []
    for _ in range(n):
        turns.append(g.turn)
        g, _ = apply(g, trail(g.hands[g.turn][0]), seat=g.turn)
    return g, turns


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


# --- 1. capture --------------------------------------------------------------------------------


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


# --- 2. steal ----------------------------------------------------------------------------------


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


# --- 3. free and forced play -------------------------------------------------------------------

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


# --- 4. redeal ---------------------------------------------------------------------------------


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


# --- 5. pool refill ----------------------------------------------------------------------------

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


# --- 6. leftovers ------------------------------------------------------------------------------


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


# --- 7. game end and tie-breaks ----------------------------------------------------------------


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


# --- 8. wild jacks -----------------------------------------------------------------------------


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


# --- 9. sweep bonus ----------------------------------------------------------------------------


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


# --- 10. double bundles ------------------------------------------------------------------------


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


# --- 11. direction -----------------------------------------------------------------------------


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


# --- 12. friendly: no stealing ----------------------------------------------------------------


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


# --- 13. illegal moves -------------------------------------------------------------------------


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


# --- 14. determinism, records, saved state -----------------------------------------------------


def test_same_seed_same_deal():
    a = new_game(STANDARD, SEATS[:3], seed=42)
    b = new_game(STANDARD, SEATS[:3], seed=42)
    assert a == b and to_dict(a) == to_dict(b)
    assert a.hands != new_game(STANDARD, SEATS[:3], seed=43).hands
    assert random_game(STANDARD, 3, 9) == random_game(STANDARD, 3, 9)


@pytest.mark.parametrize("name", ["standard", "classic", "casita", "friendly", "traditional"])
def test_replay_of_a_record_rebuilds_the_game(name):
    rules = preset(name)
    g = random_game(rules, 3, 3)
    assert g.over
    rec = json.loads(json.dumps(record(g)))
    assert replay(rec) == g
    assert from_dict(json.loads(json.dumps(to_dict(g)))) == g
    # A game cut short replays too.
    part = new_game(rules, SEATS[:3], seed=3)
    for _ in range(7):
        part, _ = apply(part, legal_moves(part)[-1])
    assert replay(record(part)) == part


def test_replay_with_playoffs():
    rules = preset("classic")
    seed = next(s for s in range(500) if random_game(rules, 3, s).playoffs)
    g = random_game(rules, 3, seed)
    assert g.playoffs and g.result.tiebreak in ("playoff", "shared")
    rec = record(g)
    assert len(rec["playoffs"]) == len(g.playoffs)
    assert replay(rec) == g
    # A playoff's deal follows from the game: a changed one is refused.
    # Stopped one move before the end: the last playoff is running, and saves and loads.
    cut = json.loads(json.dumps(rec))
    last = cut["playoffs"][-1]["moves"].pop()
    cut["result"] = None
    mid = replay(cut)
    assert mid.result is None and active(mid) is mid.playoffs[-1]
    assert from_dict(json.loads(json.dumps(to_dict(mid)))) == mid
    seat, move, auto = move_from_dict(last)
    assert active(mid).turn == seat and move in legal_moves(mid)
    assert view(mid, seat).playoff == len(g.playoffs)
    done, events = apply(mid, move, seat=seat, auto=auto)
    assert done == g
    assert kinds(events)[-1] == "game_over"
    # A playoff's deal follows from the game: a changed one is refused.
    rec["playoffs"][0]["initial"]["pool"].reverse()
    with pytest.raises(BadState, match="playoff 1"):
        replay(rec)


def test_replay_rejects_an_illegal_move_and_names_it():
    g = game(
        STANDARD,
        [["7C", "3C", "4C", "5C"], ["7S", "8S", "9S", "10S"]],
        ["7H", "12D", "2D", "13C"],
    )
    g, _ = run(g, cap("7S"), trail("3C"), trail("8S"))
    rec = record(g)
    assert replay(rec) == g

    bad = json.loads(json.dumps(rec))
    bad["moves"][1]["card"] = "9S"  # seat 0 does not hold 9S
    with pytest.raises(BadState, match=r"move 2 \(9S\)") as info:
        replay(bad)
    assert "not in your hand" in str(info.value)

    bad = json.loads(json.dumps(rec))
    bad["moves"][2]["seat"] = 0  # move 3 was seat 1's
    with pytest.raises(BadState, match=r"move 3 \(8S\).*not your turn"):
        replay(bad)

    bad = json.loads(json.dumps(rec))
    bad["moves"][1] = {**bad["moves"][1], "card": "7C", "action": "steal", "target_seat": 0}
    with pytest.raises(BadState, match=r"move 2 \(7C\)"):
        replay(bad)
