"""Tournaments: who sits at which table each round, the points, the standings and the champion.

Pure: no I/O, no asyncio, no Discord. Every function is deterministic from its arguments (the
`seed` breaks what the rules leave equal). The rules in words are in docs/tournaments.md;
keep the two in step.

An entrant is a member id (digits, as str) or an AI entrant "bot:<level>:<n>" (`ai_entrant`).
`rounds` is every finished round so far, oldest first, each the results of all its tables;
`byes[i]` are the entrants who sat round i + 1 out. `dropped` entrants left (or were removed):
they keep their points and are never seated again.

The package, by job: `records` (the tournament as kept and as shown), `ai_entrants`,
`points` (points, table sizes, rounds), `standings`, `seating` (Swiss and knockout) and
`ending` (is it over, the champion).
"""

from .ai_entrants import ai_entrant, ai_level, is_ai_entrant
from .ending import champion, is_over
from .points import (
    BYE_POINTS,
    MAX_TABLE,
    MIN_TABLE,
    POINTS,
    TableResult,
    knockout_rounds,
    points,
    swiss_rounds_advised,
    table_points,
    table_sizes,
)
from .records import (
    BYE,
    CANCELLED,
    DONE,
    FINISHED,
    FORMATS,
    OPEN,
    PLAYING,
    RUNNING,
    SEATED,
    SIGNUP,
    Entrant,
    Format,
    RoundTable,
    Signup,
    Status,
    TableStatus,
    Tournament,
    TournamentInfo,
)
from .seating import RoundPlan, repeat_pairs, restarts, seat_knockout, seat_swiss
from .standings import Row, advancing, standings

__all__ = [
    "BYE",
    "BYE_POINTS",
    "CANCELLED",
    "DONE",
    "FINISHED",
    "FORMATS",
    "MAX_TABLE",
    "MIN_TABLE",
    "OPEN",
    "PLAYING",
    "POINTS",
    "RUNNING",
    "SEATED",
    "SIGNUP",
    "Entrant",
    "Format",
    "RoundPlan",
    "RoundTable",
    "Row",
    "Signup",
    "Status",
    "TableResult",
    "TableStatus",
    "Tournament",
    "TournamentInfo",
    "advancing",
    "ai_entrant",
    "ai_level",
    "champion",
    "is_ai_entrant",
    "is_over",
    "knockout_rounds",
    "points",
    "repeat_pairs",
    "restarts",
    "seat_knockout",
    "seat_swiss",
    "standings",
    "swiss_rounds_advised",
    "table_points",
    "table_sizes",
]
