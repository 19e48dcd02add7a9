"""The tournament core's knockout: seeding, who goes through, ties, byes, drops and the
champion."""

from bot.domain.tournament import TableResult, champion, is_over, knockout_rounds, seat_knockout
from tests.support.tournaments import people, result, seated


def run_knockout(n, size, winner=min, seed=0):
    """Play a knockout where `winner` of each table's ids wins it (min: the best seed)."""
    entrants = people(n)
    played, byes, plans = [], [], []
    while (plan := seat_knockout(entrants, played, byes, (), size, seed)) is not None:
        plans.append(plan)
        round_ = []
        for t in plan.tables:
            first = winner(t, key=int)
            finish = [first, *sorted((w for w in t if w != first), key=int)]
            round_.append(result(t, finish))
        played.append(round_)
        byes.append(plan.byes)
        assert len(plans) < 20
    return entrants, plans, played, byes


def test_knockout_of_eight_at_tables_of_two():
    entrants, plans, played, byes = run_knockout(8, 2)
    assert len(plans) == knockout_rounds(8, 2) == 3
    first = plans[0]
    assert len(first.tables) == 4 and not first.byes
    # the four best seeds at four different tables, 1 with 8, 2 with 7, ...
    assert sorted(tuple(sorted(t, key=int)) for t in first.tables) == [
        ("0", "7"),
        ("1", "6"),
        ("2", "5"),
        ("3", "4"),
    ]
    assert sorted(seated(plans[1])) == ["0", "1", "2", "3"]
    assert sorted(map(sorted, plans[1].tables)) == [["0", "3"], ["1", "2"]]
    assert sorted(seated(plans[2])) == ["0", "1"]
    assert champion("knockout", entrants, played, byes, ()) == "0"
    assert is_over("knockout", 3, entrants, played, byes, ())
    assert not is_over("knockout", 3, entrants, played[:2], byes[:2], ())
    assert champion("knockout", entrants, played[:2], byes[:2], ()) is None


def test_knockout_of_eight_at_tables_of_four():
    entrants, plans, played, byes = run_knockout(8, 4, winner=max)
    assert len(plans) == knockout_rounds(8, 4) == 2
    assert sorted(map(sorted, plans[0].tables)) == [["0", "3", "4", "7"], ["1", "2", "5", "6"]]
    assert sorted(seated(plans[1])) == ["6", "7"]
    assert champion("knockout", entrants, played, byes, ()) == "7"


def test_knockout_ties_for_first_go_to_cards_then_seeding():
    entrants = people(4)
    plan = seat_knockout(entrants, [], [], (), 4, seed=0)
    assert plan is not None and len(plan.tables) == 1
    t = plan.tables[0]
    cards = {"0": 10, "1": 12, "2": 12, "3": 3}
    tie = TableResult(t, tuple(0 if w in "123" else 1 for w in t), tuple(cards[w] for w in t))
    assert champion("knockout", entrants, [[tie]], [()], ()) == "1"  # 1 and 2 on cards: seed
    # a winner who leaves is replaced by the next best at the table
    assert champion("knockout", entrants, [[tie]], [()], {"1"}) == "2"


def test_knockout_byes_go_to_the_best_seed_once():
    entrants, plans, played, byes = run_knockout(5, 2)
    assert [p.byes for p in plans] == [("0",), ("1",), ()]  # 0 had one already: then 1
    assert champion("knockout", entrants, played, byes, ()) == "0"


def test_knockout_drops_and_the_last_one_standing():
    entrants = people(4)
    plan = seat_knockout(entrants, [], [], {"1", "2", "3"}, 2, seed=0)
    assert plan is None
    assert champion("knockout", entrants, [], [], {"1", "2", "3"}) == "0"
    assert champion("knockout", entrants, [], [], {"0", "1", "2", "3"}) is None
    assert is_over("knockout", 2, entrants, [], [], {"0", "1", "2", "3"})
