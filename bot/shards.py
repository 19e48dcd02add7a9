"""Which Discord shards one process runs, and so which guilds' games it plays.

Discord sends a guild's events, interactions included, to shard `(guild_id >> 22) % count`,
and a game lives in one guild: a process that holds that shard is the only one to hear about
the game, so it alone restores it, times it and plays it. A game with no server (a group DM
or another DM) is shard 0's: Discord sends interactions without a guild to shard 0 only.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Shards:
    """The shards this process runs: `ids` of `count` (SHARD_COUNT, SHARD_IDS)."""

    count: int
    ids: tuple[int, ...]

    @classmethod
    def one(cls) -> Shards:
        """One process on one shard: the bot with no shard settings."""
        return cls(1, (0,))

    def shard_of(self, guild_id: int | None) -> int:
        """The shard of a guild's events; None (no server: a DM, a group DM) is shard 0."""
        return 0 if guild_id is None else (guild_id >> 22) % self.count

    def holds(self, guild_id: int | None) -> bool:
        """Whether a guild's events (None: those without a server) reach this process."""
        return self.shard_of(guild_id) in self.ids

    @property
    def syncs(self) -> bool:
        """Whether this process syncs the slash commands: only the one holding shard 0, so N
        processes never sync N times (the commands are the same for every shard)."""
        return 0 in self.ids

    @property
    def everything(self) -> bool:
        """Whether this process runs every shard (no other process shares the work)."""
        return len(self.ids) == self.count
