from bot.engine import PRESETS, Rules, record, replay
from bot.engine.playout import random_game
from bot.ui.highlights import highlights


def all_events(game):
    events = []
    replay(record(game), events)
    return events[: len(game.moves)]


def test_biggest_and_most_steals_match_the_events():
    for seed in range(30):
        game = random_game(PRESETS["standard"], 3, seed)
        h = highlights(game)
        stole = [e for ev in all_events(game) for e in ev if e["type"] == "stole"]
        if not stole:
            assert h.biggest_steal is None and h.most_steals is None
            continue
        assert h.biggest_steal[2] == max(e["n"] for e in stole)
        counts = [sum(1 for e in stole if e["seat"] == s) for s in range(3)]
        seats, n = h.most_steals
        assert n == max(counts) and set(seats) == {s for s in range(3) if counts[s] == n}


def test_longest_top_is_a_card_that_topped_that_bundle():
    game = random_game(PRESETS["standard"], 2, 5)
    seat, card, turns = highlights(game).longest_top
    took = [e for ev in all_events(game) for e in ev if e["type"] in ("captured", "stole")]
    assert any(e["seat"] == seat and e["card"] == card for e in took)
    assert 0 < turns <= len(game.moves)


def test_friendly_games_have_no_steals_and_double_bundles_work():
    assert highlights(random_game(PRESETS["friendly"], 2, 1)).biggest_steal is None
    h = highlights(random_game(Rules(double_bundles=True), 4, 2))
    assert h.longest_top is not None
