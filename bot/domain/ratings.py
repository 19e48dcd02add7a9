"""What one finished game adds to its players' stats. Pure: no storage, no Discord."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import dataclass
from itertools import chain, permutations, product
from math import sqrt
from typing import Any

from openskill.models import PlackettLuce

from bot.domain.values import (
    RATING_BASE as RATING_BASE,  # their home is bot.domain.values: storage sorts on it
)
from bot.domain.values import RATING_SCALE as RATING_SCALE
from bot.domain.values import RatedGame
from bot.domain.values import display_rating as display_rating
from bot.domain.values import ordinal as ordinal
from bot.engine import RANK, Game, apply, record, replay
from bot.engine.serialize import move_from_dict

MODEL = PlackettLuce()  # openskill's defaults: mu 25, sigma 25/3
START_MU, START_SIGMA = MODEL.mu, MODEL.sigma

# ----- a new season's soft reset (docs/rules.md#seasons)

# How much of a player's lead over (or gap below) the start mu a new season keeps: three
# quarters. Half cost a strong player most of a season to win back (tests/domain/test_ratings.py).
SEASON_KEEP = 0.75
# The uncertainty a new season adds, in quadrature: half the start sigma.
SEASON_SIGMA_GROWTH = START_SIGMA / 2


def soft_reset(mu: float, sigma: float) -> tuple[float, float]:
    """A player's (mu, sigma) for a new season, from the last one's.

    mu' = START_MU + SEASON_KEEP x (mu - START_MU): a quarter of the way back to the start, so a
    season is a fresh race in which a strong player still starts ahead.
    sigma' = min(START_SIGMA, sqrt(sigma^2 + SEASON_SIGMA_GROWTH^2)): more uncertain, never more
    than a newcomer. A larger sigma makes each game move the rating further (openskill's
    updates grow with sigma), so a returning player climbs back to their old place in a few
    games, while a newcomer still has to earn every point. The displayed rating (mu - 3 sigma)
    drops for everyone who played, most for the players whose rating was furthest from the
    start; a newcomer's start (25, 25/3) is left as it is.
    """
    return (
        START_MU + SEASON_KEEP * (mu - START_MU),
        min(START_SIGMA, sqrt(sigma * sigma + SEASON_SIGMA_GROWTH * SEASON_SIGMA_GROWTH)),
    )


@dataclass(frozen=True)
class SeatStats:
    cards: int  # the seat's final bundle size
    steals: int
    biggest_steal: int  # the most cards taken in one steal; 0 if none
    captures: tuple[tuple[int, int], ...] = ()  # (rank, captures made with it), by rank


def seat_stats(game: Game | dict[str, Any]) -> tuple[SeatStats, ...]:
    """Cards, steals, biggest steal and captures by rank of every seat, from a game or its
    record.

    Steals and captures are read from the events of a replay, playoffs included; cards are
    the final bundle sizes of the game itself (the totals that decided it).
    """
    rec = game if isinstance(game, dict) else record(game)
    # Replaying the record with no moves gives the deal; then every move, for its events.
    g = replay({**rec, "moves": [], "playoffs": [], "result": None})
    steals: list[list[int]] = [[] for _ in g.seats]
    captures: list[dict[int, int]] = [{} for _ in g.seats]
    moves = list(rec["moves"]) + [m for p in rec["playoffs"] for m in p["moves"]]
    for data in moves:
        seat, move, auto = move_from_dict(data)
        g, events = apply(g, move, seat=seat, auto=auto)
        for event in events:
            if event["type"] == "stole":
                steals[event["seat"]].append(event["n"])
            elif event["type"] == "captured":
                mine, rank = captures[event["seat"]], RANK[event["card"]]
                mine[rank] = mine.get(rank, 0) + 1
    if g.result is not None:
        sizes = g.result.bundle_sizes
    else:
        sizes = tuple(g.bundle_size(s) for s in range(len(g.seats)))
    return tuple(
        SeatStats(sizes[s], len(st), max(st, default=0), tuple(sorted(captures[s].items())))
        for s, st in enumerate(steals)
    )


def places(game: Game, forfeited: Collection[int] = ()) -> tuple[int, ...]:
    """Each seat's place, 0 = first; seats that share a place get the same number.

    Forfeited seats share the last place. A game that is not over can only be settled by
    forfeits; the others are then placed by bundle size.
    """
    out = set(forfeited)
    if game.result is not None:
        ranking = game.result.ranking
    elif out:
        sizes = [game.bundle_size(s) for s in range(len(game.seats))]
        ranking = tuple(
            tuple(s for s in range(len(sizes)) if sizes[s] == size)
            for size in sorted(set(sizes), reverse=True)
        )
    else:
        raise ValueError("the game is not over, and nobody forfeited")
    groups = [kept for place in ranking if (kept := tuple(s for s in place if s not in out))]
    if out:
        groups.append(tuple(sorted(out)))
    result = [0] * len(game.seats)
    for number, group in enumerate(groups):
        for seat in group:
            result[seat] = number
    return tuple(result)


def winners(seat_places: Sequence[int], forfeited: Collection[int] = ()) -> tuple[int, ...]:
    """The seats in first place; nobody wins by forfeiting (even if everyone did)."""
    return tuple(s for s, p in enumerate(seat_places) if p == 0 and s not in forfeited)


def rate(
    ratings: Sequence[tuple[float, float]], seat_places: Sequence[int]
) -> list[tuple[float, float]]:
    """New (mu, sigma) per seat after a game: Plackett-Luce, each player a one-member team.

    Ties are rated as every order of the tied players, equally likely: the average of the
    strict-rank updates. Passing equal ranks to openskill 6 instead misrates them (players who
    share a win can end below the runner-up: openskill.py issues #155 and #176).
    """
    n = len(ratings)
    groups = [[s for s in range(n) if seat_places[s] == p] for p in sorted(set(seat_places))]
    total = [[0.0, 0.0] for _ in range(n)]
    orders = list(product(*(permutations(g) for g in groups)))
    for order in orders:
        ranks: list[float] = [0] * n  # openskill annotates ranks as floats; ints do the same
        for rank, seat in enumerate(chain.from_iterable(order), start=1):
            ranks[seat] = rank
        rated = MODEL.rate([[MODEL.rating(mu, sigma)] for mu, sigma in ratings], ranks=ranks)
        for seat, team in enumerate(rated):
            total[seat][0] += team[0].mu
            total[seat][1] += team[0].sigma
    return [(mu / len(orders), sigma / len(orders)) for mu, sigma in total]


# ----- figures for a player's stats card


TREND_GAMES = 10  # the rating trend covers this many of the player's last counted games
FAVOURITE_GAMES = 50  # the favourite capture is read from the player's last counted games


@dataclass(frozen=True)
class Figures:
    """What the stats card shows beyond the stored totals, from the player's last counted
    games as storage keeps them (`figures`)."""

    trend: tuple[int, ...]  # displayed ratings: before the last games, then after each
    favourite: tuple[str, int, int] | None  # (deck, rank, captures) the player captures most


def figures(games: Sequence[RatedGame], current: int, deck: str) -> Figures:
    """The card's figures from a player's last counted games (newest first, at least their
    last TREND_GAMES): the trend ends at `current`, the stored rating (rows worked out from
    the history after an upgrade may differ from it); the favourite capture is named in the
    server's `deck`."""
    last = list(reversed(games[:TREND_GAMES]))
    if last:
        line = [display_rating(*last[0].before), *(display_rating(*g.after) for g in last)]
        shift = current - line[-1]
        trend = tuple(max(0, r + shift) for r in line)
    else:
        trend = (current,)
    totals: dict[int, int] = {}
    for game in games[:FAVOURITE_GAMES]:
        for rank, n in game.captures:
            totals[rank] = totals.get(rank, 0) + n
    favourite = None
    if totals:
        rank, n = max(totals.items(), key=lambda kv: (kv[1], kv[0]))
        favourite = (deck, rank, n)
    return Figures(trend, favourite)


def replayed_games(
    games: Sequence[tuple[int, Sequence[str], Sequence[int], dict[str, Any]]],
    totals: Mapping[str, int],
    is_ai: Callable[[str], bool],
) -> dict[str, list[RatedGame]]:
    """What storage's rated_games would hold, worked out from a guild's counted games
    ((game id, seats, places, record), oldest first), for a database that had finished games before
    it kept them: the ratings replayed as `rating_trend` does, the captures from each record.
    Each player keeps their last FAVOURITE_GAMES of their `totals[user]` counted games (the
    games since any board reset), numbered up to that total."""
    ratings: dict[str, tuple[float, float]] = {}
    start = (START_MU, START_SIGMA)
    played: dict[str, list[tuple[int, tuple[float, float], tuple[float, float]]]] = {}
    for i, (_id, seats, seat_places, _rec) in enumerate(games):
        before = [start if is_ai(u) else ratings.get(u, start) for u in seats]
        for user, old, new in zip(seats, before, rate(before, seat_places), strict=True):
            if not is_ai(user):
                ratings[user] = new
                played.setdefault(user, []).append((i, old, new))
    kept = {u: g[-min(FAVOURITE_GAMES, totals.get(u, 0)) :] for u, g in played.items()}
    kept = {u: g for u, g in kept.items() if totals.get(u, 0) > 0}
    captures: dict[int, tuple[SeatStats, ...]] = {}
    for i in sorted({i for g in kept.values() for i, _, _ in g}):
        captures[i] = seat_stats(games[i][3])
    out: dict[str, list[RatedGame]] = {}
    for user, mine in kept.items():
        first = totals[user] - len(mine) + 1
        out[user] = [
            RatedGame(
                first + k, games[i][0], old, new,
                captures[i][list(games[i][1]).index(user)].captures,
            )
            for k, (i, old, new) in enumerate(mine)
        ]  # fmt: skip
    return out


# ----- the same figures replayed from the history (how the card worked them out before
# storage kept rated_games): what the upgrade's rows equal, kept for the tests and bench/stats.py


def rating_trend(
    games: Sequence[tuple[Sequence[str], Sequence[int]]],
    user_id: str,
    counted: int,
    current: int,
    is_ai: Callable[[str], bool],
) -> tuple[int, ...]:
    """The player's displayed rating before and after each of their last TREND_GAMES counted
    games. `games`: (seats, places) of the counted games, oldest first, rated as storage does
    (AI seats from the start each game). Only the player's last `counted` games are theirs
    since any leaderboard reset; the line ends at `current`, the stored rating, so a reset
    or a change of which games count shifts the earlier points, never the latest."""
    ratings: dict[str, tuple[float, float]] = {}
    start = (START_MU, START_SIGMA)
    mine: list[int] = []
    for seats, seat_places in games:
        before = [start if is_ai(u) else ratings.get(u, start) for u in seats]
        if user_id in seats and not mine:
            mine.append(display_rating(*ratings.get(user_id, start)))
        for user, after in zip(seats, rate(before, seat_places), strict=True):
            if not is_ai(user):
                ratings[user] = after
        if user_id in seats:
            mine.append(display_rating(*ratings[user_id]))
    if len(mine) > counted + 1:  # older games came before a leaderboard reset: left out
        mine = mine[-(counted + 1) :]
    trend = mine[-(TREND_GAMES + 1) :]
    if not trend:
        return (current,)
    shift = current - trend[-1]
    return tuple(max(0, r + shift) for r in trend)


def captures_by_rank(rec: dict[str, Any], seat: int) -> dict[int, int]:
    """How many captures `seat` made with each rank in a game record (playoffs included)."""
    g = replay({**rec, "moves": [], "playoffs": [], "result": None})
    found: dict[int, int] = {}
    moves = list(rec["moves"]) + [m for p in rec["playoffs"] for m in p["moves"]]
    for data in moves:
        who, move, auto = move_from_dict(data)
        g, events = apply(g, move, seat=who, auto=auto)
        for event in events:
            if event["type"] == "captured" and event["seat"] == seat:
                rank = RANK[event["card"]]
                found[rank] = found.get(rank, 0) + 1
    return found


def favourite_capture(
    records: Sequence[tuple[dict[str, Any], int]],
) -> tuple[str, int, int] | None:
    """(deck, rank, captures) of the rank a player captured with most in these (record,
    seat) games; ties go to the higher rank. None if they never captured."""
    totals: dict[tuple[str, int], int] = {}
    for rec, seat in records:
        deck = rec["rules"].get("deck", "french52")
        for rank, n in captures_by_rank(rec, seat).items():
            totals[deck, rank] = totals.get((deck, rank), 0) + n
    if not totals:
        return None
    (deck, rank), n = max(totals.items(), key=lambda kv: (kv[1], kv[0][1]))
    return deck, rank, n
