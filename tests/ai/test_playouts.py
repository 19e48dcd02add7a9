"""The playouts' fast paths play as the slow ones: the fast heuristic is medium's, and the
playout on ranks makes the very moves of the listed one."""

from __future__ import annotations

import time

import pytest

from bot.ai.knowledge import MAX_RANK
from bot.ai.medium import best_move_in_game, fast_move
from bot.ai.rank_playout import play_ranks, supported
from bot.ai.rollout import _playout_any, playout
from bot.engine import RANK, active, legal_moves
from tests.support.games import RULESETS, positions


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
