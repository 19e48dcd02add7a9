"""Per-guild settings: key/value rows holding JSON, read over the defaults."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from sqlalchemy import delete, select

from bot.domain.values import GuildSettings

from .errors import UnknownSetting
from .schema import guild_settings
from .sql import upsert_into

if TYPE_CHECKING:
    from .connection import Connection

g = guild_settings.c


class Settings:
    def __init__(self, connection: Connection, defaults: Mapping[str, Any]) -> None:
        self.connection = connection
        self.defaults = dict(defaults)

    async def get(self, guild_id: int) -> GuildSettings:
        rows = await self.connection.fetchall(select(g.key, g.value).where(g.guild_id == guild_id))
        # Rows for settings that no longer exist are ignored, not deleted: harmless.
        own = {r.key: json.loads(r.value) for r in rows if r.key in self.defaults}
        return GuildSettings(guild_id, {**self.defaults, **own}, frozenset(own))

    async def set(self, guild_id: int, key: str, value: Any) -> None:
        self._check(key)
        stmt = upsert_into(guild_settings, self.connection.dialect).values(
            guild_id=guild_id, key=key, value=json.dumps(value)
        )
        stmt = stmt.on_conflict_do_update(
            index_elements=[g.guild_id, g.key], set_={"value": stmt.excluded.value}
        )
        async with self.connection.transaction() as db:
            await db.execute(stmt)

    async def reset(self, guild_id: int, key: str | None = None) -> None:
        """Back to the default: one setting, or all of them when `key` is None."""
        stmt = delete(guild_settings).where(g.guild_id == guild_id)
        if key is not None:
            self._check(key)
            stmt = stmt.where(g.key == key)
        async with self.connection.transaction() as db:
            await db.execute(stmt)

    def _check(self, key: str) -> None:
        if key not in self.defaults:
            known = ", ".join(sorted(self.defaults)) or "none"
            raise UnknownSetting(f"unknown setting {key!r}; the settings are: {known}")
