"""The replay's states and pictures, from a record: every move, every hand face up, and a
record that does not replay refused with the engine's BadState."""

from __future__ import annotations

import random

import pytest

from bot.engine import BadState, new_game, preset, record
from bot.engine.playout import play_out
from bot.ui.picture import layout
from bot.ui.replay import ReplayCache, picture, replay_layout, replayed, scene


def finished(seed: int = 3, players: int = 3) -> dict:
    seats = ["1", "2", "ai:hard:1"][:players]
    return record(play_out(new_game(preset("standard"), seats, seed=seed), random.Random(seed)))


def test_states_follow_the_record_to_its_result():
    rec = finished()
    r = replayed(9, rec)
    assert r.last == len(rec["moves"]) and len(r.events) == r.last
    assert not r.states[0].moves and r.states[-1].result.to_dict() == rec["result"]
    steals = [(n, e["n"]) for n, es in enumerate(r.events, 1) for e in es if e["type"] == "stole"]
    if steals:
        assert r.biggest_steal == max(steals, key=lambda s: (s[1], -s[0]))[0]
    assert r.clamp(-4) == 0 and r.clamp(10**9) == r.last


def test_every_hand_is_face_up_in_the_picture():
    rec = finished()
    r = replayed(9, rec)
    names = {"1": "ann", "2": "bob"}
    base = layout(scene(r, 0, names, "en"))
    assert all(spot.card is None for p in base.panels for spot in p.hand)  # the table's backs
    shown = replay_layout(r, 0, names, "en")
    dealt = rec["initial"]["hands"]
    assert [[spot.card for spot in p.hand] for p in shown.panels] == dealt
    assert all(spot.size == "mini" for p in shown.panels for spot in p.hand)
    png = picture(r, 0, names, "en")
    assert png.startswith(b"\x89PNG")
    cache = ReplayCache()
    assert cache.picture(r, 0, names, "en") == png and cache.picture(r, 0, names, "en") == png
    assert cache.renders == 1


@pytest.mark.parametrize(
    "broken",
    [
        lambda rec: {**rec, "moves": rec["moves"][:3] + rec["moves"][4:]},  # a move missing
        lambda rec: {**rec, "moves": [{**rec["moves"][0], "card": "99X"}]},
        lambda rec: {**rec, "format": "something/else"},
        lambda rec: {k: v for k, v in rec.items() if k != "moves"},
    ],
)
def test_a_record_that_does_not_replay_is_refused(broken):
    with pytest.raises(BadState):
        replayed(9, broken(finished()))
