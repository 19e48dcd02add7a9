"""Where a game is played. A server channel the bot is in works as it always has; a group DM,
or a server where only a player installed the app, is reached through interaction tokens
alone (the bot token is refused there), so the presenter and the timers must know which."""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import Any


class Kind(Enum):
    SERVER = "server"  # a server channel (the bot a member or not)
    BOT_DM = "bot_dm"  # the DM with the bot: the bot token reaches it
    PRIVATE = "private"  # a group DM, or a DM between two people


@dataclass(frozen=True, slots=True)
class Place:
    kind: Kind
    guild_id: int | None  # None outside a server
    channel_id: int
    bot_member: bool  # False: the bot token is refused here; only interaction tokens work

    @property
    def board_id(self) -> int:
        """The board a rated game here counts on: the server's, or else the channel's (a
        group DM keeps the board of that group)."""
        return self.guild_id if self.guild_id is not None else self.channel_id

    @property
    def tokens_only(self) -> bool:
        return not self.bot_member

    def to_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind.value,
            "guild_id": self.guild_id,
            "channel_id": self.channel_id,
            "bot_member": self.bot_member,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Place:
        guild = data.get("guild_id")
        return cls(
            kind=Kind(data["kind"]),
            guild_id=None if guild is None else int(guild),
            channel_id=int(data["channel_id"]),
            bot_member=bool(data["bot_member"]),
        )

    @classmethod
    def server(cls, guild_id: int, channel_id: int) -> Place:
        """A server channel the bot is in: every game before places existed."""
        return cls(Kind.SERVER, guild_id, channel_id, bot_member=True)
