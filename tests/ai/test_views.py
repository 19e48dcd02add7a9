"""The AI policies see only a View: it holds no game and no hidden card, and the legal moves
and the unseen cards worked out from it alone are the truth."""

from __future__ import annotations

import dataclasses
import inspect
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import DIFFICULTIES, POLICIES, NoMove, Unseen, determinize, get_policy, legal_moves_of
from bot.engine import PRESETS, RANK, Game, active, legal_moves, new_game, view
from tests.support.games import RULESETS, playoff_positions, positions
from tests.support.strategies import any_rules


def hidden_cards(game: Game, seat: int) -> set[str]:
    g = active(game)
    cards = set(g.stock)
    for s, hand in enumerate(g.hands):
        if s != seat:
            cards.update(hand)
    return cards


def reachable(value, seen=None):
    """Every object reachable from a view's fields (through tuples and dataclasses)."""
    seen = seen if seen is not None else []
    seen.append(value)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            reachable(getattr(value, f.name), seen)
    elif isinstance(value, tuple | list | set | frozenset):
        for item in value:
            reachable(item, seen)
    elif isinstance(value, dict):
        for k, item in value.items():
            reachable(k, seen)
            reachable(item, seen)
    return seen


# --- Policies see the view and nothing else ---------------------------------------------------


def test_policies_take_a_view_and_refuse_a_game():
    game = new_game(PRESETS["standard"], ["a", "b"], seed=1)
    for name in POLICIES:
        policy = get_policy(name)
        params = list(inspect.signature(policy.choose).parameters)
        assert params == ["view", "rng"]
        assert inspect.get_annotations(type(policy).choose)["view"] in ("View",)
        with pytest.raises(TypeError):
            policy.choose(game, random.Random(0))


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_a_view_holds_no_game_and_no_hidden_card(name):
    for players in (2, 3, 4):
        for game in positions(RULESETS[name], players, seed=players)[::5]:
            seat = active(game).turn
            v = view(game, seat)
            objects = reachable(v)
            assert not any(isinstance(o, Game) for o in objects)
            # Slots or a __dict__ would be a way back to the game: a View has only its fields.
            assert set(vars(v)) == {f.name for f in dataclasses.fields(v)}
            strings = {o for o in objects if isinstance(o, str)}
            assert not strings & hidden_cards(game, seat)


def test_policies_ask_for_a_move_only_on_their_turn():
    game = new_game(PRESETS["standard"], ["a", "b"], seed=1)
    not_to_move = 1 - game.turn
    for name in POLICIES:
        with pytest.raises(NoMove):
            get_policy(name).choose(view(game, not_to_move), random.Random(0))


def test_naive_is_not_offered_to_players():
    assert set(DIFFICULTIES) == {"easy", "medium", "hard"}
    assert "naive" in POLICIES


# --- Legal moves and the unseen cards, from the view alone ----------------------------------


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_moves_from_the_view_are_the_engines(name):
    for players in (2, 3, 4):
        for seed in range(3):
            for game in positions(RULESETS[name], players, seed):
                g = active(game)
                assert legal_moves_of(view(game, g.turn)) == legal_moves(game)
                other = (g.turn + 1) % players
                assert legal_moves_of(view(game, other)) == []


@settings(max_examples=40, deadline=None)
@given(rules=any_rules, players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_moves_from_the_view_with_any_rules(rules, players, seed):
    for game in positions(rules, players, seed)[::3]:
        assert legal_moves_of(view(game, active(game).turn)) == legal_moves(game)


PLAYOFFS = playoff_positions()


def test_playoff_positions_were_found():
    assert len({(len(g.seats), g.rules) for g in PLAYOFFS}) == 6


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_unseen_cards_agree_with_the_truth(name):
    games = [g for p in (2, 3, 4) for g in positions(RULESETS[name], p, seed=p)]
    for game in games + PLAYOFFS:
        for seat in active(game).players:
            check_unseen(game, seat)


def check_unseen(game: Game, seat: int) -> None:
    v = view(game, seat)
    unseen = Unseen(v)
    truth = hidden_cards(game, seat)
    assert truth <= set(unseen.candidates)
    assert unseen.hidden == len(truth)
    captured = Counter(RANK[c] for c in set(unseen.candidates) - truth)
    for r, n in enumerate(unseen.forced):
        assert captured[r] >= n
    assert set(captured) <= unseen.eligible
    assert sum(unseen.expected) == pytest.approx(len(truth))


def test_a_determinized_game_looks_the_same_from_the_seat():
    for game in [g for p in (2, 3, 4) for g in positions(RULESETS["double"], p, 7)] + PLAYOFFS:
        g = active(game)
        seat = g.turn
        v = view(game, seat)
        unseen = Unseen(v)
        hidden = unseen.sample_hidden(random.Random(3))
        assert len(hidden) == unseen.hidden
        assert not set(hidden) & (set(v.hand) | set(v.pool) | {m.card for _, m in v.history})
        d = determinize(v, hidden)
        assert view(d, seat) == dataclasses.replace(v, playoff=0, result=None)
        assert legal_moves(d) == legal_moves(game)
        assert d.last_capture == g.last_capture
        cards = [c for hand in d.hands for c in hand] + d.stock + d.pool
        assert len(cards) == len(set(cards))
