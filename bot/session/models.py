"""The in-memory state of a lobby and of a running game, and what a play returns."""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from bot.domain.match import Match
from bot.domain.place import Place
from bot.domain.seats import is_ai
from bot.domain.table_setup import NONE_GIVEN, TableSetup
from bot.engine import Event, Game, Move, Rules, View, active, legal_moves, to_dict, view

RECENT = 8  # moves a table keeps in memory (Table.recent): more than a round of four


@dataclass
class Lobby:
    game_id: int
    guild_id: int
    channel_id: int
    host_id: str
    rules: Rules
    seats: list[str]
    max_players: int = 4
    deadline: float | None = None  # when it expires unless started
    match: Match | None = None  # None for a single game
    setup: TableSetup = NONE_GIVEN  # the server's settings for this game, its language
    timer: asyncio.Task[None] | None = field(default=None, repr=False)
    # Where it is played; None: a server channel the bot is in. Outside a server `guild_id`
    # is the place's board (bot.domain.place: the group DM's channel).
    place: Place | None = None

    @property
    def tokens_only(self) -> bool:
        """Played where the bot token is refused: only interaction tokens reach it."""
        return self.place is not None and self.place.tokens_only


class NotLoaded(RuntimeError):
    """A restored game's state was used before Sessions read it (`Sessions.load`)."""

    def __init__(self, game_id: int) -> None:
        super().__init__(f"game {game_id} is restored but not read yet: await Sessions.load")


@dataclass(frozen=True)
class Standing:
    """A finished game's places (0 = first; forfeited seats share the last) and winners, as
    results.standing works them out once for every screen and the stored result."""

    places: tuple[int, ...]
    winners: tuple[int, ...]


@dataclass
class Table:
    game_id: int
    guild_id: int
    channel_id: int
    host_id: str
    # The engine's state: `game`. None while a restored game is not read yet (lazy restore:
    # Sessions reads it on the game's first use; until then `seats` are the stored ones).
    built: Game | None
    version: int  # moves saved so far
    deadline: float | None = None  # when the seat to act is played for
    autos: dict[int, int] = field(default_factory=dict)  # seat -> consecutive auto moves
    away: set[int] = field(default_factory=set)
    forfeited: set[int] = field(default_factory=set)
    match: Match | None = None  # its progress, when this game is part of a match
    setup: TableSetup = NONE_GIVEN  # from the lobby (or the tournament): turn timer, pings
    hints: dict[int, int] = field(default_factory=dict)  # seat -> hints it asked for
    # The hint given this turn, (version, seat, move): shown again, not worked out again.
    last_hint: tuple[int, int, Move] | None = field(default=None, compare=False, repr=False)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock, repr=False)
    # Its turn timer: a task, or (restored, before its deadline) the call that starts it.
    timer: asyncio.Task[None] | asyncio.TimerHandle | None = field(default=None, repr=False)
    stored_seats: tuple[str, ...] = ()  # a restored game's seats, before it is read
    # A restored game not read yet: when it is, a person whose turn it is is not played for
    # before this time (Sessions' RESTORE_GRACE).
    grace: float | None = None
    # Set by Sessions once the game is over (results.standing), for every end screen.
    standing: Standing | None = None
    # A write failed, or its outcome is not known (its acknowledgement was lost): this copy
    # may not be what storage holds, so the next use reads the game again (Sessions.load).
    stale: bool = False
    failures: int = 0  # its turn timer's failures in a row (bot/session/retry.py)
    recorded: bool = False  # over, and its result saved (Matches.finish)
    # The latest moves, oldest first: (seat, the move's events), RECENT at most. Only in
    # memory (a restored game starts with none): hands say what was played since a turn.
    recent: tuple[tuple[int, tuple[Event, ...]], ...] = field(default=(), compare=False)
    place: Place | None = None  # as the lobby's; None: a server channel the bot is in
    # A game where only interaction tokens reach (`tokens_only`) with none left to show it:
    # its timers wait (nobody is played for) until a click on its table resumes it.
    paused: bool = False

    @property
    def tokens_only(self) -> bool:
        return self.place is not None and self.place.tokens_only

    @property
    def game(self) -> Game:
        if self.built is None:
            raise NotLoaded(self.game_id)
        return self.built

    @game.setter
    def game(self, game: Game) -> None:
        self.built = game

    @property
    def loaded(self) -> bool:
        return self.built is not None

    @property
    def current(self) -> bool:
        """Read, and known to be what storage holds (not `stale`)."""
        return self.built is not None and not self.stale

    @property
    def seats(self) -> tuple[str, ...]:
        return self.stored_seats if self.built is None else self.built.seats

    @property
    def turn(self) -> int | None:
        """The seat to act now (in the running playoff, if any), or None when over."""
        return None if self.game.over else active(self.game).turn

    def seat_of(self, user_id: str | int) -> int | None:
        try:
            return self.seats.index(str(user_id))
        except ValueError:
            return None

    @property
    def rated(self) -> bool:
        """Whether the game counts for the leaderboard by who sits in it: games with AI
        opponents count only if the server's `ai_counts` says so; a tournament's table only
        if the tournament counts (its `counted` setup)."""
        if self.setup.counted is False:  # a tournament's table that does not count
            return False
        with_ai = any(is_ai(s) for s in self.seats)
        return not with_ai or self.setup.ai_counts is True

    @property
    def counted(self) -> bool:
        """Whether the game counts for the leaderboard, hints used included: a game where
        someone took a hint counts only if the server's `hint_counts` says so."""
        hinted = any(self.hints.values())
        return self.rated and (not hinted or self.setup.hint_counts is not False)

    @property
    def hints_offered(self) -> bool:
        """Whether hands show the Hint button (the server's `hints`: on, off, or casual:
        only in games that do not count)."""
        mode = self.setup.hints or "on"
        return mode == "on" or (mode == "casual" and not self.rated)

    def hand(self, seat: int) -> Hand:
        """What this seat may see and play now."""
        legal = tuple(legal_moves(self.game)) if self.turn == seat else ()
        return Hand(self.game_id, seat, view(self.game, seat), self.version, legal)

    def session_dict(self) -> dict[str, Any]:
        """Session bookkeeping stored beside the engine state (the engine ignores it)."""
        return {
            "host_id": self.host_id,
            "autos": {str(s): n for s, n in self.autos.items() if n},
            "away": sorted(self.away),
            "forfeited": sorted(self.forfeited),
            "match": None if self.match is None else self.match.to_dict(),
            "hints": {str(s): n for s, n in self.hints.items() if n},
        }


@dataclass(frozen=True)
class Played:
    game_id: int
    game: Game  # after the move
    events: list[Event]
    version: int  # moves saved, this one included
    seat: int
    auto: bool
    ended: bool
    next: Table | None = None  # the match's next game, started as this one ended


@dataclass(frozen=True)
class Hand:
    game_id: int
    seat: int
    view: View
    version: int
    legal: tuple[Move, ...]  # empty unless it is this seat's turn


def state_of(
    table: Table,
    game: Game,
    *,
    autos: dict[int, int] | None = None,
    away: set[int] | None = None,
    forfeited: set[int] | None = None,
) -> dict[str, Any]:
    """What storage keeps of a table: the engine's state of `game` without its moves (they
    are stored once, each in its own row: saving a move does not grow with the game), and
    the session's bookkeeping beside it (the table's own, or the given values, not yet
    adopted). `with_moves` puts the moves back."""
    session = table.session_dict()
    if forfeited is not None:
        session["forfeited"] = sorted(forfeited)
    if autos is not None:
        session["autos"] = {str(s): n for s, n in autos.items() if n}
    if away is not None:
        session["away"] = sorted(away)
    # without_moves(to_dict(game)), without encoding every move of the game to drop it.
    moved = [len(game.moves), *(len(p.moves) for p in game.playoffs)]
    return {**to_dict(game, moves=False), "moved": moved, "session": session}


def without_moves(state: Mapping[str, Any]) -> dict[str, Any]:
    """An engine state with its move lists (the game's and each playoff's) left out, and
    how many moves each had ("moved"), so `with_moves` can put them back."""
    playoffs = state["playoffs"]
    return {
        **state,
        "moves": [],
        "playoffs": [{**p, "moves": []} for p in playoffs],
        "moved": [len(state["moves"]), *(len(p["moves"]) for p in playoffs)],
    }


def with_moves(state: Mapping[str, Any], moves: Sequence[Any]) -> dict[str, Any]:
    """The whole engine state from one saved by `state_of` and its moves, in order (playoffs'
    after the game's). A state saved whole (before moves were kept apart) is returned as is."""
    if "moved" not in state:
        return {k: v for k, v in state.items()}
    counts = state["moved"]
    if sum(counts) != len(moves):
        raise ValueError(f"the state has {sum(counts)} moves, the log {len(moves)}")
    cuts = [sum(counts[:i]) for i in range(len(counts) + 1)]
    parts = [list(moves[a:b]) for a, b in itertools.pairwise(cuts)]
    whole = {k: v for k, v in state.items() if k != "moved"}
    whole["moves"] = parts[0]
    whole["playoffs"] = [
        {**p, "moves": m} for p, m in zip(state["playoffs"], parts[1:], strict=True)
    ]
    return whole


# Kinds of message a game owes Discord once it ends (kept in storage's outbox until shown).
ENDED, CLOSED = "ended", "closed"
# Owed to the channel of a server's latest game, not by the game: a season's end (seasons.py).
SEASON = "season"


def closing(live: Lobby | Table, reason: str, **details: Any) -> dict[str, Any]:
    """What a lobby or game that ended without a result tells its channel: the session event's
    payload and the outbox's. `reason`: cancelled, lobby_expired or lobby_closed."""
    return {
        "guild_id": live.guild_id,
        "channel_id": live.channel_id,
        "lang": live.setup.lang,
        "reason": reason,
        "what": "game" if isinstance(live, Table) else "lobby",
        **({} if live.place is None else {"place": live.place.to_dict()}),
        **details,
    }


def stored_guild(guild_id: int, place: Place | None) -> int | None:
    """The server a game's row names: None outside a server (its `guild_id` in memory is the
    place's board)."""
    return guild_id if place is None else place.guild_id


def place_of_row(stored: dict[str, Any] | None) -> Place | None:
    """A row's stored place (None: a server channel the bot is in)."""
    return None if stored is None else Place.from_dict(stored)


def board_of(guild_id: int | None, channel_id: int) -> int:
    """The `guild_id` a game has in memory: its server, else its channel's board."""
    return channel_id if guild_id is None else guild_id
