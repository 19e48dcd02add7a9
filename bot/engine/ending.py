"""The end of a game: leftovers, standings, tie-breaks and playoffs."""

from __future__ import annotations

from typing import Final

from .events import Events, GameEnded
from .game import Game, Result, Tiebreak, shuffled_deck, start

MAX_PLAYOFFS: Final = 3


def finish(g: Game, events: Events | None) -> None:
    """Settle a game (or playoff) whose hands and stock have run out."""
    g.turn = None
    if g.redeal and g.rules.leftovers == "last_capturer" and g.pool:
        to = g.last_capturer
        if to is not None:
            # Under the bundle, so its top card stays the last one played.
            g.bundles[to][0][:0] = g.pool
            g.award = (to, len(g.pool))
            g.pool = []
            if events is not None:
                events.append({"type": "leftovers_awarded", "seat": to, "n": g.award[1]})
    # Every random playout ends here: a comprehension costs a call in 3.11, a generator more.
    sizes = tuple([sum(map(len, seat)) for seat in g.bundles])
    best = max([sizes[s] for s in g.players])
    tied = tuple([s for s in g.players if sizes[s] == best])
    if not g.redeal:  # a playoff: the game above settles its own tie
        g.result = _standings(g, sizes, tied, tied, None)
        return
    winners: tuple[int, ...]
    how: Tiebreak | None
    if len(tied) == 1:
        winners, how = tied, None
    elif g.rules.tiebreak == "last_capturer":
        latest = max(g.last_capture[s] for s in tied)
        if latest >= 0:
            winners, how = (g.last_capture.index(latest),), "last_capturer"
        else:  # none of them ever captured: nothing to break the tie with
            winners, how = tied, "shared"
    elif g.rules.tiebreak == "playoff":
        _start_playoff(g, tied, events)
        return
    else:
        winners, how = tied, "shared"
    _conclude(g, sizes, tied, winners, how, events)


def after_playoff(g: Game, events: Events | None) -> None:
    """A playoff just ended: declare the winner, play another playoff, or share the win."""
    last = g.playoffs[-1].result
    assert last is not None  # only called once the playoff has its result
    leaders = last.winners
    how: Tiebreak
    if len(leaders) == 1:
        how = "playoff"
    elif len(g.playoffs) < MAX_PLAYOFFS:
        _start_playoff(g, leaders, events)
        return
    else:
        how = "shared"
    sizes = tuple(g.bundle_size(s) for s in range(len(g.seats)))
    _conclude(g, sizes, g.playoffs[0].players, leaders, how, events)


def _conclude(
    g: Game,
    sizes: tuple[int, ...],
    tied: tuple[int, ...],
    winners: tuple[int, ...],
    how: Tiebreak | None,
    events: Events | None,
) -> None:
    g.turn = None
    g.result = _standings(g, sizes, tied, winners, how)
    if events is not None:  # random playouts pass None: nobody reads their events
        ended: GameEnded = {"type": "game_over", **g.result.to_dict()}
        events.append(ended)


def _standings(
    g: Game,
    sizes: tuple[int, ...],
    tied: tuple[int, ...],
    winners: tuple[int, ...],
    how: Tiebreak | None,
) -> Result:
    places = [tuple(winners)]
    losers = [s for s in tied if s not in winners]
    if how == "last_capturer":  # the tie-break orders every tied player, not just the first
        losers.sort(key=lambda s: -g.last_capture[s])
        places += [(s,) for s in losers]
    elif losers:
        places.append(tuple(losers))
    below = sorted({sizes[s] for s in g.players if s not in tied}, reverse=True)
    places += [tuple(s for s in g.players if sizes[s] == size) for size in below]
    return Result(sizes, tuple(winners), tuple(places), how, *g.award)


def _start_playoff(g: Game, tied: tuple[int, ...], events: Events | None) -> None:
    number = len(g.playoffs) + 1
    deck = shuffled_deck(g.rules, playoff_seed(g, number))
    g.playoffs.append(start(g.rules, g.seats, g.dealer, None, tied, False, deck))
    if events is not None:
        events.append({"type": "playoff_started", "number": number, "seats": list(tied)})


def playoff_seed(g: Game, number: int) -> str:
    """A playoff's shuffle follows from the game's seed (or its deal), so records replay."""
    if g.seed is not None:
        base = str(g.seed)
    else:
        hands, pool, stock = g.initial
        base = ",".join([c for h in hands for c in h] + list(pool) + list(stock))
    return f"{base}/playoff/{number}"
