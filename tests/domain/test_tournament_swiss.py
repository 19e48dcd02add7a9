"""The tournament core's Swiss: seating by rating then points, repeat pairs, byes, drops,
the standings and how a Swiss ends."""

import random
from collections import Counter
from itertools import combinations

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain.tournament import (
    TableResult,
    champion,
    is_over,
    repeat_pairs,
    seat_swiss,
    standings,
)
from tests.support.tournaments import people, result, seated


def random_results(plan, rng, ties=False):
    out = []
    for table in plan.tables:
        if ties:
            places = tuple(rng.randrange(len(table)) for _ in table)
            low = sorted(set(places))
            places = tuple(low.index(p) for p in places)
        else:
            finish = list(table)
            rng.shuffle(finish)
            places = tuple(finish.index(w) for w in table)
        out.append(TableResult(table, places, tuple(rng.randrange(30) for _ in table)))
    return out


def play_swiss(entrants, size, rounds, seed, dropped_at=None, ties=False):
    """Play `rounds` Swiss rounds with random results; dropped_at: {round: ids leaving after it}."""
    rng = random.Random(seed)
    played, byes, dropped, plans = [], [], set(), []
    for number in range(1, rounds + 1):
        plan = seat_swiss(entrants, played, byes, dropped, size, seed)
        plans.append(plan)
        played.append(random_results(plan, rng, ties))
        byes.append(plan.byes)
        dropped |= set((dropped_at or {}).get(number, ()))
    return plans, played, byes, dropped


# --- Swiss ---------------------------------------------------------------------------------


def test_round_one_is_seated_by_rating_and_round_two_by_points():
    entrants = people(16)
    first = seat_swiss(entrants, [], [], (), 4, seed=1)
    assert first.number == 1 and not first.byes
    assert [set(t) for t in first.tables] == [{str(i + j) for j in range(4)} for i in (0, 4, 8, 12)]
    # the weakest at each table wins: points come before rating
    played = [[result(t, sorted(t, key=int, reverse=True)) for t in first.tables]]
    second = seat_swiss(entrants, played, [()], (), 4, seed=1)
    assert second.number == 2
    assert set(second.tables[0]) == {"3", "7", "11", "15"}  # the four winners
    assert set(second.tables[-1]) == {"0", "4", "8", "12"}  # the four lasts
    assert repeat_pairs(second.tables, played) == 0


@settings(max_examples=40, deadline=None)
@given(seed=st.integers(0, 10**6), ties=st.booleans(), rated=st.booleans())
def test_sixteen_at_tables_of_four_never_meet_twice_in_three_rounds(seed, ties, rated):
    plans, _played, _, _ = play_swiss(people(16, rated), 4, 3, seed, ties=ties)
    pairs = Counter(
        pair for plan in plans for t in plan.tables for pair in combinations(sorted(t), 2)
    )
    assert pairs and max(pairs.values()) == 1
    assert all(len(t) == 4 for plan in plans for t in plan.tables)


def test_eight_at_tables_of_two_never_meet_twice_in_three_rounds():
    for seed in range(30):
        plans, _, _, _ = play_swiss(people(8), 2, 3, seed)
        pairs = Counter(tuple(sorted(t)) for plan in plans for t in plan.tables)
        assert max(pairs.values()) == 1, seed


@settings(max_examples=60, deadline=None)
@given(
    n=st.integers(2, 24),
    size=st.integers(2, 4),
    rounds=st.integers(1, 6),
    seed=st.integers(0, 10**6),
)
def test_seating_repeats_no_more_than_plain_slicing(n, size, rounds, seed):
    """Never more repeat pairs than seating the standings in order, and none while a fresh
    table is plainly possible (round 1, or everyone can still meet someone new)."""
    entrants = people(n)
    rng = random.Random(seed)
    played, byes = [], []
    for _ in range(rounds):
        plan = seat_swiss(entrants, played, byes, (), size, seed)
        got = {r.entrant: r.points for r in standings(entrants, played, byes, ())}
        rating = {e.id: e.rating for e in entrants}
        ranked = sorted(got, key=lambda w: (-got[w], -rating[w]))  # ratings all differ
        plain = [w for w in ranked if w not in plan.byes]
        at, baseline = 0, []
        for t in plan.tables:
            baseline.append(plain[at : at + len(t)])
            at += len(t)
        assert sorted(seated(plan)) == sorted(plain)
        assert repeat_pairs(plan.tables, played) <= repeat_pairs(baseline, played)
        if not played:
            assert repeat_pairs(plan.tables, played) == 0
        played.append(random_results(plan, rng))
        byes.append(plan.byes)


@settings(max_examples=30, deadline=None)
@given(n=st.integers(1, 21), rounds=st.integers(1, 12), seed=st.integers(0, 10**6))
def test_byes_are_spread_fairly(n, rounds, seed):
    """Tables of 2 and an odd count: one bye a round, never a second while someone has none."""
    entrants = people(n)
    rng = random.Random(seed)
    played, byes = [], []
    had = Counter()
    for _ in range(rounds):
        plan = seat_swiss(entrants, played, byes, (), 2, seed)
        assert len(plan.byes) == n % 2
        for who in plan.byes:
            assert had[who] == min(had[e.id] for e in entrants)
            had[who] += 1
        everyone = seated(plan) + list(plan.byes)
        assert sorted(everyone) == sorted(e.id for e in entrants)
        played.append(random_results(plan, rng))
        byes.append(plan.byes)
    assert max(had[e.id] for e in entrants) - min(had[e.id] for e in entrants) <= 1


def test_no_byes_when_tables_of_three_or_four_can_seat_everyone():
    for n in range(2, 40):
        for size in (3, 4):
            plan = seat_swiss(people(n), [], [], (), size, seed=n)
            assert not plan.byes and len(seated(plan)) == n


def test_the_lowest_ranked_sits_out():
    entrants = people(5)
    plan = seat_swiss(entrants, [], [], (), 2, seed=3)
    assert plan.byes == ("4",)  # nobody has points yet: the lowest rating


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 10**6), size=st.integers(2, 4))
def test_dropped_entrants_are_never_seated(seed, size):
    entrants = people(12)
    leaving = {1: ["3"], 2: ["0", "11"], 3: ["7"]}
    plans, _, _byes, dropped = play_swiss(entrants, size, 5, seed, dropped_at=leaving)
    gone: set[str] = set()
    for number, plan in enumerate(plans, 1):
        assert not gone & set(seated(plan) + list(plan.byes))
        gone |= set(leaving.get(number, ()))
    rows = standings(entrants, [], [], dropped)
    assert {r.entrant for r in rows if r.dropped} == {"3", "0", "11", "7"}


def test_seating_is_deterministic_from_the_seed():
    entrants = people(20, rated=False)
    a = seat_swiss(entrants, [], [], (), 4, seed=42)
    assert a == seat_swiss(entrants, [], [], (), 4, seed=42)
    assert any(seat_swiss(entrants, [], [], (), 4, seed=s) != a for s in range(5))


# --- standings -----------------------------------------------------------------------------


def test_standings_points_then_opponents_then_cards():
    entrants = people(6)
    round1 = [
        result(("0", "1", "2"), ["0", "1", "2"], cards=(20, 10, 6)),
        result(("3", "4", "5"), ["3", "4", "5"], cards=(18, 12, 6)),
    ]
    round2 = [
        result(("0", "4", "2"), ["4", "0", "2"], cards=(10, 25, 1)),
        result(("3", "1", "5"), ["1", "3", "5"], cards=(14, 16, 6)),
    ]
    rows = standings(entrants, [round1, round2], [(), ()], ())
    by = {r.entrant: r for r in rows}
    assert {w: by[w].points for w in by} == {"0": 9, "1": 9, "3": 9, "4": 9, "2": 0, "5": 0}
    # opponents' points: per table, the mean of the tablemates' points
    assert by["0"].opponents == (9 + 0) / 2 + (9 + 0) / 2
    assert by["2"].opponents == (9 + 9) / 2 + (9 + 9) / 2
    assert all(r.played == 2 and r.byes == 0 and not r.dropped for r in rows)
    # all four on 9 with opponents 9: cards decide - 4 took 37, 0 took 30, 1 took 26, 3 took 32
    assert [r.entrant for r in rows[:4]] == ["4", "3", "0", "1"]
    assert [r.rank for r in rows] == [1, 2, 3, 4, 5, 6]
    last = rows[4:]
    assert {r.entrant for r in last} == {"2", "5"}
    assert by["2"].cards == 7 and by["5"].cards == 12
    assert [r.entrant for r in last] == ["5", "2"] and [r.rank for r in last] == [5, 6]


def test_equal_rows_share_a_rank_and_byes_count():
    entrants = people(3)
    round1 = [TableResult(("0", "1"), (0, 0), (13, 13))]
    rows = standings(entrants, [round1], [("2",)], ())
    # 2's bye: the same points but no opponents' points: 0 and 1 share the first rank
    assert [(r.entrant, r.rank, r.points) for r in rows] == [("0", 1, 3), ("1", 1, 3), ("2", 3, 3)]
    rows = standings(entrants, [[TableResult(("0", "1"), (0, 0), (13, 13))]], [("2",)], {"1"})
    assert rows[-1].entrant == "2" and rows[-1].byes == 1 and rows[-1].played == 0
    assert rows[1].dropped and rows[1].rank == 1


# --- the end of a Swiss --------------------------------------------------------------------


def test_swiss_champion_after_the_last_round():
    entrants = people(8)
    _plans, played, byes, _ = play_swiss(entrants, 4, 3, seed=5)
    assert not is_over("swiss", 3, entrants, played[:2], byes[:2], ())
    assert champion("swiss", entrants, played[:2], byes[:2], (), planned_rounds=3) is None
    assert is_over("swiss", 3, entrants, played, byes, ())
    top = standings(entrants, played, byes, ())[0].entrant
    assert champion("swiss", entrants, played, byes, ()) == top
    # a top player who left is not the champion
    second = standings(entrants, played, byes, {top})[1].entrant
    assert champion("swiss", entrants, played, byes, {top}) == second


def test_swiss_ends_early_when_one_is_left():
    entrants = people(3)
    assert is_over("swiss", 5, entrants, [], [], {"1", "2"})
    assert champion("swiss", entrants, [], [], {"1", "2"}) == "0"
    assert not is_over("swiss", 5, entrants, [], [], ())
