import pytest

from bot.domain.match import after_game, leaders, new_match, next_dealer, standings


def result(sizes, places, forfeited=()):
    return {"game_id": 0, "sizes": sizes, "places": places, "forfeited": list(forfeited)}


def test_new_match_checks_its_settings():
    assert new_match(1, "wins") is None
    assert new_match(3, "cards") == {"games": 3, "scoring": "cards", "number": 1, "results": []}
    with pytest.raises(ValueError):
        new_match(10, "wins")
    with pytest.raises(ValueError):
        new_match(3, "points")


def test_wins_and_cards_scoring():
    m = new_match(3, "wins")
    m["results"] = [result([30, 22], [0, 1]), result([20, 32], [1, 0]), result([26, 26], [0, 0])]
    table = standings(m, 2)
    assert [(s.seat, s.wins, s.cards) for s in table] == [(0, 2, 76), (1, 2, 80)]
    assert leaders(m, 2) == (0, 1)
    m["scoring"] = "cards"
    assert leaders(m, 2) == (1,)
    assert after_game(m, 2, "shared") == ("over", (1,))


def test_a_forfeit_wins_nothing():
    m = new_match(2, "wins")
    m["results"] = [result([30, 22], [0, 1], forfeited=[0])]
    assert [s.wins for s in standings(m, 2)] == [0, 0]


def test_ties_follow_the_rules_tiebreak():
    m = new_match(2, "wins")
    m["results"] = [result([30, 22], [0, 1]), result([20, 32], [1, 0])]
    assert after_game(m, 2, "shared") == ("over", (0, 1))
    assert after_game(m, 2, "last_capturer") == ("over", (1,))  # best in the latest game
    assert after_game(m, 2, "playoff") == ("next", ())  # a deciding game
    m["results"] += [result([26, 26], [0, 0])] * 3
    assert after_game(m, 2, "playoff") == ("over", (0, 1))  # at most 3 deciding games


def test_more_games_to_play_and_the_dealer_moves_on():
    m = new_match(3, "cards")
    m["results"] = [result([30, 22], [0, 1])]
    assert after_game(m, 2, "shared") == ("next", ())
    assert [next_dealer(d, 3, 1) for d in range(3)] == [1, 2, 0]
    assert [next_dealer(d, 3, -1) for d in range(3)] == [2, 0, 1]
