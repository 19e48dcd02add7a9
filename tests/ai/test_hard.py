"""The hard policy: what it needs to run, its clock and its work, and a move it cannot miss."""

from __future__ import annotations

import random

import pytest

from bot.ai import Hard, get_policy
from bot.ai.knowledge import move_key
from bot.engine import PRESETS, RANK, active, legal_moves, new_game, view
from tests.support.games import positions


def test_hard_needs_a_budget_work_or_samples():
    with pytest.raises(ValueError):
        Hard(budget=None, work=None, samples=None)


class FakeClock:
    """A clock that moves on by `tick` seconds each time it is read, and counts the reads."""

    def __init__(self, tick: float) -> None:
        self.now = 1000.0
        self.tick = tick
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.tick
        return self.now


def opening_view():
    game = new_game(PRESETS["standard"], ["a", "b"], seed=3)
    return game, view(game, game.turn)


def test_hard_reads_its_clock_inside_the_playouts():
    # One read is one millisecond: a 50 ms budget runs out after about 50 reads. A playout
    # from the opening is 30-odd moves, so only a clock read before every move of a playout
    # stops it there (a check between playouts would let it play on to whole samples).
    game, v = opening_view()
    clock = FakeClock(0.001)
    hard = Hard(budget=0.050, clock=clock)
    move = hard.choose(v, random.Random(0))
    assert move in legal_moves(game)
    steps, samples = hard.last_work
    assert clock.reads <= 52
    assert steps < 50
    assert samples <= 1


def test_hard_out_of_time_before_one_sample_plays_mediums_move():
    for seed in range(5):
        game = new_game(PRESETS["standard"], ["a", "b"], seed=seed)
        v = view(game, game.turn)
        hard = Hard(budget=0.100, clock=FakeClock(0.2))  # past the deadline at the first read
        move = hard.choose(v, random.Random(seed))
        assert hard.last_work[1] == 0
        medium = get_policy("medium").choose(v, random.Random(seed))
        assert move_key(move) == move_key(medium)  # the same play (suits aside: ties)


def test_hard_keeps_to_its_work():
    _, v = opening_view()
    for work in (1, 300, 2000):
        hard = Hard(budget=None, work=work)
        hard.choose(v, random.Random(0))
        steps, samples = hard.last_work
        assert samples >= 1  # one whole sample, however little the work
        if work > 1:
            assert work <= steps < work + 60  # it stops after the playout that reaches it


def test_hard_on_fixed_work_is_deterministic_whatever_the_clock():
    positions_ = positions(PRESETS["standard"], 2, seed=6)[::5]
    for game in positions_:
        v = view(game, active(game).turn)
        slow = Hard(budget=None, work=600, clock=FakeClock(10.0))
        fast = Hard(budget=None, work=600)
        assert slow.choose(v, random.Random(7)) == fast.choose(v, random.Random(7))
        assert slow.last_work == fast.last_work


def test_hard_with_more_work_plays_more():
    _, v = opening_view()
    done = []
    for work in (500, 4000):
        hard = Hard(budget=None, work=work)
        hard.choose(v, random.Random(1))
        done.append(hard.last_work)
    assert done[1][0] > done[0][0] and done[1][1] > done[0][1]


def test_hard_takes_a_free_bundle():
    # Our 5 steals the opponent's 20-card bundle: no reason to do anything else.
    rules = PRESETS["standard"]
    game = new_game(rules, ["a", "b"], seed=9)
    g = game.copy()
    me = g.turn
    g.hands[me] = ["5S", "2H", "9D", "12C"]
    taken = set(g.hands[me])
    rest = [c for c in rules.card_deck.cards if c not in taken and c != "5H"]
    g.bundles[1 - me] = [[*rest[:19], "5H"]]
    g.pool = rest[19:23]
    g.hands[1 - me] = rest[23:27]
    g.stock = rest[27:]
    g.pool = [c for c in g.pool if RANK[c] != 5]
    move = Hard(budget=None, work=3000).choose(view(g, me), random.Random(0))
    assert move.action == "steal" and move.card == "5S"
