"""Tournaments: sign-up, rounds of ordinary games each in its own thread, standings and a
champion. A collaborator Sessions owns; it shares Sessions' registry of live games.

The pure rules (seating, points, tiebreaks, the champion) are bot.domain.tournament's; this
package keeps a tournament moving and stored. Every step is keyed in storage
(bot/storage/tournament.py), so running it again - after a restart, or a try that failed -
finds it done and goes on from there: a round is seated once, a table's thread and game are
made once, a result recorded once. `step` is the one place a running tournament moves on:
it opens the current round's tables that have no game yet, records the results of tables
whose games ended while nobody listened (a restart), and once every table of the round is
done seats the next round or names the champion. It runs in the background, per tournament
one at a time, again until it works (retry.py), and only in the process that owns the
guild (`owns`).

A table's game is an ordinary game (its table, hands, turn timer, replay and game file),
started with its seats and no lobby; its `options` carry the tournament's id, round and
table number, so its GameOver comes back here, and `counted` (the tournament's) says whether
it counts for the leaderboard.

The package, one job a module: `reading`, `signup`, `starting` (start and cancel),
`deadlines` (a set start time), `rounds` (stepping, the tables' games) and `restart`; what they
share is in `core`. TournamentOps is all of them on one object.
"""

from __future__ import annotations

from .core import (
    CHECK_IN_WINDOW,
    MIN_ENTRANTS,
    CancelGame,
    Desk,
    ThreadMaker,
    ThreadRefused,
    check_in_opens,
)
from .deadlines import Deadlines
from .reading import Reading, result_of
from .refusals import MANAGED, Action, Refusal, Refused, allowed
from .restart import REANNOUNCE, Restart
from .rounds import THREAD_TRIES, Rounds, leavers_last, seats_of
from .signup import MAX_AI_FILL, MAX_ENTRANTS, NAME_LENGTH, SignUp, entrant_rating
from .starting import Starting


class TournamentOps(Reading, SignUp, Starting, Deadlines, Rounds, Restart):
    """A collaborator Sessions owns: TournamentOps(parts, cancel_game=..., desk=...)."""


__all__ = [
    "CHECK_IN_WINDOW",
    "MANAGED",
    "MAX_AI_FILL",
    "MAX_ENTRANTS",
    "MIN_ENTRANTS",
    "NAME_LENGTH",
    "REANNOUNCE",
    "THREAD_TRIES",
    "Action",
    "CancelGame",
    "Desk",
    "Refusal",
    "Refused",
    "ThreadMaker",
    "ThreadRefused",
    "TournamentOps",
    "allowed",
    "check_in_opens",
    "entrant_rating",
    "leavers_last",
    "result_of",
    "seats_of",
]
