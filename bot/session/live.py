"""Every lobby and running game of this process, by id and by channel, with the lock that
guards lobby changes and channel claims. Sessions is built on it, and its lobby operations
share it."""

from __future__ import annotations

import asyncio

from bot.engine import Rules

from .errors import NoGame, NoLobby
from .models import Lobby, Table
from .timers import stop


class Live:
    def __init__(self) -> None:
        self.lobbies: dict[int, Lobby] = {}
        self.tables: dict[int, Table] = {}
        self.channels: dict[int, int] = {}  # channel id -> game id of its lobby or table
        # guild id -> player id -> last display name seen there: a nickname is per server.
        self.names: dict[int, dict[str, str]] = {}
        self.lock = asyncio.Lock()  # lobby changes and channel claims

    def lobby_in(self, channel_id: int) -> Lobby:
        lobby = self.lobbies.get(self.channels.get(channel_id, -1))
        if lobby is None:
            raise NoLobby()
        return lobby

    def table(self, game_id: int) -> Table:
        table = self.tables.get(game_id)
        if table is None:
            raise NoGame()
        return table

    def drop(self, table: Table) -> None:
        """Forget a table: its timer stops and its channel is free (unless a match's next
        game holds it already)."""
        stop(table.timer)
        table.timer = None
        self.tables.pop(table.game_id, None)
        if self.channels.get(table.channel_id) == table.game_id:
            del self.channels[table.channel_id]

    def live_in(self, channel_id: int) -> Lobby | Table | None:
        """The lobby or game going in a channel, if any."""
        game_id = self.channels.get(channel_id)
        return None if game_id is None else self.live(game_id)

    def lobby_of(self, game_id: int) -> Lobby | None:
        return self.lobbies.get(game_id)

    def table_of(self, game_id: int) -> Table | None:
        return self.tables.get(game_id)

    def live(self, game_id: int) -> Lobby | Table | None:
        return self.lobbies.get(game_id) or self.tables.get(game_id)

    def rules_in(self, channel_id: int) -> Rules | None:
        """The rules of the lobby or game in a channel, if any."""
        live = self.live_in(channel_id)
        if isinstance(live, Table):
            return live.game.rules
        return live.rules if live is not None else None

    def names_in(self, guild_id: int) -> dict[str, str]:
        """Player id -> display name, as last seen in this guild."""
        return self.names.setdefault(guild_id, {})

    def count_in(self, guild_id: int) -> int:
        """Lobbies and games going in a guild (a match counts once: one game at a time)."""
        live: list[Lobby | Table] = [*self.lobbies.values(), *self.tables.values()]
        return sum(1 for x in live if x.guild_id == guild_id)

    def seated_at(self, guild_id: int, user_id: str) -> list[Table]:
        """The games going in a guild where this member has a seat (a tournament's tables
        play in threads of its channel)."""
        return [x for x in self.tables.values() if x.guild_id == guild_id and user_id in x.seats]

    def hosting(self, guild_id: int, host_id: str) -> Lobby | None:
        """An open lobby this member hosts in the guild, if any."""
        return next(
            (x for x in self.lobbies.values() if x.guild_id == guild_id and x.host_id == host_id),
            None,
        )
