"""What the session tells its listener (the presenter) happened: one frozen value per kind,
with the fields the listener reads. `Sessions.listen` takes a callback of one `Event`."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

from bot.domain.place import Place
from bot.engine import Event as EngineEvent

from .models import Table


@dataclass(frozen=True)
class Started:
    """A lobby became a game. `message_id`: the lobby message the caller knows, which becomes
    the table (None: the listener's own, or a new one)."""

    table: Table
    message_id: int | None = None

    @property
    def game_id(self) -> int:
        return self.table.game_id


@dataclass(frozen=True)
class Moved:
    """A move was played and saved. `version`: moves saved, this one included."""

    table: Table
    seat: int
    auto: bool  # played for the seat (its timer ran out), not by its player
    version: int
    events: tuple[EngineEvent, ...]

    @property
    def game_id(self) -> int:
        return self.table.game_id

    @property
    def user_id(self) -> str:
        return self.table.seats[self.seat]


@dataclass(frozen=True)
class GameOver:
    """A game ended with a result (`table.standing` has its places); in a match that goes on,
    `next` is its next game, already started."""

    table: Table
    next: Table | None = None

    @property
    def game_id(self) -> int:
        return self.table.game_id


@dataclass(frozen=True)
class Away:
    """A seat missed its turns (AWAY_AFTER auto moves): the bot plays it sooner."""

    game_id: int
    seat: int


@dataclass(frozen=True)
class Back:
    """A seat that was away did something: it is played by its player again."""

    game_id: int
    seat: int


@dataclass(frozen=True)
class Forfeited:
    """A seat gave up: the bot plays it to the end, and it places last."""

    game_id: int
    seat: int


@dataclass(frozen=True)
class Closed:
    """A lobby or game ended without a result. `reason`: cancelled, lobby_expired or
    lobby_closed; the outbox keeps it as `closing`'s payload (`of` reads it back)."""

    game_id: int
    guild_id: int
    channel_id: int
    reason: str
    lang: str | None = None  # of its channel's messages, as the lobby was opened
    what: str = "lobby"  # "lobby" or "game"
    by: str | None = None  # who cancelled it
    admin: bool = False  # a server admin force-ended it
    players: tuple[str, ...] = ()
    seconds: float | None = None  # how long an expired lobby waited
    place: Place | None = None  # where it was played; None: a server channel the bot is in

    @classmethod
    def of(cls, game_id: int, payload: Mapping[str, Any]) -> Closed:
        """From `models.closing`'s payload (as sent, or as the outbox stored it)."""
        return cls(
            game_id, int(payload["guild_id"]), int(payload["channel_id"]), payload["reason"],
            lang=payload.get("lang"), what=payload.get("what", "lobby"), by=payload.get("by"),
            admin=bool(payload.get("admin", False)), players=tuple(payload.get("players", ())),
            seconds=payload.get("seconds"),
            place=None if payload.get("place") is None else Place.from_dict(payload["place"]),
        )  # fmt: skip


@dataclass(frozen=True)
class EndOwed:
    """A game that ended before a restart still owes its channel its end screen."""

    game_id: int


@dataclass(frozen=True)
class SeasonOver:
    """A leaderboard season ended: its announcement (the outbox item `item_id`, `payload` as
    bot.session.seasons writes it: season, top, players, lang) is owed to `channel_id`, the
    channel of the server's latest game `game_id`."""

    item_id: int
    game_id: int
    guild_id: int
    channel_id: int
    payload: Mapping[str, Any]


@dataclass(frozen=True)
class RoundStarted:
    """A tournament's round has its tables open, each playing in its thread."""

    tournament_id: int
    guild_id: int
    channel_id: int
    round: int

    @property
    def key(self) -> str:
        return f"started:{self.round}"


@dataclass(frozen=True)
class RoundOver:
    """Every table of a tournament's round is done: its standings can be shown."""

    tournament_id: int
    guild_id: int
    channel_id: int
    round: int

    @property
    def key(self) -> str:
        return f"over:{self.round}"


@dataclass(frozen=True)
class TournamentOver:
    """A tournament finished (`champion`: its winner) or was cancelled."""

    tournament_id: int
    guild_id: int
    channel_id: int
    champion: str | None
    cancelled: bool = False

    @property
    def key(self) -> str:
        return "ended"


@dataclass(frozen=True)
class RoundBlocked:
    """A round's tables cannot get their threads (`reason`: "gone", the channel was deleted;
    "denied", the bot lacks a permission there): the tournament waits for a manager."""

    tournament_id: int
    guild_id: int
    channel_id: int
    round: int
    reason: str
    serial: int  # how many times this tournament was blocked: each is told once

    @property
    def key(self) -> str:
        return f"blocked:{self.serial}"


Event = Started | Moved | GameOver | Away | Back | Forfeited | Closed | SeasonOver
Owed = Closed | EndOwed | SeasonOver  # what `Sessions.owed` returns: messages still to show
Listener = Callable[[Event], Awaitable[None]]
# What a tournament tells the adapter (TournamentOps.announce): its announcements, each
# posted once (`key`: TournamentOps.announced).
TournamentEvent = RoundStarted | RoundOver | TournamentOver | RoundBlocked
