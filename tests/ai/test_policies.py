"""The AI policies: they see only a View, always move legally, and are deterministic."""

from __future__ import annotations

import dataclasses
import inspect
import random
import time
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.ai import (
    DIFFICULTIES,
    POLICIES,
    Hard,
    NoMove,
    Unseen,
    determinize,
    get_policy,
    legal_moves_of,
)
from bot.ai.knowledge import (
    DECLINED_CAPTURE,
    DECLINED_SMALL,
    DECLINED_STEAL,
    MAX_RANK,
    deal_hidden,
    declined,
    move_key,
)
from bot.ai.medium import best_move_in_game, fast_move
from bot.ai.rollout import _playout_any, _playout_single
from bot.engine import (
    PRESETS,
    RANK,
    Game,
    Move,
    active,
    legal_moves,
    new_game,
    play,
    view,
)
from tests.support.games import positions, two_hands
from tests.support.strategies import any_rules

# The presets, and the options that change what moves exist.
RULESETS = {
    **PRESETS,
    "double": PRESETS["standard"].replace(double_bundles=True),
    "double_wild_forced": PRESETS["classic"].replace(double_bundles=True, wild_jacks=True),
    "wild_sweep": PRESETS["standard"].replace(wild_jacks=True, sweep_bonus=True),
    "sweep": PRESETS["standard"].replace(sweep_bonus=True),
}


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


def playoff_positions() -> list[Game]:
    out = []
    for name in ("classic", "casita"):
        for players in (2, 3, 4):
            for seed in range(400):
                pos = [g for g in positions(PRESETS[name], players, seed) if g.playoffs]
                if pos:
                    out += pos
                    break
    return out


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


SINGLE = [n for n in sorted(RULESETS) if not (RULESETS[n].wild_jacks or RULESETS[n].double_bundles)]


@pytest.mark.parametrize("name", SINGLE)
def test_the_single_bundle_playout_plays_as_the_listed_one(name):
    # Hard's playout that values moves as it lists them must make the very moves of the loop
    # that lists them with the engine and picks with fast_move: same score, same end state.
    for players in (2, 3, 4):
        for game in positions(RULESETS[name], players, seed=50 + players)[::4]:
            g = active(game)
            counts = [0] * MAX_RANK
            cards = [c for hand in g.hands for c in hand] + g.stock
            for c in cards:
                counts[RANK[c]] += 1
            for move in legal_moves(game)[:3]:
                fast, listed = g.copy(), g.copy()
                out = _playout_single(fast, move, counts[:], len(cards), g.turn, None, time.time)
                assert out == _playout_any(
                    listed, move, counts[:], len(cards), g.turn, None, time.time
                )
                assert fast == listed
