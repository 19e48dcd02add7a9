"""The bot's storage: the connection (connection.py) and the repositories built on it."""

from __future__ import annotations

import os
from collections.abc import Callable, Mapping
from contextlib import AbstractAsyncContextManager
from typing import Any

from sqlalchemy import Executable, Row
from sqlalchemy.ext.asyncio import AsyncConnection

from .anchor_tokens import AnchorTokens
from .connection import Connection
from .forget import Forgetting
from .games import Games
from .hand_tokens import HandTokens
from .history import History
from .ladder import Ladder
from .leaderboard import START_RATING, Stats
from .outbox import Outbox
from .seasons import Seasons
from .settings import Settings
from .tallies import Tallies
from .tournament import Tournaments
from .url import parse


class Storage:
    """The repositories (`games`, `stats`, `tallies`, `history`, `outbox`, `settings`,
    `forgetting`, `hand_tokens`, `anchor_tokens`, `seasons`, `tournaments`, `ladder`) on one
    connection.

    `transaction`, `fetchall` and `fetchone` pass to the connection's; the repositories call
    the connection's own, so a test that slows or counts them patches `storage.connection`."""

    def __init__(
        self,
        connection: Connection,
        setting_defaults: Mapping[str, Any],
        start_rating: tuple[float, float],
    ) -> None:
        self.connection = connection
        self.target = connection.target
        self.path = connection.path  # the SQLite file; None on PostgreSQL
        self.dialect = connection.dialect
        self.engine = connection.engine
        self.settings = Settings(connection, setting_defaults)
        self.games = Games(connection)
        self.history = History(connection)
        self.stats = Stats(connection, start_rating)
        self.tallies = Tallies(connection)
        self.outbox = Outbox(connection)
        self.forgetting = Forgetting(connection)
        self.hand_tokens = HandTokens(connection)
        self.anchor_tokens = AnchorTokens(connection)
        self.seasons = Seasons(connection)
        self.tournaments = Tournaments(connection)
        self.ladder = Ladder(connection, start_rating)

    @classmethod
    async def open(
        cls,
        database: str | os.PathLike[str],
        *,
        setting_defaults: Mapping[str, Any] | None = None,
        start_rating: tuple[float, float] = START_RATING,
        durable: bool = True,
        clock: Callable[[], float] | None = None,
    ) -> Storage:
        """Open (creating if needed) and migrate the database: a SQLite file path, a
        sqlite:/// URL or a postgresql:// URL. Refuses newer or foreign files. `clock` dates
        every row (default time.time).

        durable=False is for the tests' throwaway databases only: no fsync at all (SQLite
        synchronous = OFF; PostgreSQL synchronous_commit = off). The bot always opens durably.
        """
        connection = await Connection.open(parse(database), durable=durable)
        if clock is not None:
            connection.clock = clock
        storage = cls(connection, setting_defaults or {}, start_rating)
        try:
            await storage.games.prepare()
        except BaseException:
            await storage.close()
            raise
        return storage

    @property
    def clock(self) -> Callable[[], float]:
        """What every row is dated by (time.time unless set)."""
        return self.connection.clock

    @clock.setter
    def clock(self, clock: Callable[[], float]) -> None:  # tests move a storage's time
        self.connection.clock = clock

    async def __aenter__(self) -> Storage:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.close()

    async def close(self) -> None:
        """Close every connection; closing twice is harmless."""
        await self.games.close()  # the moves waiting to be committed first
        await self.connection.close()

    def transaction(self) -> AbstractAsyncContextManager[AsyncConnection]:
        """BEGIN ... COMMIT, or ROLLBACK if the block raises."""
        return self.connection.transaction()

    async def fetchall(
        self, statement: Executable | str, params: Mapping[str, Any] | None = None
    ) -> list[Row[Any]]:
        return await self.connection.fetchall(statement, params)

    async def fetchone(
        self, statement: Executable | str, params: Mapping[str, Any] | None = None
    ) -> Row[Any] | None:
        return await self.connection.fetchone(statement, params)

    async def schema_version(self) -> int:
        """The schema version: the Alembic revision's number (SQLite's user_version too)."""
        return await self.connection.schema_version()
