"""The values storage returns and the screens show: a player's stats and standing, a finished
game, a server's settings. Plain data in a module of their own, so the ui and the cogs can read
them without importing storage."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from bot import stats


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
        """The displayed rating (bot.stats.display_rating)."""
        return stats.display_rating(self.mu, self.sigma)

    @property
    def ordinal(self) -> float:
        """The exact skill estimate the board sorts on."""
        return stats.ordinal(self.mu, self.sigma)

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
    guild_id: int
    channel_id: int
    finished_at: float
    seats: tuple[str, ...]
    places: tuple[int, ...]  # per seat, 0 = first
    forfeited: tuple[str, ...]
    record: dict[str, Any]  # the engine's record(game); its result is null if ended by forfeit

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
