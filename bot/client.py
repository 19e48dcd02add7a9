"""The Discord client: builds the app (bot/app.py), loads the cogs as extensions, syncs the
commands and restores games."""

from __future__ import annotations

import asyncio
import gc
import logging
from pathlib import Path
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.adapter import governor, traffic
from bot.adapter.options import tree_with
from bot.app import App, build
from bot.domain.options import DEFAULTS, Options
from bot.domain.server_settings import Setting
from bot.health import Health
from bot.i18n.commands import CommandTranslator, remember_commands, sync_fingerprint
from bot.session import Sessions
from bot.shards import Shards
from bot.storage import Storage, sync_marker
from cogs import admin, privacy, steal

log = logging.getLogger(__name__)

# Set up in this order by setup_hook; each package's `setup(bot, services)` builds its cog
# with the parts of the app it uses (cogs import no client, and look nothing up), and the
# cog registers its button families as it loads (bot/adapter/registry.py).
FEATURES = (steal, admin, privacy)


def now() -> float:
    # discord.utils.utcnow, not time.time: the same clock as Discord timestamps (and the one
    # SimCord moves in tests).
    return discord.utils.utcnow().timestamp()


class StealBot(commands.AutoShardedBot):
    """The bot on `shards` (SHARD_COUNT, SHARD_IDS): one shard unless told otherwise, as
    before; several processes can each run some of the shards on one PostgreSQL database
    (docs/operations.md)."""

    def __init__(
        self,
        database: Path | str,
        *,
        options: Options = DEFAULTS,
        dev_guild_id: int | None = None,
        sync: bool | None = None,
        shards: Shards | None = None,
        claim_shards: bool = False,
        freeze_gc: bool = False,
        global_rate: float = governor.GLOBAL_RATE,
        metrics_port: int | None = None,
        metrics_host: str = "127.0.0.1",
    ) -> None:
        self.shard_config = shards or Shards.one()
        self.freeze_gc = freeze_gc  # python -m bot: see the end of setup_hook
        self.claim_shards = claim_shards  # python -m bot: no other process may run them
        super().__init__(
            shard_count=self.shard_config.count,
            shard_ids=list(self.shard_config.ids),
            command_prefix=commands.when_mentioned,  # slash commands only; no message content
            intents=discord.Intents.default(),
            help_command=None,
            tree_cls=tree_with(self._settle),  # every command's options checked before it runs
            allowed_mentions=discord.AllowedMentions.none(),  # pings opt in, one user each
            http_trace=traffic.trace(lambda: self.application_id),  # every request counted
        )
        # One REST budget: this process's share of the bot's global rate limit, its shards'
        # part of them all (bot/adapter/governor.py).
        config = self.shard_config
        rate = governor.share(global_rate, len(config.ids), config.count)
        self.governor = governor.install(self.http, rate, lambda: self.application_id)
        self.metrics_port = metrics_port
        self.metrics_host = metrics_host  # no authentication: this machine only unless widened
        self.health: Health | None = None
        self.database = database  # a SQLite file or a database URL (bot.storage.parse)
        self.options = options
        self.dev_guild_id = dev_guild_id
        self.sync_mode = sync  # True: always, False: never, None: when the commands changed
        self.app: App | None = None
        self.lost_shards: str | None = None  # why this process stopped: its shard lock went
        self._closing: asyncio.Task[None] | None = None

    # Storage and sessions as the tests and tools reach them; the cogs are handed their parts.
    @property
    def storage(self) -> Storage | None:
        return self.app.storage if self.app else None

    @property
    def sessions(self) -> Sessions | None:
        return self.app.sessions if self.app else None

    @property
    def settings(self) -> dict[str, Setting]:
        """Every server setting with its bot-wide default."""
        return self.app.settings if self.app else {}

    async def _settle(self, interaction: discord.Interaction) -> None:
        """The tree's refusals speak the server's language once start-up has built the app
        (discord.py makes the tree before it); before, the member's own."""
        if self.app is not None:
            await self.app.edge.settle(interaction)

    async def setup_hook(self) -> None:
        self.app = await build(
            self.database, self, self.options, clock=now, shards=self.shard_config,
            claim_shards=self.claim_shards,
        )  # fmt: skip
        if self.metrics_port is not None:
            self.health = Health(self.app, self.shard_config, self.gateway_connected)
            await self.health.start(self.metrics_port, self.metrics_host)
        if self.app.shard_lock is not None:
            self.app.shard_lock.watch(self.shards_lost)
        # The registry's families answer the clicks.
        self.add_dynamic_items(*self.app.buttons.families)
        services = self.app.services
        for feature in FEATURES:
            await feature.setup(self, services)
        await self.tree.set_translator(CommandTranslator())  # before syncing: names per locale
        await self.sync_commands()
        restored = await self.app.sessions.restore()
        log.info("restored %d lobbies and games", len(restored))
        # Games are read on first use; those whose turn ends within the restart's grace now,
        # so their tables show the time they have (every other table is right as it stands).
        due = self.app.sessions.due(restored)
        await self.app.sessions.load_all(due)
        await self.app.presenter.refresh(restored, redraw=due)
        await self.app.presenter.deliver_owed()  # end screens and closings a restart cut off
        if self.freeze_gc:
            # What start-up made (modules, the app, restored games) stays for good: the cyclic
            # garbage collector need not walk it again. Its full passes over it were the p99
            # of clicks: 100 games at once, p99 / p50 3.9x with them, 2.3x frozen (bench/).
            gc.freeze()

    def gateway_connected(self) -> bool:
        """Whether every shard of this process is connected to Discord's gateway."""
        return self.is_ready() and all(not s.is_closed() for s in self.shards.values())

    def shards_lost(self, why: str) -> None:
        """The shard lock is gone (bot/storage/lock.py): another process may now be admitted
        to these shards, so this one stops serving them at once and exits; its supervisor
        starts it again, and it claims its shards afresh (docs/operations.md)."""
        self.lost_shards = why
        self._closing = asyncio.create_task(self.close())

    async def sync_commands(self) -> None:
        """Sync the commands if they changed; either way, learn their ids, so messages name
        them as mentions every reader's client shows in its own language."""
        synced = await self._sync()
        if synced is None and self.sync_mode is False:
            return  # told to leave Discord's commands alone (tools, some tests)
        if synced is None:
            guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
            try:
                synced = await self.tree.fetch_commands(guild=guild)
            except discord.DiscordException:
                log.warning("could not fetch the commands: messages name them in words")
                return
        remember_commands(synced)

    async def _sync(self) -> list[app_commands.AppCommand] | None:
        """The commands as synced; None when not synced."""
        if not self.shard_config.syncs:  # the commands are the same for every shard: sync once
            log.info(
                "not syncing commands: the process that holds shard 0 does (this one holds %s)",
                ", ".join(map(str, self.shard_config.ids)),
            )
            return None
        guild = discord.Object(self.dev_guild_id) if self.dev_guild_id else None
        if guild is not None:
            self.tree.copy_global_to(guild=guild)
        if self.sync_mode is False:
            return None
        # What the sync sends, as one hash: a command or catalog edit re-syncs.
        payload = [c.to_dict(self.tree) for c in self.tree.get_commands(guild=guild)]
        fingerprint = sync_fingerprint(self.dev_guild_id, payload)
        # One marker per database, so the playground's sync never stands for the real bot's.
        marker = sync_marker(self.database)
        marker.parent.mkdir(parents=True, exist_ok=True)
        if self.sync_mode is None and marker.exists() and marker.read_text() == fingerprint:
            log.info("commands unchanged since the last sync; not syncing")
            return None
        synced = await self.tree.sync(guild=guild)
        where = f"guild {self.dev_guild_id}" if guild else "globally (may take up to an hour)"
        log.info("synced %d commands %s", len(synced), where)
        marker.write_text(fingerprint)
        return synced

    async def close(self) -> None:
        # The presenter and the timers stop before storage closes (App.close), and all of it
        # before the cogs unload, so no worker writes to a closed database.
        if self.health is not None:
            await self.health.close()
        if self.app is not None:
            await self.app.close()
        # AutoShardedClient.close() posts to the event queue discord.py makes at login; a bot
        # closed without logging in (setup_hook run on its own, as tools and tests do) has
        # none, so it gets an empty one.
        if not hasattr(self, "_AutoShardedClient__queue"):
            self._AutoShardedClient__queue: asyncio.PriorityQueue[Any] = asyncio.PriorityQueue()
        await super().close()
