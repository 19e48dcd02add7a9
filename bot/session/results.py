"""A finished game's result as storage saves it (bot.domain.values.GameResult): places, winners,
per-seat stats and new ratings, worked out here so storage only saves."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from typing import Any

from bot.domain import ratings as stats
from bot.domain.values import GameResult, SeatResult
from bot.engine import Game, record
from bot.storage import StaleRatings, Storage

from .models import Standing

# Tries before giving up when other games of the same players keep finishing first.
RETRIES = 8
# People a game needs to count on the global ladder: a game against AI opponents alone would
# let anyone climb it by beating easy bots in a DM (docs/playing.md).
LADDER_PEOPLE = 2


def standing(game: Game, forfeited: Collection[int] = ()) -> Standing:
    """Each seat's place and the winners: forfeited seats share the last place and cannot win.
    A game that is not over can be settled by forfeits."""
    places = stats.places(game, forfeited)
    return Standing(places, stats.winners(places, forfeited))


def game_result(
    game: Game,
    ratings: Mapping[str, tuple[float, float]],
    *,
    placed: Standing | None = None,
    names: Mapping[str, str] | None = None,
    forfeited: Collection[str] = (),
    counted: bool = True,
    unrated: Collection[str] = (),
    ladder: Mapping[str, tuple[float, float]] | None = None,
) -> GameResult:
    """The result of `game` from its players' current `ratings`. Players in `forfeited`
    share the last place and cannot win; seats in `unrated` (AI opponents) are rated from the
    start and never stored. A game that is not over can be settled by forfeits. `placed`:
    the game's standing, if worked out already (`standing`). `ladder`: the people's global
    ratings; a counted game of at least LADDER_PEOPLE people is rated there too."""
    unknown = {str(p) for p in forfeited} - set(game.seats)
    if unknown:
        raise ValueError(f"{', '.join(sorted(unknown))} did not play in this game")
    out = {game.seats.index(str(p)) for p in forfeited}
    placed = placed or standing(game, out)
    places, won = placed.places, set(placed.winners)
    per_seat = stats.seat_stats(game)
    start = (stats.START_MU, stats.START_SIGMA)
    before = [start if s in unrated else ratings.get(s, start) for s in game.seats]
    after = stats.rate(before, places)
    people = [s for s in game.seats if s not in unrated]
    on_ladder = ladder is not None and counted and len(people) >= LADDER_PEOPLE
    g_before = [start if s in unrated else (ladder or {}).get(s, start) for s in game.seats]
    g_after = stats.rate(g_before, places) if on_ladder else g_before
    seats = tuple(
        SeatResult(
            user_id=user_id, place=places[i], won=i in won, cards=per_seat[i].cards,
            steals=per_seat[i].steals, biggest_steal=per_seat[i].biggest_steal,
            rated=user_id not in unrated, before=before[i], after=after[i],
            captures=per_seat[i].captures,
            global_before=g_before[i] if on_ladder and user_id not in unrated else None,
            global_after=g_after[i] if on_ladder and user_id not in unrated else None,
        )
        for i, user_id in enumerate(game.seats)
    )  # fmt: skip
    return GameResult(
        seats=seats,
        forfeited=tuple(game.seats[s] for s in sorted(out)),
        record=dict(record(game)),
        counted=counted,
        names=dict(names or {}),
    )


async def finish(
    storage: Storage,
    game_id: int,
    board_id: int,
    game: Game,
    *,
    serverless: bool = False,
    then: tuple[Mapping[str, Any], float | None, Mapping[str, Any] | None] | None = None,
    owed: Sequence[tuple[str, Mapping[str, Any]]] = (),
    on_retry: Callable[[], None] = lambda: None,
    **details: Any,
) -> int | None:
    """Save the finished game (and, given `then` = (state, deadline, options), its match's
    next game). Ratings are read, worked out and saved; if another finish changed them
    meanwhile (StaleRatings), again. Returns None if the game was finished already; else
    the next game's id, or 0 without one. `board_id`: the board it counts on
    (Place.board_id: the server's id, or the channel's with `serverless`, a game outside a
    server). `details`: game_result's keywords."""
    where = {"board_id": board_id, "guild_id": None if serverless else board_id}
    people = [s for s in game.seats if s not in details.get("unrated", ())]
    for attempt in range(RETRIES):
        ratings = await storage.stats.ratings(board_id, game.seats)
        ladder = await storage.ladder.ratings(people)
        result = game_result(game, ratings, ladder=ladder, **details)
        try:
            if then is None:
                done = await storage.games.finish(game_id, result, owed=owed, **where)
                return 0 if done else None
            state, deadline, options = then
            return await storage.games.finish_then(
                game_id, result, state, deadline=deadline, options=options, owed=owed, **where
            )
        except StaleRatings:
            on_retry()  # counted (bot/metrics.py Instruments)
            if attempt == RETRIES - 1:
                raise
    raise AssertionError("unreachable")  # the loop returns or raises
