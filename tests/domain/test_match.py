import dataclasses

import pytest

from bot.domain.match import (
    GameResult,
    Match,
    after_game,
    leaders,
    new_match,
    next_dealer,
    standings,
)


def result(sizes, places, forfeited=()):
    return GameResult(0, tuple(sizes), tuple(places), tuple(forfeited))


def played(m: Match, *results: GameResult) -> Match:
    for r in results:
        m = m.counted(r)
    return m


def test_new_match_checks_its_settings():
    assert new_match(1, "wins") is None
    assert new_match(3, "cards") == Match(3, "cards", number=1, results=())
    assert new_match(3, "cards").to_dict() == {
        "games": 3, "scoring": "cards", "number": 1, "results": []
    }  # fmt: skip
    with pytest.raises(ValueError):
        new_match(10, "wins")
    with pytest.raises(ValueError):
        new_match(3, "points")


def test_wins_and_cards_scoring():
    m = played(
        new_match(3, "wins"),
        result([30, 22], [0, 1]), result([20, 32], [1, 0]), result([26, 26], [0, 0]),
    )  # fmt: skip
    table = standings(m, 2)
    assert [(s.seat, s.wins, s.cards) for s in table] == [(0, 2, 76), (1, 2, 80)]
    assert leaders(m, 2) == (0, 1)
    m = dataclasses.replace(m, scoring="cards")
    assert leaders(m, 2) == (1,)
    assert after_game(m, 2, "shared") == ("over", (1,))


def test_a_forfeit_wins_nothing():
    m = played(new_match(2, "wins"), result([30, 22], [0, 1], forfeited=[0]))
    assert [s.wins for s in standings(m, 2)] == [0, 0]


def test_ties_follow_the_rules_tiebreak():
    m = played(new_match(2, "wins"), result([30, 22], [0, 1]), result([20, 32], [1, 0]))
    assert after_game(m, 2, "shared") == ("over", (0, 1))
    assert after_game(m, 2, "last_capturer") == ("over", (1,))  # best in the latest game
    assert after_game(m, 2, "playoff") == ("next", ())  # a deciding game
    m = played(m, *[result([26, 26], [0, 0])] * 3)
    assert after_game(m, 2, "playoff") == ("over", (0, 1))  # at most 3 deciding games


def test_more_games_to_play_and_the_dealer_moves_on():
    m = played(new_match(3, "cards"), result([30, 22], [0, 1]))
    assert after_game(m, 2, "shared") == ("next", ())
    assert [next_dealer(d, 3, 1) for d in range(3)] == [1, 2, 0]
    assert [next_dealer(d, 3, -1) for d in range(3)] == [2, 0, 1]
