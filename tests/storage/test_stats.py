import random
from itertools import product

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from bot.domain import ratings as stats
from bot.engine import (
    PRESETS,
    STEAL,
    active,
    apply,
    legal_moves,
    new_game,
    preset,
    record,
    replay,
    to_dict,
)
from bot.engine.playout import play_out, random_game
from bot.engine.serialize import move_from_dict
from bot.storage import GameNotFound, WrongStatus
from tests.storage.play import finish as finish_game

from .helpers import SHARED, clear_win, find_game

START = (stats.START_MU, stats.START_SIGMA)


def shared_first(result):
    return len(result.ranking[0]) > 1


def shared_below(result):
    return len(result.ranking[0]) == 1 and any(len(p) > 1 for p in result.ranking[1:])


# --- the pure functions -----------------------------------------------------------------


def steals_from_states(rec):
    """Every steal's size, read from the victim's bundle before the move (not from events)."""
    game = replay({**rec, "moves": [], "playoffs": [], "result": None})
    found = [[] for _ in game.seats]
    for data in rec["moves"] + [m for p in rec["playoffs"] for m in p["moves"]]:
        seat, move, auto = move_from_dict(data)
        if move.action == STEAL:
            bundle = active(game).bundles[move.target_seat][move.target_bundle or 0]
            found[seat].append(len(bundle))
        game, _ = apply(game, move, seat=seat, auto=auto)
    return found


@settings(max_examples=30, deadline=None)
@given(
    seed=st.integers(0, 10**6),
    players=st.integers(2, 4),
    rules=st.sampled_from(sorted(PRESETS)),
)
def test_seat_stats_match_the_game(seed, players, rules):
    game = random_game(preset(rules), players, seed)
    got = stats.seat_stats(game)
    assert got == stats.seat_stats(record(game))  # from the game or its record, the same
    assert [s.cards for s in got] == list(game.result.bundle_sizes)
    for s, sizes in zip(got, steals_from_states(record(game)), strict=True):
        assert (s.steals, s.biggest_steal) == (len(sizes), max(sizes, default=0))
    if rules == "friendly":  # no stealing in these rules
        assert all(s.steals == 0 for s in got)


def test_some_games_do_have_steals():
    totals = [s.steals for seed in range(5) for s in stats.seat_stats(random_game(SHARED, 3, seed))]
    assert sum(totals) > 0


def test_places_follow_the_ranking_with_ties_and_forfeits_last():
    game = find_game(4, shared_first)
    ranking = game.result.ranking
    places = stats.places(game)
    for number, place in enumerate(ranking):
        assert all(places[s] == number for s in place)
    assert stats.winners(places) == tuple(sorted(ranking[0]))

    first = ranking[0][0]
    with_forfeit = stats.places(game, {first})
    assert with_forfeit[first] == max(with_forfeit)
    assert first not in stats.winners(with_forfeit, {first})
    assert stats.winners(stats.places(game, {0, 1, 2, 3}), {0, 1, 2, 3}) == ()


def test_an_unfinished_game_is_placed_by_bundle_size_only_when_someone_forfeits():
    game = new_game(preset("standard"), ["a", "b", "c"], seed=5)
    with pytest.raises(ValueError, match="not over"):
        stats.places(game)
    assert stats.places(game, {1}) == (0, 1, 0)  # a and c tie on empty bundles


def test_two_player_rating_winner_gains_what_the_loser_loses():
    (w_mu, w_sigma), (l_mu, l_sigma) = stats.rate([START, START], [0, 1])
    assert w_mu > stats.START_MU > l_mu
    assert w_mu - stats.START_MU == pytest.approx(stats.START_MU - l_mu)
    assert w_sigma < stats.START_SIGMA and l_sigma < stats.START_SIGMA
    (a_mu, _), (b_mu, _) = stats.rate([START, START], [0, 0])  # a shared win
    assert a_mu == pytest.approx(stats.START_MU) and a_mu == b_mu


def test_without_ties_the_rating_is_openskills_plackett_luce():
    ratings = [(30.0, 5.0), (25.0, 8.0), (20.0, 3.0), (27.0, 6.0)]
    rated = stats.MODEL.rate([[stats.MODEL.rating(*r)] for r in ratings], ranks=[3, 1, 4, 2])
    assert stats.rate(ratings, [2, 0, 3, 1]) == [(t[0].mu, t[0].sigma) for t in rated]


def all_places(players):
    """Every way `players` seats can finish (places numbered densely, seat 0 never below)."""
    found = set()
    for places in product(range(players), repeat=players):
        used = sorted(set(places))
        found.add(tuple(used.index(p) for p in places))
    return sorted(found)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_ratings_follow_the_places_and_ties_share_them(players):
    for places in all_places(players):
        new = stats.rate([START] * players, places)
        for a in range(players):
            for b in range(players):
                mu_a, mu_b = new[a][0], new[b][0]
                rating_a, rating_b = stats.display_rating(*new[a]), stats.display_rating(*new[b])
                if places[a] == places[b]:
                    assert (mu_a, rating_a) == pytest.approx((mu_b, rating_b)), places
                elif places[a] < places[b]:
                    assert mu_a > mu_b and rating_a > rating_b, places
        if len(set(places)) == 1:
            assert all(mu == pytest.approx(stats.START_MU) for mu, _ in new)


# --- stats in storage ---------------------------------------------------------------------


async def finish(storage, game, guild=1, **kwargs):
    row = await storage.games.create(
        guild, 1, game.seats[0], game.rules.to_dict(), state=to_dict(game)
    )
    return row.id, await finish_game(storage, row.id, game, **kwargs)


OUTCOMES = [
    (players, outcome)
    for players in (2, 3, 4)
    for outcome in (clear_win, shared_first, shared_below)
    if not (players == 2 and outcome is shared_below)  # two players cannot tie below first
]


@pytest.mark.parametrize(
    ("players", "outcome"), OUTCOMES, ids=[f"{p}-{o.__name__}" for p, o in OUTCOMES]
)
async def test_a_finished_game_updates_each_players_stats_and_rating(storage, players, outcome):
    game = find_game(players, outcome)
    _, done = await finish(storage, game, names={"p0": "Ann"})
    assert done is True
    places = stats.places(game)
    rated = stats.rate([START] * players, places)
    per_seat = stats.seat_stats(game)
    board = await storage.stats.leaderboard(1, limit=10)
    assert {s.player.user_id for s in board} == set(game.seats)
    for seat, user_id in enumerate(game.seats):
        p = await storage.stats.get(1, user_id)
        assert (p.games, p.wins) == (1, int(seat in game.result.winners))
        assert (p.cards, p.steals, p.biggest_steal) == (
            per_seat[seat].cards,
            per_seat[seat].steals,
            per_seat[seat].biggest_steal,
        )
        assert (p.mu, p.sigma) == pytest.approx(rated[seat])
        assert p.name == ("Ann" if user_id == "p0" else "")
    # Equal places, equal ratings; a better place, a better rating.
    by_seat = {s.player.user_id: s for s in board}
    for a in range(players):
        for b in range(players):
            ra, rb = by_seat[game.seats[a]].player.rating, by_seat[game.seats[b]].player.rating
            if places[a] == places[b]:
                assert ra == pytest.approx(rb)
            elif places[a] < places[b]:
                assert ra > rb
    assert [s.rank for s in board] == list(range(1, players + 1))


async def test_finishing_twice_counts_once(storage):
    game = find_game(3, clear_win)
    game_id, first = await finish(storage, game)
    second = await finish_game(storage, game_id, game)
    assert (first, second) == (True, False)
    assert [(await storage.stats.get(1, s)).games for s in game.seats] == [1, 1, 1]
    assert len(await storage.history.by_guild(1)) == 1
    assert (await storage.games.get(game_id)).status == "finished"
    assert await storage.games.live() == []


async def test_ai_seats_are_rated_from_the_start_and_never_stored(storage):
    game = find_game(3, clear_win, seats=("p0", "ai:medium:1", "ai:hard:1"))
    await finish(storage, game, unrated={"ai:medium:1", "ai:hard:1"})
    board = await storage.stats.leaderboard(1)
    assert [s.player.user_id for s in board] == ["p0"]
    rated = stats.rate([START] * 3, stats.places(game))
    p0 = await storage.stats.get(1, "p0")
    assert p0.games == 1 and (p0.mu, p0.sigma) == pytest.approx(rated[0])
    assert await storage.stats.get(1, "ai:medium:1") is None
    assert len(await storage.history.by_guild(1)) == 1


async def test_an_uncounted_game_is_history_only(storage):
    game = find_game(2, clear_win, seats=("p0", "ai:easy:1"))
    await finish(storage, game, counted=False, unrated={"ai:easy:1"})
    assert await storage.stats.leaderboard(1) == []
    assert [e.seats for e in await storage.history.by_guild(1)] == [("p0", "ai:easy:1")]


async def test_reset_starts_the_board_afresh_and_keeps_history_and_names(storage):
    game = find_game(3, clear_win)
    await finish(storage, game, names={"p0": "Ann"})
    assert await storage.stats.reset(1) == 3
    assert await storage.stats.leaderboard(1) == [] and await storage.stats.count(1) == 0
    p0 = await storage.stats.get(1, "p0")
    assert (p0.name, p0.games, p0.wins, p0.mu, p0.sigma) == ("Ann", 0, 0, *START)
    assert len(await storage.history.all(1)) == 1
    await finish(storage, game)  # the next game counts from the start
    assert (await storage.stats.get(1, "p0")).games == 1


async def test_finishing_requires_an_active_game_with_the_same_seats(storage):
    game = find_game(2, clear_win)
    lobby = await storage.games.create(1, 1, "p0", game.rules.to_dict(), ["p0", "p1"])
    with pytest.raises(WrongStatus):
        await finish_game(storage, lobby.id, game)
    with pytest.raises(GameNotFound):
        await finish_game(storage, 999, game)
    other = find_game(2, clear_win, seats=["x", "y"])
    # In another channel: the lobby holds channel 1.
    row = await storage.games.create(1, 2, "x", other.rules.to_dict(), state=to_dict(other))
    with pytest.raises(ValueError, match="seated"):
        await finish_game(storage, row.id, game)
    assert await storage.stats.count(1) == 0  # nothing was counted by the refused finishes


async def test_a_forfeiting_winner_ranks_last_and_does_not_win(storage):
    game = find_game(3, clear_win)
    winner = game.seats[game.result.winners[0]]
    await finish(storage, game, forfeited={winner})
    p = await storage.stats.get(1, winner)
    assert p.wins == 0
    assert await storage.stats.rank(1, winner) == 3
    entry = (await storage.history.by_guild(1))[0]
    assert entry.forfeited == (winner,) and winner not in entry.winners
    for user_id in entry.winners:  # the best of the others win instead
        assert (await storage.stats.get(1, user_id)).wins == 1


async def test_a_game_abandoned_by_a_forfeit_is_placed_by_bundle_size(storage):
    rng = random.Random(4)
    game = new_game(preset("standard"), ["a", "b", "c"], seed=4)
    for _ in range(12):
        game, _ = apply(game, rng.choice(legal_moves(game)))
    row = await storage.games.create(1, 1, "a", game.rules.to_dict(), state=to_dict(game))
    with pytest.raises(ValueError, match="not over"):
        await finish_game(storage, row.id, game)
    with pytest.raises(ValueError, match="zed did not play"):
        await finish_game(storage, row.id, game, forfeited={"zed"})
    assert await finish_game(storage, row.id, game, forfeited={"b"})
    entry = await storage.history.get(row.id)
    assert entry.record["result"] is None and entry.places[1] == max(entry.places)
    sizes = [game.bundle_size(s) for s in range(3)]
    for seat, user_id in enumerate(game.seats):
        p = await storage.stats.get(1, user_id)
        assert (p.games, p.cards) == (1, sizes[seat])
        assert p.wins == int(user_id in entry.winners)
    assert entry.winners and "b" not in entry.winners


POOL = ["u1", "u2", "u3", "u4", "u5", "u6"]
KEYS = {
    "rating": lambda p: (-p.rating, -p.wins, p.user_id),
    "wins": lambda p: (-p.wins, -p.rating, p.user_id),
    "cards": lambda p: (-p.cards, -p.rating, p.user_id),
    "win_rate": lambda p: (-p.win_rate, -p.games, -p.rating, p.user_id),
}


async def test_the_leaderboard_sorts_pages_and_ranks_with_a_stable_order(storage):
    rng = random.Random(11)
    for seed in range(25):
        seats = rng.sample(POOL, rng.randint(2, 4))
        rules = rng.choice([SHARED, preset("standard"), preset("classic")])
        game = play_out(new_game(rules, seats, seed=seed), random.Random(seed))
        await finish(storage, game, names={s: s.upper() for s in seats})
    # Another guild's games stay out of this guild's board.
    await finish(storage, play_out(new_game(SHARED, ["u1", "zz"], seed=1), random.Random(1)), 2)

    assert await storage.stats.count(1) == len(POOL)
    players = [await storage.stats.get(1, u) for u in POOL]
    assert sum(p.games for p in players) == sum(
        len(e.seats) for e in await storage.history.by_guild(1, 100)
    )
    for sort, key in KEYS.items():
        want = [p.user_id for p in sorted(players, key=key)]
        board = await storage.stats.leaderboard(1, sort, limit=len(POOL))
        assert [s.player.user_id for s in board] == want, sort
        assert [s.player.name for s in board] == [u.upper() for u in want]
        pages = [await storage.stats.leaderboard(1, sort, limit=4, offset=o) for o in (0, 4)]
        assert [s.player.user_id for page in pages for s in page] == want
        assert [s.rank for page in pages for s in page] == list(range(1, len(POOL) + 1))
        for rank, user_id in enumerate(want, start=1):
            assert await storage.stats.rank(1, user_id, sort) == rank
    assert await storage.stats.rank(1, "zz") is None
    assert await storage.stats.rank(2, "zz") in (1, 2)
    with pytest.raises(ValueError, match="unknown sort"):
        await storage.stats.leaderboard(1, "name; DROP TABLE players")


async def test_names_are_kept_for_players_who_left(storage):
    game = find_game(2, clear_win)
    await finish(storage, game, names={"p0": "Ann", "p1": "Bob"})
    await finish(storage, find_game(2, shared_first))  # same players, no names given
    assert await storage.stats.names(1, ["p0", "p1", "nobody"]) == {"p0": "Ann", "p1": "Bob"}
    await storage.stats.set_name(1, "p1", "Robert")
    await storage.stats.set_name(1, "p9", "Newcomer")  # seen, but no game yet: not on the board
    assert (await storage.stats.get(1, "p1")).name == "Robert"
    assert (await storage.stats.get(1, "p9")).games == 0
    assert await storage.stats.count(1) == 2


async def test_names_are_kept_per_guild(storage):
    game = find_game(2, clear_win)
    await finish(storage, game, guild=2, names={"p0": "Ann in B", "p1": "Bob in B"})
    await storage.stats.set_name(2, "p9", "Newcomer in B")
    assert await storage.stats.names(1, ["p0", "p1", "p9"]) == {}
    assert await storage.stats.get(1, "p9") is None
    await storage.stats.set_name(1, "p0", "Ann in A")
    assert await storage.stats.names(1, ["p0", "p1", "p9"]) == {"p0": "Ann in A"}
    assert await storage.stats.names(2, ["p0", "p1", "p9"]) == {
        "p0": "Ann in B",
        "p1": "Bob in B",
        "p9": "Newcomer in B",
    }
    await storage.stats.set_name(2, "p0", "Ann again in B")  # one guild's change stays there
    assert (await storage.stats.get(1, "p0")).name == "Ann in A"
    assert (await storage.stats.get(2, "p0")).name == "Ann again in B"
