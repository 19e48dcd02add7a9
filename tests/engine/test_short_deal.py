"""The short final deal: a stock too short for 4 cards each is dealt 4 at a time in turn order
(`short_deal: fours`) or one card at a time round the table (`one_at_a_time`), always starting
with the player due next. Records and saved games from before the option replay as they were
dealt: without the option they mean `fours`.
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import NamedTuple

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    BadState,
    IllegalMove,
    Move,
    Rules,
    apply,
    from_dict,
    legal_moves,
    new_game,
    preset,
    preset_name,
    record,
    replay,
    to_dict,
)
from bot.engine.playout import random_game
from tests.support.strategies import any_rules

from .deals import SEATS, position

RECORDS = Path(__file__).parent / "records"


class Deal(NamedTuple):
    seat: int  # who played the card that emptied the last hand
    stock: list[str]  # the stock just before the deal, top first
    hands: list[list[str]]  # every hand just after it
    sizes: list[int]  # the hands_dealt event's sizes, by seat
    turn: int | None  # who plays next


def redeals(rules: Rules, players: int, dealer: int, seed: int = 7) -> tuple[list[Deal], list]:
    """Play a whole game (each player's first legal move) and note every new deal, and every
    turn of the game itself (not its playoffs) after the last one."""
    g = new_game(rules, SEATS[:players], seed=seed, dealer=dealer)
    deals: list[Deal] = []
    after_last: list[int] = []
    while not g.over and not g.playoffs:
        seat, stock = g.turn, list(g.stock)
        g, events = apply(g, legal_moves(g)[0], seat=seat)
        after_last.append(seat)
        for e in events:
            if e["type"] == "hands_dealt":
                deals.append(Deal(seat, stock, [list(h) for h in g.hands], e["sizes"], g.turn))
                after_last = []
    return deals, after_last


def due_order(rules: Rules, players: int, seat: int) -> list[int]:
    """The seats from the one after `seat`, in the direction of play."""
    step = 1 if rules.direction == "clockwise" else -1
    return [(seat + step * i) % players for i in range(1, players + 1)]


# (deck, players) -> the last deal's hand sizes, in the order the seats are dealt to (the
# player due next first): (fours, one_at_a_time); None: the stock always deals out evenly.
LAST_DEAL = {
    ("spanish40", 2): ((4, 0), (2, 2)),
    ("spanish40", 3): None,
    ("spanish40", 4): ((4, 0, 0, 0), (1, 1, 1, 1)),
    ("italian40", 2): ((4, 0), (2, 2)),
    ("italian40", 3): None,
    ("italian40", 4): ((4, 0, 0, 0), (1, 1, 1, 1)),
    ("spanish48", 2): ((4, 0), (2, 2)),
    ("spanish48", 3): ((4, 4, 0), (3, 3, 2)),
    ("spanish48", 4): ((4, 4, 4, 0), (3, 3, 3, 3)),
    ("french52", 2): None,
    ("french52", 3): None,
    ("french52", 4): None,
}


@pytest.mark.parametrize(("deck", "players"), list(LAST_DEAL))
@pytest.mark.parametrize("short_deal", ["fours", "one_at_a_time"])
@pytest.mark.parametrize("direction", ["clockwise", "counterclockwise"])
def test_the_last_deal_of_a_game_without_refills(deck, players, short_deal, direction):
    # No pool refill and no sweep bonus: only new hands take cards from the stock, so the
    # last deal's size follows from the deck and the number of players.
    rules = preset("classic").replace(deck=deck, direction=direction, short_deal=short_deal)
    for dealer in range(players):
        deals, _ = redeals(rules, players, dealer, seed=dealer)
        assert deals, "a game has new hands"
        *full, last = deals
        for deal in full:
            assert deal.sizes == [4] * players and deal.stock[4 * players :]
        expected = LAST_DEAL[deck, players]
        if expected is None:
            assert last.sizes == [4] * players and len(last.stock) == 4 * players
            continue
        want = expected[short_deal == "one_at_a_time"]
        due = due_order(rules, players, last.seat)
        assert tuple(len(last.hands[s]) for s in due) == want
        assert sum(want) == len(last.stock) < 4 * players
        for k, seat in enumerate(due):
            if short_deal == "fours":
                assert last.hands[seat] == last.stock[4 * k : 4 * k + 4]
            else:
                assert last.hands[seat] == last.stock[k::players]
        assert last.sizes == [len(h) for h in last.hands]
        assert last.turn == due[0]  # the player due next is dealt to first, and plays first


@pytest.mark.parametrize(
    ("name", "players", "sizes"),
    [
        ("casita", 2, (2, 2)),
        ("casita", 3, None),
        ("casita", 4, (1, 1, 1, 1)),
        ("rubamazzo", 2, (2, 2)),
        ("rubamazzo", 3, None),
        ("rubamazzo", 4, (1, 1, 1, 1)),
    ],
)
def test_casita_and_rubamazzo_share_out_the_last_deal(name, players, sizes):
    rules = preset(name)
    assert rules.short_deal == "one_at_a_time"
    deals, turns = redeals(rules, players, dealer=1)
    last = deals[-1]
    if sizes is None:  # 24 cards after the deal: two whole new deals of 12
        assert [d.sizes for d in deals] == [[4, 4, 4]] * 2
        return
    due = due_order(rules, players, last.seat)
    assert tuple(len(last.hands[s]) for s in due) == sizes
    # Everyone plays their share in turn: nobody plays twice in a row.
    assert turns == due * sizes[0]

    # With the old deal, 4 at a time, the player due next gets all 4 and plays them alone.
    deals, turns = redeals(rules.replace(short_deal="fours"), players, dealer=1)
    assert tuple(sorted(deals[-1].sizes, reverse=True)) == (4,) + (0,) * (players - 1)
    assert turns == [due[0]] * 4


def test_presets_short_deal():
    assert {name: preset(name).short_deal for name in ("standard", "friendly")} == {
        "standard": "fours",
        "friendly": "fours",
    }
    for name in ("classic", "casita", "rubamazzo"):
        assert preset(name).short_deal == "one_at_a_time", name
    assert Rules().short_deal == "fours"


@pytest.mark.parametrize("name", ["classic", "standard"])
def test_a_full_deal_is_the_same_either_way(name):
    # Only a short stock is dealt differently: full hands are 4 cards at a time, as always, so a
    # 52-card game without refills plays card for card the same under both values.
    rules = preset(name).replace(refill_pool=False)
    for players in (2, 3, 4):
        for seed in range(5):
            a = random_game(rules.replace(short_deal="fours"), players, seed)
            b = random_game(rules.replace(short_deal="one_at_a_time"), players, seed)
            assert a.moves == b.moves and a.result == b.result


@pytest.mark.parametrize(
    ("direction", "stock_size", "sizes", "turns"),
    [
        # Seat 1 plays its last card; clockwise, seat 2 is due next, then 0, then 1.
        ("clockwise", 6, [2, 2, 2], [2, 0, 1, 2, 0, 1]),
        ("clockwise", 9, [3, 3, 3], [2, 0, 1] * 3),
        ("clockwise", 7, [2, 2, 3], [2, 0, 1, 2, 0, 1, 2]),
        ("clockwise", 5, [2, 1, 2], [2, 0, 1, 2, 0]),
        # Fewer cards than players: the last seats get none and are skipped.
        ("clockwise", 2, [1, 0, 1], [2, 0]),
        ("clockwise", 1, [0, 0, 1], [2]),
        # Counterclockwise seat 0 is due next, then seat 2, then seat 1.
        ("counterclockwise", 6, [2, 2, 2], [0, 2, 1, 0, 2, 1]),
        ("counterclockwise", 2, [1, 0, 1], [0, 2]),
    ],
)
def test_one_at_a_time_goes_round_from_the_player_due_next(direction, stock_size, sizes, turns):
    rules = Rules(direction=direction, short_deal="one_at_a_time")
    stock = ["1H", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H"][:stock_size]
    g = position(rules, hands=[[], ["5C"], []], pool=["13S"], stock=stock, turn=1)
    g, events = apply(g, Move("5C", "trail"), seat=1)
    dealt = next(e for e in events if e["type"] == "hands_dealt")
    assert dealt["sizes"] == sizes
    assert g.stock == []
    due = [2, 0, 1] if direction == "clockwise" else [0, 2, 1]
    for k, seat in enumerate(due):
        assert g.hands[seat] == stock[k::3]
    for seat, size in enumerate(sizes):
        if size == 0:
            with pytest.raises(IllegalMove):
                apply(g, Move("13S", "trail"), seat=seat)
    played = []
    while not g.over:
        seat = g.turn
        g, _ = apply(g, Move(g.hands[seat][0], "trail"), seat=seat)
        played.append(seat)
    assert played == turns


def test_one_at_a_time_leaves_a_full_deal_alone():
    rules = Rules(short_deal="one_at_a_time")
    stock = [f"{r}H" for r in range(1, 9)] + ["1D"]  # 9 cards: 4 each and 1 left over
    g = position(rules, hands=[[], ["5C"]], pool=["13S"], stock=stock, turn=1)
    g, _ = apply(g, Move("5C", "trail"), seat=1)
    assert g.hands == [stock[:4], stock[4:8]]  # seat 0 is due next
    assert g.stock == ["1D"]


def test_a_sweep_bonus_can_shorten_the_deal_without_refills():
    # Without refills only the sweep bonus takes cards from the stock between deals.
    rules = preset("classic").replace(sweep_bonus=True)
    stock = ["1H", "2H", "3H", "4H", "5H", "6H", "8H", "9H"]
    g = position(rules, hands=[[], ["7S"]], pool=["7H"], stock=stock, turn=1)
    g, events = apply(g, Move("7S", "capture"), seat=1)
    assert g.bundles[1] == [["7H", "1H", "7S"]]
    assert g.hands == [stock[1::2], stock[2::2]]  # 7 cards: seat 0 (due next) gets 4
    assert next(e for e in events if e["type"] == "hands_dealt")["sizes"] == [4, 3]


# --- records and saved games from before the option ---------------------------------------------


def test_rules_without_the_option_mean_fours():
    old = preset("casita").to_dict()
    del old["short_deal"]
    rules = Rules.from_dict(old)
    assert rules.short_deal == "fours"
    assert rules == preset("casita").replace(short_deal="fours")
    assert preset_name(rules) is None  # not today's casita: the deal differs
    assert Rules.from_dict({}) == Rules()
    assert Rules.from_dict({**old, "short_deal": "one_at_a_time"}) == preset("casita")


@pytest.mark.parametrize(
    ("name", "last"),
    [("casita_2p", (4, 0)), ("rubamazzo_4p", (4, 0, 0, 0))],
)
def test_a_record_from_before_the_option_replays_as_it_was_dealt(name, last):
    # Written by the engine before short_deal existed: its rules have no short_deal, its last
    # deal gave all 4 cards to the player due next, and that player played them in a row.
    rec = json.loads((RECORDS / f"{name}_before_short_deal.json").read_text())
    assert "short_deal" not in rec["rules"]
    events: list = []
    game = replay(rec, events)
    assert game.rules.short_deal == "fours"
    assert game.result is not None and game.result.to_dict() == rec["result"]
    dealt = [e for evs in events for e in evs if e["type"] == "hands_dealt"]
    assert tuple(sorted(dealt[-1]["sizes"], reverse=True)) == last
    seats = [m["seat"] for m in rec["moves"]]
    assert len(set(seats[-4:])) == 1  # four turns in a row
    # Written again it says how it was dealt, and replays the same.
    again = json.loads(json.dumps(record(game)))
    assert again["rules"]["short_deal"] == "fours"
    assert replay(again) == game
    # Under today's preset the same moves are not a legal game: the option is what kept it.
    rec["rules"]["short_deal"] = "one_at_a_time"
    with pytest.raises(BadState):
        replay(rec)


def test_a_saved_game_from_before_the_option_goes_on_with_fours():
    # A casita game saved (to_dict) by the engine before short_deal existed, halfway through.
    g = new_game(preset("casita").replace(short_deal="fours"), SEATS[:2], seed=7, dealer=0)
    for _ in range(20):
        g, _ = apply(g, legal_moves(g)[0])
    state = json.loads(json.dumps(to_dict(g)))
    del state["rules"]["short_deal"]
    loaded = from_dict(state)
    assert loaded.rules.short_deal == "fours"
    assert loaded == g
    sizes = []
    while not loaded.over and not loaded.playoffs:
        loaded, events = apply(loaded, legal_moves(loaded)[0])
        sizes += [e["sizes"] for e in events if e["type"] == "hands_dealt"]
    assert sorted(sizes[-1]) == [0, 4]


# --- any rules, any game ------------------------------------------------------------------------


@settings(max_examples=120, deadline=None)
@given(rules=any_rules, players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_every_new_deal_follows_short_deal(rules, players, seed):
    rng = random.Random(seed)
    g = new_game(rules, SEATS[:players], seed=seed, dealer=seed % players)
    while not g.over and not g.playoffs:
        seat = g.turn
        g, events = apply(g, rng.choice(legal_moves(g)), seat=seat)
        for e in events:
            if e["type"] != "hands_dealt":
                continue
            due = due_order(rules, players, seat)
            sizes = [e["sizes"][s] for s in due]
            assert g.stock == [] or sizes == [4] * players
            if sum(sizes) == 4 * players:
                continue  # a full deal
            if rules.short_deal == "one_at_a_time":
                assert max(sizes) - min(sizes) <= 1 and sizes == sorted(sizes, reverse=True)
            else:
                full, rest = divmod(sum(sizes), 4)  # 4 each to the first, then what is left
                want = [4] * full + ([rest] if rest else [])
                assert sizes == want + [0] * (players - len(want))
            assert g.turn == due[0]
