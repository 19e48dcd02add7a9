"""A tournament as it is kept: the event, its sign-ups and its tables round by round, as
storage reads them and the session, the adapter and the cogs use them; and the same
tournament as the screens show it (`TournamentInfo`)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Literal

Format = Literal["swiss", "knockout"]
FORMATS: tuple[Format, ...] = ("swiss", "knockout")
Status = Literal["signup", "running", "finished", "cancelled"]
SIGNUP: Status = "signup"
RUNNING: Status = "running"
FINISHED: Status = "finished"
CANCELLED: Status = "cancelled"
OPEN: tuple[Status, ...] = (SIGNUP, RUNNING)
# A table's status: the round's byes (table 0), seated (no game yet), playing, done.
TableStatus = Literal["bye", "seated", "playing", "done"]
BYE: TableStatus = "bye"
SEATED: TableStatus = "seated"
PLAYING: TableStatus = "playing"
DONE: TableStatus = "done"


@dataclass(frozen=True)
class Entrant:
    id: str
    rating: float = 0.0  # seeding strength (openskill ordinal), higher is stronger


@dataclass(frozen=True)
class Tournament:
    """The event: what was chosen at its creation and where it has got to. `settings`
    holds the rest (its rules, its tables' options, what was posted, a pause, the
    champion)."""

    id: int
    guild_id: int
    channel_id: int
    name: str  # user-supplied: escape when shown
    host_id: str
    format: Format
    table_size: int
    rounds: int  # 0: as many as advised at the start
    preset: str
    turn_seconds: int | None
    signup_ends: float | None  # unix seconds
    starts_at: float | None
    check_in: bool
    counted: bool
    status: Status
    round: int  # the current round, 0 before the first
    seed: int
    settings: dict[str, Any] = field(default_factory=dict)
    message_id: int | None = None  # the sign-up message
    created_at: float = 0.0


@dataclass(frozen=True)
class Signup:
    """An entrant's sign-up: their seeding rating, when, and whether they dropped out or
    checked in."""

    entrant: str
    rating: float
    joined_at: float
    dropped: bool
    checked_in: bool = False


@dataclass(frozen=True)
class RoundTable:
    """A table of a round (table 0: the round's byes), its thread and game once opened,
    its result once played."""

    tournament_id: int
    round: int
    table_no: int
    entrants: tuple[str, ...]
    thread_id: int | None
    game_id: int | None
    status: TableStatus
    result: dict[str, Any] | None


@dataclass(frozen=True)
class TournamentInfo:
    """A tournament as the screens show it: the session makes it of a `Tournament` and its
    entrants (times as datetimes, the host as a number); the ui renders it."""

    id: int
    guild_id: int
    channel_id: int
    name: str  # user-supplied: escape when shown
    host_id: int
    format: Format
    table_size: int  # 2..4
    rounds: int  # planned (swiss) or knockout_rounds
    preset: str
    turn_seconds: int | None
    signup_ends: datetime | None
    starts_at: datetime | None
    check_in: bool
    counted: bool  # whether its games count for the leaderboard
    status: Status
    round: int  # current round, 0 before the first
    entrants: tuple[Entrant, ...]
    checked: int = 0  # with check-in: how many have checked in (AI entrants count)
    check_in_opens: datetime | None = None  # with check-in: None once it is open
    paused: str | None = None  # its round waits for a manager: why ("gone", "denied")

    @classmethod
    def of(cls, tournament: Tournament, entrants: Sequence[Entrant]) -> TournamentInfo:
        """The tournament as shown: its times as datetimes, its host as a number (0: not a
        member's id). `checked` and `check_in_opens` are the session's to add."""
        host = int(tournament.host_id) if tournament.host_id.isdigit() else 0
        paused = (tournament.settings.get("paused") or {}).get("reason")
        t = tournament
        return cls(
            id=t.id, guild_id=t.guild_id, channel_id=t.channel_id, name=t.name, host_id=host,
            format=t.format, table_size=t.table_size, rounds=t.rounds, preset=t.preset,
            turn_seconds=t.turn_seconds, signup_ends=_moment(t.signup_ends),
            starts_at=_moment(t.starts_at), check_in=t.check_in, counted=t.counted,
            status=t.status, round=t.round, entrants=tuple(entrants), paused=paused,
        )  # fmt: skip


def _moment(unix: float | None) -> datetime | None:
    return None if unix is None else datetime.fromtimestamp(unix, UTC)
