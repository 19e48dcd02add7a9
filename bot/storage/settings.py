"""Per-guild settings: key/value rows holding JSON, read over the defaults."""

from __future__ import annotations

import json
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from bot.rows import GuildSettings

from .errors import UnknownSetting

if TYPE_CHECKING:
    from .db import Storage


class Settings:
    def __init__(self, storage: Storage, defaults: Mapping[str, Any]) -> None:
        self.storage = storage
        self.defaults = dict(defaults)

    async def get(self, guild_id: int) -> GuildSettings:
        rows = await self.storage.fetchall(
            "SELECT key, value FROM guild_settings WHERE guild_id = ?", (guild_id,)
        )
        # Rows for settings that no longer exist are ignored, not deleted: harmless.
        own = {r["key"]: json.loads(r["value"]) for r in rows if r["key"] in self.defaults}
        return GuildSettings(guild_id, {**self.defaults, **own}, frozenset(own))

    async def set(self, guild_id: int, key: str, value: Any) -> None:
        self._check(key)
        async with self.storage.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, key, value) VALUES (?, ?, ?) "
                "ON CONFLICT (guild_id, key) DO UPDATE SET value = excluded.value",
                (guild_id, key, json.dumps(value)),
            )

    async def reset(self, guild_id: int, key: str | None = None) -> None:
        """Back to the default: one setting, or all of them when `key` is None."""
        if key is not None:
            self._check(key)
        async with self.storage.transaction() as db:
            if key is None:
                await db.execute("DELETE FROM guild_settings WHERE guild_id = ?", (guild_id,))
            else:
                await db.execute(
                    "DELETE FROM guild_settings WHERE guild_id = ? AND key = ?", (guild_id, key)
                )

    def _check(self, key: str) -> None:
        if key not in self.defaults:
            known = ", ".join(sorted(self.defaults)) or "none"
            raise UnknownSetting(f"unknown setting {key!r}; the settings are: {known}")
