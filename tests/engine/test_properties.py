"""Property tests over random games of every preset and every mix of options."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import (
    CAPTURE,
    DECKS,
    PRESETS,
    RANK,
    STEAL,
    TRAIL,
    Game,
    Move,
    Rules,
    active,
    apply,
    from_dict,
    legal_moves,
    new_game,
    record,
    replay,
    to_dict,
    view,
)
from tests.support.strategies import any_rules

rules_strategy = st.one_of(st.sampled_from(list(PRESETS.values())), any_rules)
players_strategy = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**32)


def reference_legal(g: Game) -> set[Move]:
    """The rules written out plainly, to check the engine's fast move list against."""
    rules = g.rules
    seat = g.turn
    owns = [0, 1] if rules.double_bundles else [None]
    jack = DECKS[rules.deck].jack
    moves = set()
    for card in g.hands[seat]:
        steals = set()
        if rules.stealing:
            for other in range(len(g.seats)):
                for b, bundle in enumerate(g.bundles[other]):
                    if other == seat or not bundle:
                        continue
                    if RANK[bundle[-1]] == RANK[card] or (rules.wild_jacks and RANK[card] == jack):
                        for own in owns:
                            tb = b if rules.double_bundles else None
                            steals.add(Move(card, STEAL, other, tb, own))
        captures = set()
        if any(RANK[p] == RANK[card] for p in g.pool):
            captures = {Move(card, CAPTURE, None, None, own) for own in owns}
        trail = {Move(card, TRAIL)}
        if rules.play == "free":
            moves |= steals | captures | trail
        else:
            moves |= steals or captures or trail
    return moves


def all_cards(g: Game) -> Counter:
    held = Counter(c for h in g.hands for c in h)
    held.update(g.pool)
    held.update(g.stock)
    held.update(c for seat in g.bundles for b in seat for c in b)
    return held


def play_randomly(rules: Rules, players: int, seed: int, check_each_move) -> Game:
    rng = random.Random(seed)
    game = new_game(rules, [f"u{i}" for i in range(players)], seed=seed, dealer=seed % players)
    # 52 cards in play, plus at most 3 playoffs of 20 dealt cards: a hard upper bound.
    for _ in range(52 + 3 * 20 + 1):
        if game.result is not None:
            return game
        moves = legal_moves(game)
        check_each_move(game, moves)
        game, _events = apply(game, rng.choice(moves))
    raise AssertionError("the game did not end")


every_preset_and_size = pytest.mark.parametrize(
    ("name", "players"), [(name, n) for name in PRESETS for n in (2, 3, 4)]
)


@every_preset_and_size
@settings(max_examples=15, deadline=None)
@given(seed=seeds)
def test_every_preset_and_size_conserves_cards_and_offers_only_legal_moves(name, players, seed):
    check_game(PRESETS[name], players, seed)


@every_preset_and_size
@settings(max_examples=8, deadline=None)
@given(seed=seeds, cut=st.floats(0, 1))
def test_every_preset_and_size_round_trips(name, players, seed, cut):
    check_round_trip(PRESETS[name], players, seed, cut)


@settings(max_examples=150, deadline=None)
@given(rules=rules_strategy, players=players_strategy, seed=seeds)
def test_cards_are_conserved_and_only_legal_moves_are_offered(rules, players, seed):
    check_game(rules, players, seed)


def check_game(rules, players, seed):
    deck = Counter(DECKS[rules.deck].cards)

    def check(game, moves):
        assert all_cards(game) == deck
        g = active(game)
        if g is not game:  # a playoff has its own fresh deck
            assert all_cards(g) == deck
        assert moves, "a running game always has a move"
        assert len(set(moves)) == len(moves)
        assert set(moves) == reference_legal(g)

    game = play_randomly(rules, players, seed, check)
    assert all_cards(game) == deck
    assert game.result is not None and legal_moves(game) == []
    assert sum(game.result.bundle_sizes) + len(game.pool) == len(deck)


@settings(max_examples=100, deadline=None)
@given(rules=rules_strategy, players=players_strategy, seed=seeds, cut=st.floats(0, 1))
def test_state_and_record_round_trip(rules, players, seed, cut):
    check_round_trip(rules, players, seed, cut)


def check_round_trip(rules, players, seed, cut):
    rng = random.Random(seed)
    game = new_game(rules, [f"u{i}" for i in range(players)], seed=seed)
    snapshots = []
    while game.result is None:
        snapshots.append(game)
        game, _ = apply(game, rng.choice(legal_moves(game)))
    for state in (game, snapshots[int(cut * (len(snapshots) - 1))]):
        data = json.loads(json.dumps(to_dict(state)))  # JSON-safe, exactly
        assert from_dict(data) == state
        assert to_dict(from_dict(data)) == to_dict(state)
    rec = json.loads(json.dumps(record(game)))
    assert replay(rec) == game
    assert rec["result"]["winners"] == list(game.result.winners)


@settings(max_examples=100, deadline=None)
@given(rules=rules_strategy, players=players_strategy, seed=seeds)
def test_a_view_never_shows_hidden_cards(rules, players, seed):
    def check(game, _moves):
        g = active(game)
        for seat in range(players):
            hidden = set(g.stock)
            hidden.update(c for other, h in enumerate(g.hands) if other != seat for c in h)
            shown = json.dumps(view(game, seat).to_dict())
            leaked = [c for c in hidden if f'"{c}"' in shown]
            assert not leaked, f"seat {seat} can see {leaked}"
            assert list(view(game, seat).hand) == g.hands[seat]
            assert view(game, seat).stock_size == len(g.stock)

    play_randomly(rules, players, seed, check)


@settings(max_examples=50, deadline=None)
@given(rules=rules_strategy, players=players_strategy, seed=seeds)
def test_a_refused_move_leaves_the_game_untouched(rules, players, seed):
    game = new_game(rules, [f"u{i}" for i in range(players)], seed=seed)
    before = to_dict(game)
    other = next(c for c in DECKS[rules.deck].cards if c not in game.hands[game.turn])
    for bad in [Move(other, TRAIL), Move(game.hands[game.turn][0], STEAL, game.turn)]:
        try:
            apply(game, bad)
        except Exception as exc:
            assert type(exc).__name__ == "IllegalMove"
        else:
            raise AssertionError(f"{bad} was accepted")
    assert to_dict(game) == before


def test_the_same_seed_deals_the_same_game():
    a = new_game(PRESETS["standard"], ["a", "b"], seed=42)
    b = new_game(PRESETS["standard"], ["a", "b"], seed=42)
    c = new_game(PRESETS["standard"], ["a", "b"], seed=43)
    assert a == b and to_dict(a) == to_dict(b)
    assert a.initial != c.initial
