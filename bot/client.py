"""The Discord client: opens storage, builds the session layer, loads the cog, restores games."""

from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from pathlib import Path

import discord
from discord.ext import commands

from bot import settings
from bot.i18n.commands import CommandTranslator
from bot.session import Sessions
from bot.storage import Storage
from bot.ui.buttons import StealButton

log = logging.getLogger(__name__)


def now() -> float:
    # discord.utils.utcnow, not time.time: the same clock as Discord timestamps (and the one
    # SimCord moves in tests).
    return discord.utils.utcnow().timestamp()


class StealBot(commands.Bot):
    def __init__(
        self,
        database: Path | str,
        *,
        turn_seconds: float | None = 120,
        lobby_seconds: float | None = 600,
        away_delay: float = 1.0,
        bot_delay: float = 1.5,
        dev_guild_id: int | None = None,
        sync: bool | None = None,
        seed_source: Callable[[], int] | None = None,
    ) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,  # slash commands only; no message content
            intents=discord.Intents.default(),
            help_command=None,
            allowed_mentions=discord.AllowedMentions.none(),  # pings opt in, one user each
        )
        self.database = Path(database)
        self.turn_seconds = turn_seconds
        self.lobby_seconds = lobby_seconds
        self.away_delay = away_delay  # how soon the bot plays for an away or forfeited seat
        self.bot_delay = bot_delay  # how long an AI opponent waits before it plays
        self.dev_guild_id = dev_guild_id
        self.sync_mode = sync  # True: always, False: never, None: when the commands changed
        self.seed_source = seed_source  # tests pass one, to deal the same cards every run
        # Each server's settings start from these; TURN_SECONDS is the turn timer's default.
        self.settings = settings.make_settings(turn_seconds, lobby_seconds)
        self.storage: Storage | None = None
        self.sessions: Sessions | None = None
        self.button_handler = None  # set by the Steal cog

    async def setup_hook(self) -> None:
        from cogs.admin import Admin
        from cogs.steal import Steal

        self.storage = await Storage.open(
            self.database, setting_defaults=settings.defaults(self.settings)
        )
        cog = Steal(self)
        self.sessions = Sessions(
            self.storage,
            clock=now,
            notify=cog.on_session_event,
            turn_seconds=self.turn_seconds,
            lobby_seconds=self.lobby_seconds,
            away_delay=self.away_delay,
            bot_delay=self.bot_delay,
            **({"seed_source": self.seed_source} if self.seed_source else {}),
        )
        self.add_dynamic_items(StealButton)
        await self.add_cog(cog)
        await self.add_cog(Admin(self, cog))
        await self.tree.set_translator(CommandTranslator())  # before syncing: names per locale
        await self.sync_commands()
        restored = await self.sessions.restore()
        log.info("restored %d lobbies and games", len(restored))
        await cog.refresh_restored(restored)

    async def sync_commands(self) -> None:
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        # The payloads as Discord gets them, translations included: a catalog edit re-syncs too.
        translator = self.tree.translator
        commands_ = self.tree.get_commands(guild=guild)
        if translator is None:
            payload = [c.to_dict(self.tree) for c in commands_]
        else:
            payload = [await c.get_translated_payload(self.tree, translator) for c in commands_]
        fingerprint = hashlib.sha256(
            json.dumps([self.dev_guild_id, payload], sort_keys=True).encode()
        ).hexdigest()
        # One marker per database, so the playground's sync never stands for the real bot's.
        marker = self.database.with_name(self.database.name + ".commands-synced")
        if self.sync_mode is False:
            return
        if self.sync_mode is None and marker.exists() and marker.read_text() == fingerprint:
            log.info("commands unchanged since the last sync; not syncing")
            return
        synced = await self.tree.sync(guild=guild)
        where = f"guild {self.dev_guild_id}" if guild else "globally (may take up to an hour)"
        log.info("synced %d commands %s", len(synced), where)
        marker.write_text(fingerprint)

    async def close(self) -> None:
        if self.sessions is not None:
            await self.sessions.close()
        if self.storage is not None:
            await self.storage.close()
        await super().close()
