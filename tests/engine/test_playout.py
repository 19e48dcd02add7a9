"""The playout fast path (rules' tables looked up once, moves played without events) makes
exactly the moves, and reaches exactly the states, that the full `apply` path does; and the
engine's own shuffle deals what Python's does."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.engine import DECKS, PRESETS, Game, Move, Rules, active, apply, legal_moves, new_game
from bot.engine.ending import after_playoff
from bot.engine.game import shuffled_deck
from bot.engine.moves import advance, legal_with, step, tables
from bot.engine.playout import SEATS, play_out, random_game
from tests.support.strategies import any_rules

rules_strategy = st.one_of(st.sampled_from(list(PRESETS.values())), any_rules)
players_strategy = st.sampled_from([2, 3, 4])
seeds = st.integers(min_value=0, max_value=2**32)


def fast_move(game: Game, move: Move) -> Game:
    """One move the playout's way, on a copy: `advance` without events, and the playoff
    bookkeeping that the playout loop does once a playoff's last move is played."""
    quiet = game.copy()
    g = active(quiet)
    advance(g, move)
    if g is not quiet and g.result is not None:
        after_playoff(quiet, [])
    return quiet


def full_path(rules: Rules, players: int, seed: int) -> list[Game]:
    """A random game played with `legal_moves` and `apply`, choosing as the playout does; at
    every state, checks that the fast path lists the same moves and reaches the same state."""
    game = new_game(rules, SEATS[:players], seed=seed, dealer=seed % players)
    rand = random.Random(seed).random
    rule_tables = tables(rules)
    states = [game]
    while game.result is None:
        moves = legal_moves(game)
        assert legal_with(active(game), rule_tables) == moves  # the same moves, in order
        move = moves[int(rand() * len(moves))]
        quiet = fast_move(game, move)
        game, _events = apply(game, move)
        assert quiet == game  # every field, playoffs included
        states.append(game)
    return states


@settings(max_examples=200, deadline=None)
@given(rules=rules_strategy, players=players_strategy, seed=seeds)
def test_fast_playout_makes_the_same_moves_and_states_as_apply(rules, players, seed):
    states = full_path(rules, players, seed)
    # random_game itself (its loop, its playoffs) ends in the very game apply reached.
    assert random_game(rules, players, seed, dealer=seed % players) == states[-1]


@settings(max_examples=100, deadline=None)
@given(rules=rules_strategy, players=players_strategy, seed=seeds, cut=st.floats(0, 1))
def test_play_out_from_any_state_matches_apply(rules, players, seed, cut):
    states = full_path(rules, players, seed)
    start = states[int(cut * (len(states) - 1))]  # mid-game, mid-playoff or over
    before = start.copy()
    fast = play_out(start, random.Random(seed + 1))
    assert start == before  # play_out finishes a copy
    game, rand = start, random.Random(seed + 1).random
    while game.result is None:
        moves = legal_moves(game)
        game, _ = apply(game, moves[int(rand() * len(moves))])
    assert fast == game


def test_playoffs_are_covered():
    # Tied games that go to playoffs, some to more than one: the fast path's rarest branch.
    rules = PRESETS["classic"]
    playoffs = []
    for seed in range(400):
        for players in (2, 3, 4):
            if random_game(rules, players, seed, dealer=seed % players).playoffs:
                states = full_path(rules, players, seed)
                playoffs.append(len(states[-1].playoffs))
    assert len(playoffs) >= 10 and max(playoffs) == 3  # up to the last playoff allowed


@settings(max_examples=50, deadline=None)
@given(rules=rules_strategy, players=players_strategy, seed=seeds)
def test_advance_without_events_changes_the_game_as_step_does(rules, players, seed):
    game = new_game(rules, SEATS[:players], seed=seed)
    rand = random.Random(seed).random
    while game.turn is not None:
        moves = legal_moves(game)
        move = moves[int(rand() * len(moves))]
        quiet = game.copy()
        advance(quiet, move)
        events = step(game, move)
        assert quiet == game and events and events[0]["type"] == "played"


@settings(max_examples=200, deadline=None)
@given(deck=st.sampled_from(list(DECKS)), seed=st.one_of(seeds, st.text(max_size=30)))
def test_the_engines_shuffle_is_pythons(deck, seed):
    # The deal is spelled out in the engine for speed; it must stay Random(seed).shuffle's,
    # or the seeds of stored games and their playoffs would deal other cards.
    cards = list(DECKS[deck].cards)
    random.Random(seed).shuffle(cards)
    assert shuffled_deck(Rules(deck=deck), seed) == cards


def test_a_seed_deals_what_it_always_dealt():
    # Pinned: whatever Python's own shuffle does in later versions, a seed's deal must not change.
    assert shuffled_deck(PRESETS["standard"], 0)[:8] == [
        "3D", "13S", "7C", "3C", "13D", "8S", "6S", "11D",
    ]  # fmt: skip
    assert shuffled_deck(PRESETS["casita"], "x/playoff/1")[:8] == [
        "1E", "2C", "10C", "10B", "3O", "12O", "6B", "7B",
    ]  # fmt: skip
