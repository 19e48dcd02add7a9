"""The AI policies always move legally, in games and playoffs, and are deterministic."""

from __future__ import annotations

import random

import pytest

from bot.ai import POLICIES, Hard, get_policy
from bot.engine import active, legal_moves, new_game, play, view
from tests.support.games import RULESETS, playoff_positions, positions

PLAYOFFS = playoff_positions()


# --- Every policy moves legally, deterministically ------------------------------------------


def policy_for_tests(name: str):
    return Hard(budget=None, samples=1) if name == "hard" else get_policy(name)


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_every_policy_moves_legally(name):
    policies = {p: policy_for_tests(p) for p in POLICIES}
    rng = random.Random(name)
    for players in (2, 3, 4):
        games = positions(RULESETS[name], players, seed=11 + players)
        for game in games[:: max(1, len(games) // 6)]:
            legal = legal_moves(game)
            v = view(game, active(game).turn)
            for p, policy in policies.items():
                assert policy.choose(v, rng) in legal, p


def test_every_policy_moves_legally_in_playoffs():
    policies = [policy_for_tests(p) for p in POLICIES]
    for game in PLAYOFFS[::2]:
        v = view(game, active(game).turn)
        assert v.playoff
        for policy in policies:
            assert policy.choose(v, random.Random(1)) in legal_moves(game)


def test_every_policy_plays_whole_games():
    rules = RULESETS["double_wild_forced"]
    for players in (2, 3, 4):
        game = new_game(rules, [f"p{i}" for i in range(players)], seed=players)
        policies = [get_policy(p) for p in ("medium", "naive", "easy", "medium")]
        rng = random.Random(0)
        while game.result is None:
            seat = active(game).turn
            move = policies[seat].choose(view(game, seat), rng)
            assert move in legal_moves(game)
            game, _ = play(game, move)


@pytest.mark.parametrize("name", sorted(POLICIES))
def test_same_seed_same_view_same_move(name):
    for game in positions(RULESETS["double"], 3, seed=5)[::4]:
        v = view(game, active(game).turn)
        options = {"budget": None, "work": 300} if name == "hard" else {}
        first = get_policy(name, **options).choose(v, random.Random(42))
        again = get_policy(name, **options).choose(v, random.Random(42))
        assert first == again
