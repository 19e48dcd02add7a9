"""Every event the engine makes has exactly the keys its TypedDict (bot.engine.events) says,
so the types the ui reads events by are the events' real shape."""

from __future__ import annotations

import random
import typing

import pytest

from bot.engine import PRESETS, Event, Game, Rules, apply, legal_moves, new_game

from .deals import position

KINDS = {
    typing.get_args(typing.get_type_hints(kind)["type"])[0]: kind for kind in typing.get_args(Event)
}


def played_out(game: Game, seed: int) -> set[str]:
    """Random moves to the end, checking every event's keys; the kinds seen."""
    rng = random.Random(seed)
    seen = set()
    while not game.over:
        game, events = apply(game, rng.choice(legal_moves(game)))
        assert events[0]["type"] == "played"
        for e in events:
            assert set(e) == KINDS[e["type"]].__required_keys__, e
            seen.add(e["type"])
    return seen


def test_every_kind_has_its_own_type_tag():
    assert len(KINDS) == len(typing.get_args(Event)) == 9


@pytest.mark.parametrize("preset", sorted(PRESETS))
def test_events_have_the_keys_of_their_kind(preset):
    for seed in range(4):
        game = new_game(PRESETS[preset], ["a", "b", "c", "d"][: 2 + seed % 3], seed=seed)
        played_out(game, seed)


def test_every_kind_is_made_and_checked():
    rules = Rules(sweep_bonus=True, double_bundles=True)
    seen = set()
    for seed in range(4):
        seen |= played_out(new_game(rules, ["a", "b", "c"], seed=seed), seed)
    refill = position(
        Rules(play="forced"),
        hands=[["7S"], ["3C"]],
        pool=["7H", "7D"],
        bundles=[[], ["8D", "9D"]],
        stock=["1H", "2H", "3H", "4H", "5H", "6H"],
    )  # seat 0's 7 must take both 7s: the pool is empty, and refilled
    seen |= played_out(refill, 1)
    tied = position(
        Rules(leftovers="nobody", tiebreak="playoff"),
        hands=[["5H"], ["8D"], ["6C"]],
        pool=["13S"],
        bundles=[["2S", "2H"], ["3S", "3H"], ["4S", "4H"]],
    )  # every trail ends it in a three-way tie: a playoff
    seen |= played_out(tied, 1)
    assert seen == set(KINDS)
