"""What passing a chance up says about a hand: the ranks a player declined, and hidden cards
dealt by those weights."""

from __future__ import annotations

import random

from bot.ai import Unseen
from bot.ai.knowledge import DECLINED_CAPTURE, DECLINED_SMALL, DECLINED_STEAL, deal_hidden, declined
from bot.engine import PRESETS, Move, active, new_game, play, view
from tests.support.games import RULESETS, positions, two_hands

# --- What passing a chance up says about a hand ---------------------------------------------


def test_a_trail_past_a_capture_marks_the_rank_as_declined():
    g, me = two_hands(
        ["5S", "2H", "9D", "12C"], ["3S", "4H", "6D", "7C"], ["8S", "8H", "10D", "6C"]
    )
    g, _ = play(g, Move("2H", "trail"))  # we trail; then the opponent trails past the 8s
    g, _ = play(g, Move("3S", "trail"))
    weights = declined(view(g, me))
    assert weights[me] == {}
    assert weights[1 - me] == dict.fromkeys((8, 10, 6, 2), DECLINED_CAPTURE)
    g, _ = play(g, Move("9D", "trail"))
    g, _ = play(g, Move("4H", "trail"))
    assert 9 in declined(view(g, me))[1 - me]  # the pool as it was before the 4
    # A capture ends the walk back: the pool before it is not known.
    g, _ = play(g, Move("5S", "trail"))
    g, _ = play(g, Move("6D", "capture"))
    assert declined(view(g, me))[1 - me] == {}
    # So does a redeal: the cards in the new hands were not there to be declined.
    g, _ = play(g, Move("12C", "trail"))
    g, _ = play(g, Move("7C", "trail"))
    assert len(g.moves) == 8 and len(g.hands[me]) == 4
    assert declined(view(g, me))[1 - me] == {}


def test_dealing_by_weights_keeps_the_cards():
    for game in positions(RULESETS["double"], 3, seed=8)[::3]:
        v = view(game, active(game).turn)
        unseen = Unseen(v)
        rng = random.Random(4)
        hidden = unseen.sample_hidden(rng)
        dealt = deal_hidden(v, hidden, declined(v), rng)
        assert sorted(dealt) == sorted(hidden)


def test_a_capture_past_our_bundle_marks_its_top_as_declined():
    rules = PRESETS["standard"]
    g = new_game(rules, ["a", "b"], seed=21).copy()
    me = g.turn
    g.hands[me] = ["5S", "2H", "9D", "8C"]
    g.hands[1 - me] = ["3S", "4H", "6D", "7C"]
    g.pool = ["8S", "8H", "10D", "6C"]
    used = set(g.hands[0] + g.hands[1] + g.pool)
    g.stock = [c for c in rules.card_deck.cards if c not in used]
    g, _ = play(g, Move("8C", "capture"))  # our bundle: 3 cards, an 8 on top
    g, _ = play(g, Move("6D", "capture"))  # they could have stolen it with an 8; they did not
    assert declined(view(g, me))[1 - me] == {8: DECLINED_SMALL}
    g, _ = play(g, Move("2H", "trail"))
    g, _ = play(g, Move("3S", "trail"))
    expected = {8: DECLINED_STEAL, 10: DECLINED_CAPTURE, 2: DECLINED_CAPTURE}
    assert declined(view(g, me))[1 - me] == expected
