"""Scenario tests of determinism, records and saved state: the same seed deals the same game,
and a record or a saved game rebuilds it.
"""

from __future__ import annotations

import json

import pytest

from bot.engine import (
    BadState,
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

from .deals import SEATS, game
from .moves import cap, kinds, run, trail

STANDARD = Rules()


# --- determinism, records, saved state --------------------------------------------------------


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
