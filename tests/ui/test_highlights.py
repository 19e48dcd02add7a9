from bot.engine import PRESETS, Rules, record, replay
from bot.engine.playout import random_game
from bot.ui.highlights import Highlights, Tally, highlights, highlights_of


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


def replayed_highlights(game):
    """The end screen's highlights as they were worked out before moves' events were kept:
    the whole game replayed, the main game's moves read in one pass."""
    events = all_events(game)
    biggest, steals, tops, longest = None, [0] * len(game.seats), {}, None

    def retire(key, ply):
        nonlocal longest
        if key in tops:
            card, since = tops.pop(key)
            if longest is None or ply - since > longest[2]:
                longest = (key[0], card, ply - since)

    for ply, move_events in enumerate(events):
        for e in move_events:
            if e["type"] not in ("captured", "stole"):
                continue
            mine = (e["seat"], e.get("own_bundle") or 0)
            retire(mine, ply)
            tops[mine] = (e["card"], ply)
            if e["type"] == "stole":
                retire((e["from_seat"], e.get("from_bundle") or 0), ply)
                steals[e["seat"]] += 1
                if biggest is None or e["n"] > biggest[2]:
                    biggest = (e["seat"], e["from_seat"], e["n"], e["card"])
    for key in list(tops):
        retire(key, len(events))
    most = max(steals)
    most_steals = (tuple(s for s, n in enumerate(steals) if n == most), most) if most else None
    return Highlights(biggest, most_steals, longest)


def test_highlights_from_each_moves_events_equal_the_replayed_ones():
    playoffs = 0
    for name in ("standard", *(p for p in PRESETS if p != "standard")):
        for players in (2, 3, 4):
            for seed in range(12):
                game = random_game(PRESETS[name], players, seed)
                playoffs += bool(game.playoffs)
                every = []  # every move's events, playoffs' too: as the presenter sees them
                replay(record(game), every)
                tally = Tally(players)
                for events in every:
                    tally.add(events)
                expected = replayed_highlights(game)
                assert highlights_of(every, players) == expected
                assert tally.result() == expected == highlights(game)
    assert playoffs  # the main game's moves are told from a playoff's
