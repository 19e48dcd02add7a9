"""Hard reads the opponents' hands from their trails, and searches the endgame exhaustively."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import Unseen, determinize, inference
from bot.ai.inference import TrailChecks, draw_deal, hands_of
from bot.ai.knowledge import MAX_RANK, declined, distinct_moves, redeal
from bot.ai.rollout import playout, solve
from bot.engine import PRESETS, RANK, Move, active, legal_moves, new_game, play, view
from tests.support.games import positions, two_hands
from tests.support.strategies import any_rules


def trailed_past_two_kings():
    """We trail a 2; the opponent then trails a 3 while two kings lie in the empty-bundled
    pool: medium holding a king would have captured them (3 cards, nothing exposed)."""
    g, me = two_hands(
        ["5S", "2H", "9D", "12C"], ["3S", "4H", "6D", "7C"], ["13S", "13H", "10D", "1C"]
    )
    g, _ = play(g, Move("2H", "trail"))
    g, _ = play(g, Move("3S", "trail"))
    return view(g, me), me


def test_a_hand_under_which_medium_would_have_captured_does_not_fit():
    v, me = trailed_past_two_kings()
    checks = TrailChecks(v, Unseen(v).expected)
    assert checks
    hands = [list(v.hand), list(v.hand)]
    hands[1 - me] = ["4H", "6D", "7C"]  # the truth
    assert checks.fits(hands)
    hands[1 - me] = ["4H", "6D", "13C"]
    assert not checks.fits(hands)


def test_a_king_is_never_dealt_to_the_opponent_who_trailed_past_two():
    v, me = trailed_past_two_kings()
    unseen = Unseen(v)
    weights = declined(v)
    checks = TrailChecks(v, unseen.expected)
    rng = random.Random(5)
    kings = 0
    for _ in range(300):
        hands = hands_of(v, draw_deal(v, unseen, weights, checks, rng))
        kings += sum(RANK[c] == 13 for c in hands[1 - me])
    assert kings == 0
    # Without the check, the weights alone still deal one now and then.
    empty = TrailChecks(v, unseen.expected)
    empty.checks = []
    dealt = [hands_of(v, draw_deal(v, unseen, weights, empty, rng)) for _ in range(300)]
    assert sum(RANK[c] == 13 for hands in dealt for c in hands[1 - me]) > 0


def captured_past_a_bundle():
    """We capture three tens; the opponent then captures a 3 with a 3: medium holding the
    last ten would have stolen our bundle of three (7 cards' swing) instead."""
    g, me = two_hands(
        ["10S", "2H", "9D", "12C"], ["3S", "4H", "6D", "7C"], ["10D", "10H", "13S", "3H"]
    )
    g, _ = play(g, Move("10S", "capture"))
    g, _ = play(g, Move("3S", "capture"))
    return view(g, me), me


def test_a_hand_under_which_medium_would_have_stolen_does_not_fit_the_capture(monkeypatch):
    monkeypatch.setattr(inference, "READ_CAPTURES", True)  # tested whether hard uses it or not
    v, me = captured_past_a_bundle()
    checks = TrailChecks(v, Unseen(v).expected)
    assert checks.capture is not None and not checks.checks
    hands = [list(v.hand), list(v.hand)]
    hands[1 - me] = ["4H", "6D", "7C"]  # the truth
    assert checks.fits(hands)
    hands[1 - me] = ["4H", "6D", "10C"]
    assert not checks.fits(hands)


def test_the_last_ten_is_never_dealt_to_the_opponent_who_captured_past_our_tens(monkeypatch):
    monkeypatch.setattr(inference, "READ_CAPTURES", True)
    v, me = captured_past_a_bundle()
    unseen = Unseen(v)
    weights = declined(v)
    checks = TrailChecks(v, unseen.expected)
    rng = random.Random(5)
    dealt = [hands_of(v, draw_deal(v, unseen, weights, checks, rng)) for _ in range(300)]
    assert not any("10C" in hands[1 - me] for hands in dealt)
    # Without the capture read, the weights alone still deal it now and then.
    checks.capture = None
    dealt = [hands_of(v, draw_deal(v, unseen, weights, checks, rng)) for _ in range(300)]
    assert any("10C" in hands[1 - me] for hands in dealt)


@pytest.mark.parametrize("players", [2, 3])
def test_the_true_hands_of_medium_players_mostly_fit_their_captures(players, monkeypatch):
    from bot.ai.policies import Medium

    monkeypatch.setattr(inference, "READ_CAPTURES", True)

    fit = checked = 0
    for seed in range(4):
        game = new_game(PRESETS["standard"], [f"p{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        while game.result is None:
            v = view(game, game.turn)
            checks = TrailChecks(v, Unseen(v).expected)
            if checks.capture is not None:
                checks.checks = []  # the capture alone
                checked += 1
                fit += checks.fits([list(h) for h in game.hands])
            game, _ = play(game, Medium().choose(v, rng))
    assert checked > 30 and fit >= 0.9 * checked


def test_the_true_hands_of_medium_players_mostly_fit():
    from bot.ai.policies import Medium

    fit = checked = 0
    for seed in range(6):
        game = new_game(PRESETS["standard"], ["a", "b"], seed=seed)
        rng = random.Random(seed)
        while game.result is None:
            v = view(game, game.turn)
            checks = TrailChecks(v, Unseen(v).expected)
            if checks:
                checked += 1
                fit += checks.fits([list(h) for h in game.hands])
            game, _ = play(game, Medium().choose(v, rng))
    assert checked > 20 and fit >= 0.9 * checked


@settings(max_examples=30, deadline=None)
@given(rules=any_rules, players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_the_trails_are_read_under_any_rules_and_deals_fill_every_hand(rules, players, seed):
    for game in positions(rules, players, seed)[::2]:
        g = active(game)
        v = view(game, g.turn)
        checks = TrailChecks(v, Unseen(v).expected)
        checks.fits([list(h) for h in g.hands])  # no error, whatever the rules
        hidden = draw_deal(v, Unseen(v), declined(v), checks, random.Random(seed))
        assert [len(h) for h in hands_of(v, hidden)] == list(v.hand_sizes)


@settings(max_examples=30, deadline=None)
@given(rules=any_rules, players=st.sampled_from([2, 3, 4]), seed=st.integers(0, 2**32))
def test_a_redeal_of_a_determinized_game_is_the_game_determinized_anew(rules, players, seed):
    rng = random.Random(seed)
    for game in positions(rules, players, seed)[::2]:
        v = view(game, active(game).turn)
        unseen = Unseen(v)
        template = determinize(v, unseen.sample_hidden(rng))
        hidden = unseen.sample_hidden(rng)
        assert redeal(template, v, hidden) == determinize(v, hidden)


def endgames():
    """Positions with an empty stock, from random 2- and 3-player games."""
    out = []
    for seed in range(30):
        players = 2 + seed % 2
        game = new_game(PRESETS["standard"], [f"p{i}" for i in range(players)], seed=seed)
        rng = random.Random(seed)
        while game.result is None:
            if not game.stock and len(distinct_moves(legal_moves(game))) > 1:
                out.append(game)
            moves = legal_moves(game)
            game, _ = play(game.copy(), moves[int(rng.random() * len(moves))])
    return out


def test_the_endgame_search_is_never_worse_than_the_playout_and_sometimes_better():
    better = 0
    for game in endgames():
        seat = game.turn
        v = view(game, seat)
        root = determinize(v, Unseen(v).sample_hidden(random.Random(1)))
        counts = [0] * MAX_RANK
        for h in root.hands:
            for c in h:
                counts[RANK[c]] += 1
        total = sum(map(len, root.hands))
        for m in distinct_moves(legal_moves(root)):
            searched = solve(root.copy(), m, counts[:], total, seat)
            played = playout(root.copy(), m, counts[:], total, seat)
            assert searched is not None and played is not None
            assert searched[0] >= played[0] - 1e-9
            better += searched[0] > played[0] + 1e-9
    assert better > 0


def test_a_repeated_endgame_deal_is_answered_as_if_searched_anew(monkeypatch):
    from bot.ai import Hard, policies

    searches = {True: 0, False: 0}
    real_solve = policies.solve

    def counted(*args, **kwargs):
        searches[memo] += 1
        return real_solve(*args, **kwargs)

    monkeypatch.setattr(policies, "solve", counted)
    views = [view(game, game.turn) for game in endgames()[::3]]
    assert len(views) > 10
    for k, v in enumerate(views):
        # A small budget: the deals repeat all the same (an endgame has few), at a quarter of
        # the CPU time of 2,000.
        chosen = {}
        for memo in (True, False):
            hard = Hard(budget=None, work=600, memo=memo)
            chosen[memo] = (hard.choose(v, random.Random(k)), hard.last_work)
        assert chosen[True] == chosen[False]
    assert searches[True] < searches[False]  # the memo did answer repeated deals
