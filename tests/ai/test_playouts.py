"""The playouts' fast paths play as the slow ones: the fast heuristic is medium's, and the
playout on ranks makes the very moves of the listed one."""

from __future__ import annotations

import time

import pytest

from bot.ai import rollout
from bot.ai.knowledge import MAX_RANK
from bot.ai.medium import best_move_in_game, fast_move
from bot.ai.rank_playout import play_ranks, supported
from bot.ai.rollout import _playout_any, playout, sighted
from bot.engine import CAPTURE, RANK, TRAIL, Move, active, legal_moves
from tests.support.games import RULESETS, positions, two_hands


@pytest.mark.parametrize("name", sorted(RULESETS))
def test_the_playouts_fast_heuristic_is_medium(name):
    for players in (2, 3, 4):
        for game in positions(RULESETS[name], players, seed=30 + players):
            g = active(game)
            counts = [0] * MAX_RANK
            cards = [c for hand in g.hands for c in hand] + g.stock
            for c in cards:
                counts[RANK[c]] += 1
            moves = legal_moves(game)
            expected = best_move_in_game(g, moves, counts, len(cards))
            assert fast_move(g, moves, counts, len(cards)) == expected


RANKED = [n for n in sorted(RULESETS) if supported(RULESETS[n])]


@pytest.mark.parametrize("name", RANKED)
def test_the_rank_playout_plays_as_the_listed_one(name):
    # Hard's playout on ranks must make the very moves of the loop that lists them with the
    # engine and picks with fast_move, and score the end the same (leftovers, tie-break): same
    # score, same number of moves. It reads the game it is handed and leaves it as it was.
    for players in (2, 3, 4):
        for game in positions(RULESETS[name], players, seed=50 + players)[::2]:
            g = active(game)
            counts = [0] * MAX_RANK
            cards = [c for hand in g.hands for c in hand] + g.stock
            for c in cards:
                counts[RANK[c]] += 1
            for move in legal_moves(game)[:3]:
                listed = _playout_any(
                    g.copy(), move, counts[:], len(cards), g.turn, None, time.time
                )
                assert playout(g.copy(), move, counts[:], len(cards), g.turn) == listed
            before = g.copy()
            on_ranks = play_ranks(g, counts[:], len(cards), g.turn, None, time.time)
            assert on_ranks is not None and on_ranks[1] > 0
            assert g == before


def test_the_rank_playout_serves_every_rule_set_with_one_bundle_and_no_wild_card():
    assert [n for n in RANKED] == [
        n for n in sorted(RULESETS) if not (RULESETS[n].wild_jacks or RULESETS[n].double_bundles)
    ]
    assert "standard" in RANKED


def counts_of(g):
    counts = [0] * MAX_RANK
    cards = [c for hand in g.hands for c in hand] + g.stock
    for c in cards:
        counts[RANK[c]] += 1
    return counts, len(cards)


def test_our_own_playout_moves_see_the_other_hand():
    # Capturing the 5 tops our bundle with a 5. Counting, a 5 is one card of 43 unseen: capture.
    # Seeing that the other hand holds the last 5 (it would steal the bundle back): trail.
    pool = ["5H", "5D", "13D"]
    g, me = two_hands(["5S", "9C", "2C", "3C"], ["5C", "12S", "7H", "8H"], pool)
    counts, total = counts_of(g)
    moves = legal_moves(g)
    assert fast_move(g, moves, counts, total).action == CAPTURE
    assert fast_move(g, moves, counts, total, sighted(g, me)).action == TRAIL
    # Without the 5 over there, seeing changes nothing.
    g, me = two_hands(["5S", "9C", "2C", "3C"], ["6C", "12S", "7H", "8H"], pool)
    counts, total = counts_of(g)
    assert fast_move(g, moves, counts, total, sighted(g, me)) == Move("5S", CAPTURE)


def test_sighted_sees_the_other_hands_or_else_their_next_deal():
    g, me = two_hands(["5S", "9C"], ["5C", "12S", "7H"], [])
    assert [r for r in range(MAX_RANK) if sighted(g, me)[r]] == [5, 7, 12]
    g.hands[1 - me] = []
    next_deal = {RANK[c] for c in g.stock[:4]}
    assert {r for r in range(MAX_RANK) if sighted(g, me)[r]} == next_deal
    g.stock = []
    assert not any(sighted(g, me))


@pytest.mark.parametrize("name", ["standard", "double_wild_forced"])
def test_only_the_searching_seat_sees_in_its_playouts(name, monkeypatch):
    # The other players are medium, as the real ones: they count, they do not see.
    calls = []
    real = rollout.fast_move

    def spy(g, moves, counts, total, seen=None):
        calls.append((g.turn, seen, sighted(g, 0) if g.turn == 0 else None))
        return real(g, moves, counts, total, seen)

    monkeypatch.setattr(rollout, "fast_move", spy)
    game = positions(RULESETS[name], 2, seed=7)[0]
    g = active(game)
    counts, total = counts_of(g)
    _playout_any(g.copy(), legal_moves(game)[0], counts, total, 0, None, time.time)
    assert {turn for turn, _, _ in calls} == {0, 1}
    for turn, seen, expected in calls:
        assert seen == expected, f"seat {turn}"
