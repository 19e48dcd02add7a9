"""The traditional preset, clause by clause: a French 52-card deck played clockwise; a card that
can steal must steal, else one that can capture must capture; no pool refill; the cards left in
the pool go to the last player who captured or stole; a tie goes to the tied player who
captured or stole last; a short last deal goes one card at a time."""

from __future__ import annotations

import json

import pytest

from bot.engine import (
    CAPTURE,
    STEAL,
    TRAIL,
    IllegalMove,
    Move,
    Rules,
    apply,
    legal_moves,
    new_game,
    preset,
    preset_name,
    record,
    replay,
)
from bot.engine.playout import random_game

from .deals import SEATS, position

TRADITIONAL = preset("traditional")


def run(g, *moves: Move):
    events = []
    for move in moves:
        g, new = apply(g, move, seat=g.turn)
        events += new
    return g, events


def test_the_preset_is_the_traditional_description():
    rules = TRADITIONAL
    assert rules == Rules(
        deck="french52",
        direction="clockwise",
        play="forced",
        stealing=True,
        refill_pool=False,
        short_deal="one_at_a_time",
        leftovers="last_capturer",
        tiebreak="last_capturer",
        wild_jacks=False,
        sweep_bonus=False,
        double_bundles=False,
    )
    # classic, but the leftovers and ties go to the last capturer
    assert rules == preset("classic").replace(leftovers="last_capturer", tiebreak="last_capturer")
    assert preset_name(TRADITIONAL) == "traditional"


def test_play_is_forced_steal_then_capture_then_trail():
    g = position(
        TRADITIONAL,
        hands=[["8D", "5H", "2C"], ["7S"]],
        pool=["5C", "8H", "12D"],
        bundles=[["4S"], ["3D", "8S"]],
    )
    assert set(legal_moves(g)) == {
        Move("8D", STEAL, 1),  # may not capture the 8H instead
        Move("5H", CAPTURE),  # may not be trailed
        Move("2C", TRAIL),
    }
    for move in (Move("8D", CAPTURE), Move("5H", TRAIL)):
        with pytest.raises(IllegalMove, match="forced play"):
            apply(g, move, seat=0)


def test_an_emptied_pool_is_not_refilled():
    g = position(TRADITIONAL, hands=[["5H", "2C"], ["7S"]], pool=["5C"], stock=["9S", "9H"])
    g, events = run(g, Move("5H", CAPTURE))
    assert g.pool == [] and g.stock == ["9S", "9H"]
    assert "pool_refilled" not in [e["type"] for e in events]


def test_leftovers_go_to_the_last_player_who_captured_or_stole():
    g = position(
        TRADITIONAL,
        hands=[["5H", "2C"], ["3C", "4C"]],
        pool=["5C", "9H"],
        bundles=[["1S"], ["3S"]],
    )
    # Seat 0 captures the 5C; then nothing matches, and three cards are trailed.
    g, events = run(g, Move("5H", CAPTURE), Move("3C", TRAIL), Move("2C", TRAIL))
    g, events = run(g, Move("4C", TRAIL))
    award = next(e for e in events if e["type"] == "leftovers_awarded")
    assert (award["seat"], award["n"]) == (0, 4)
    assert g.pool == []
    assert g.result.bundle_sizes == (7, 1)
    assert (g.result.leftovers_to, g.result.leftovers) == (0, 4)


def test_a_steal_counts_as_the_last_capture():
    g = position(
        TRADITIONAL,
        hands=[["5H", "2C"], ["5S", "4C"]],
        pool=["5C", "9H"],
        bundles=[["1S"], ["3S"]],
    )
    # seat 0 captures with the 5H; seat 1's 5S must steal that bundle (5H on top).
    g, _ = run(g, Move("5H", CAPTURE), Move("5S", STEAL, 0), Move("2C", TRAIL))
    g, events = run(g, Move("4C", TRAIL))
    award = next(e for e in events if e["type"] == "leftovers_awarded")
    assert (award["seat"], award["n"]) == (1, 3)  # 9H, 2C, 4C
    assert g.result.bundle_sizes == (0, 8)


def test_a_tie_goes_to_the_last_capturer_without_a_playoff():
    g = position(
        TRADITIONAL,
        hands=[["9S"], ["4H"], ["6C"]],
        pool=["9C", "4D", "6H"],
        bundles=[["2S", "2H", "2D"], ["3S", "3H", "3D"], ["5S"]],
    )
    g, events = run(g, Move("9S", CAPTURE), Move("4H", CAPTURE), Move("6C", CAPTURE))
    r = g.result
    assert r.bundle_sizes == (5, 5, 3)
    assert r.winners == (1,) and r.tiebreak == "last_capturer"
    assert r.ranking == ((1,), (0,), (2,))
    assert g.playoffs == []
    assert "playoff_started" not in [e["type"] for e in events]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_whole_games_never_need_a_playoff_and_replay(players):
    for seed in range(30):
        g = random_game(TRADITIONAL, players, seed)
        assert g.over and g.playoffs == []
        assert g.result.tiebreak in (None, "last_capturer", "shared")
        # Leftovers are handed out whenever someone captured, so every card is in a bundle.
        assert sum(g.result.bundle_sizes) == 52 or g.result.leftovers_to is None
        assert replay(json.loads(json.dumps(record(g)))) == g


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_52_card_deck_always_deals_full_hands(players):
    g = new_game(TRADITIONAL, SEATS[:players], seed=players)
    sizes = []
    while not g.over:
        g, events = apply(g, legal_moves(g)[0])
        sizes += [e["sizes"] for e in events if e["type"] == "hands_dealt"]
    # 40, 36 or 32 cards left after the deal: 5, 3 or 2 new deals of 4 cards each.
    assert sizes == [[4] * players] * {2: 5, 3: 3, 4: 2}[players]
