"""The values storage returns and the screens show: a player's stats and standing, a finished
game, a server's settings; and the result of a game as the session layer builds it for storage
to save. Plain data in a module of their own, so the ui and the cogs can read them without
importing storage, and storage can save them without importing the rating code."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

# The rating players see: 1000 + 40 x the openskill ordinal (mu - 3 sigma), rounded. A newcomer
# (ordinal 0) starts at 1000, so nobody new reads a negative or zero number (a first win
# against another newcomer gives about 1140, a first loss about 930). Documented in
# docs/playing.md. Here, not in bot.domain.ratings, because storage sorts on the ordinal and
# must not import the rating code.
RATING_BASE, RATING_SCALE = 1000, 40


def ordinal(mu: float, sigma: float) -> float:
    """The conservative skill estimate sorted on: mu - 3 sigma (openskill's ordinal)."""
    return mu - 3 * sigma


def display_rating(mu: float, sigma: float) -> int:
    """The rating shown everywhere (leaderboard, stats, stats card): never below 0."""
    return max(0, round(RATING_BASE + RATING_SCALE * ordinal(mu, sigma)))


@dataclass(frozen=True)
class PlayerStats:
    guild_id: int
    user_id: str
    name: str
    games: int
    wins: int
    cards: int
    steals: int
    biggest_steal: int
    mu: float
    sigma: float

    @property
    def rating(self) -> int:
        """The displayed rating (display_rating above)."""
        return display_rating(self.mu, self.sigma)

    @property
    def ordinal(self) -> float:
        """The exact skill estimate the board sorts on."""
        return ordinal(self.mu, self.sigma)

    @property
    def win_rate(self) -> float:
        return self.wins / self.games if self.games else 0.0


@dataclass(frozen=True)
class Standing:
    rank: int  # 1 for the top of the board
    player: PlayerStats


@dataclass(frozen=True)
class HistoryEntry:
    game_id: int
    guild_id: int | None  # None: a game outside a server (a group DM, a DM)
    channel_id: int
    finished_at: float
    seats: tuple[str, ...]
    places: tuple[int, ...]  # per seat, 0 = first
    forfeited: tuple[str, ...]
    record: dict[str, Any]  # the engine's record(game); its result is null if ended by forfeit
    board_id: int = 0  # the board it counted on (Place.board_id); 0: not read from storage

    @property
    def winners(self) -> tuple[str, ...]:
        """The players in first place, as counted in the stats: nobody wins by forfeiting."""
        return tuple(
            s
            for s, p in zip(self.seats, self.places, strict=True)
            if p == 0 and s not in self.forfeited
        )


@dataclass(frozen=True)
class GuildSettings:
    guild_id: int
    values: dict[str, Any]  # every setting: the guild's own value, or the default
    changed: frozenset[str]  # the keys the guild has set

    def __getitem__(self, key: str) -> Any:
        return self.values[key]


@dataclass(frozen=True)
class SeatResult:
    """What one finished game adds to one seat's stats; worked out by the session layer."""

    user_id: str
    place: int  # 0 = first
    won: bool
    cards: int
    steals: int
    biggest_steal: int
    rated: bool  # False: an AI opponent, which never gets stats or a leaderboard row
    before: tuple[float, float]  # (mu, sigma) the new rating was worked out from
    after: tuple[float, float]  # the new (mu, sigma)
    captures: tuple[tuple[int, int], ...] = ()  # (rank, captures made with it), by rank
    # The global ladder's (mu, sigma) before and after; None: the game leaves it alone (an AI
    # seat, or a game without two people: bot/session/results.py).
    global_before: tuple[float, float] | None = None
    global_after: tuple[float, float] | None = None


@dataclass(frozen=True)
class LadderEntry:
    """A person on the global ladder (every rated game anywhere). `name` is None unless they
    chose to show it (/steal profile): the screens then say "a player"."""

    rank: int  # 1 for the top
    user_id: str
    games: int
    wins: int
    mu: float
    sigma: float
    name: str | None = None

    @property
    def rating(self) -> int:
        return display_rating(self.mu, self.sigma)


@dataclass(frozen=True)
class RatedGame:
    """One counted game of a player as the stats card reads it (storage's rated_games)."""

    n: int  # the player's games count after it: 1 for their first counted game
    game_id: int
    before: tuple[float, float]  # (mu, sigma)
    after: tuple[float, float]
    captures: tuple[tuple[int, int], ...]  # (rank, captures), by rank


@dataclass(frozen=True)
class GameResult:
    """A finished game as storage saves it, in one transaction: history, stats and ratings.

    Ratings are saved only if every rated seat's stored rating still equals its `before`
    (else storage raises StaleRatings and the session works them out again), so two games
    finishing at once for one player never lose an update."""

    seats: tuple[SeatResult, ...]
    forfeited: tuple[str, ...]  # player ids
    record: dict[str, Any]  # the engine's record(game): what the finished game keeps
    counted: bool  # False: history only, no stats
    names: dict[str, str] = field(default_factory=dict)  # player id -> display name

    @property
    def user_ids(self) -> tuple[str, ...]:
        return tuple(s.user_id for s in self.seats)

    @property
    def places(self) -> tuple[int, ...]:
        return tuple(s.place for s in self.seats)


@dataclass(frozen=True)
class HandToken:
    """An open hand message and the interaction token that can edit it while it lives (a
    secret: never logged, dropped once expired)."""

    game_id: int
    user_id: str
    token: str = ""
    message_id: int | None = None  # None: the interaction's original response
    origin: int = 0  # the interaction that made the message: which message it is
    lang: str = "en"
    expires_at: float = 0.0  # unix seconds

    def __repr__(self) -> str:  # never the token itself, even in a traceback
        return f"HandToken(game_id={self.game_id}, user_id={self.user_id!r}, ...)"


@dataclass(frozen=True)
class AnchorToken:
    """The interaction token that edits the table of a game the bot token cannot reach (a
    group DM), the message it edits, and how many follow-ups it has sent (Discord allows 5).
    A secret: never logged, dropped once expired."""

    game_id: int
    token: str
    message_id: int | None = None  # None: the interaction's original response
    expires_at: float = 0.0  # unix seconds
    followups: int = 0

    def __repr__(self) -> str:  # never the token itself, even in a traceback
        return f"AnchorToken(game_id={self.game_id}, message_id={self.message_id}, ...)"


@dataclass(frozen=True)
class Season:
    """One of a server's leaderboard seasons (storage's `seasons`): numbered from 1; the
    current one has no end."""

    guild_id: int
    number: int
    started_at: float
    ended_at: float | None = None


@dataclass(frozen=True)
class SeasonEnd:
    """A season just ended (storage's `seasons.end`, one transaction): its number, its top
    three as archived, and the game whose channel its announcement is owed to (None: the
    server never had a game, so nothing is announced)."""

    guild_id: int
    number: int
    top: tuple[Standing, ...]
    game_id: int | None
    channel_id: int | None
    players: int  # how many were on its board
    announcement: int | None = None  # the outbox item owed, if any
    payload: dict[str, Any] = field(default_factory=dict)  # what it holds
