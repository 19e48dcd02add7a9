"""What a move saves of its game: `state_of` builds the engine's state without its moves
directly (not encoding every move of the game to drop them), and must save exactly what
`without_moves(to_dict(game))` does, at every move, playoffs included."""

from __future__ import annotations

import json
import random
from dataclasses import asdict
from types import SimpleNamespace
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import PRESETS, Game, Rules, apply, legal_moves, new_game
from bot.engine.playout import SEATS, random_game
from bot.engine.serialize import to_dict
from bot.session.models import state_of, with_moves, without_moves
from tests.support.strategies import any_rules

SESSION = {"host_id": "1", "autos": {}, "away": [], "forfeited": [], "match": None, "hints": {}}
TABLE: Any = SimpleNamespace(session_dict=lambda: dict(SESSION))


def every_state(rules: Rules, players: int, seed: int) -> list[Game]:
    game = new_game(rules, SEATS[:players], seed=seed)
    rand, states = random.Random(seed).random, [game]
    while game.result is None:
        moves = legal_moves(game)
        game, _ = apply(game, moves[int(rand() * len(moves))])
        states.append(game)
    return states


def assert_saved_as_before(game: Game) -> None:
    saved = state_of(TABLE, game)
    before = {**without_moves(to_dict(game)), "session": SESSION}
    assert json.dumps(saved) == json.dumps(before)  # same keys, same order, same values
    moves = [m for g in (game, *game.playoffs) for m in to_dict(g)["moves"]]
    assert with_moves({k: v for k, v in saved.items() if k != "session"}, moves) == to_dict(game)


@settings(max_examples=60, deadline=None)
@given(
    rules=st.one_of(st.sampled_from(list(PRESETS.values())), any_rules),
    players=st.sampled_from([2, 3, 4]),
    seed=st.integers(min_value=0, max_value=2**32),
)
def test_a_move_saves_the_state_without_its_moves_as_before(rules, players, seed):
    for game in every_state(rules, players, seed):
        assert_saved_as_before(game)


def test_a_game_in_its_playoffs_saves_as_before():
    rules = PRESETS["classic"]
    seed = next(s for s in range(400) if len(random_game(rules, 2, s, dealer=s % 2).playoffs) > 1)
    states = every_state(rules, 2, seed)
    in_playoffs = [g for g in states if g.playoffs and any(p.moves for p in g.playoffs)]
    assert in_playoffs and in_playoffs[-1].result is not None  # played through its playoffs
    for game in in_playoffs:
        assert_saved_as_before(game)


@settings(max_examples=50, deadline=None)
@given(rules=any_rules)
def test_the_rules_saved_are_the_rules_own_every_time(rules):
    # Rules.to_dict copies a dict built once: each call's copy is the caller's own, and a
    # changed ruleset (a new Rules) saves its own values.
    first = rules.to_dict()
    assert first == asdict(rules)
    first["deck"] = "changed"
    assert rules.to_dict() == asdict(rules)
    other = rules.replace(stealing=not rules.stealing)
    assert other.to_dict() == {**asdict(rules), "stealing": not rules.stealing}
