"""The Privacy extension (docs/privacy.md): a server's data goes PURGE_GRACE after the bot is
removed from it (bot/session/privacy.py). It schedules the purge when the bot leaves, cancels
it when the bot is back, and runs the due purges at start-up and every hour; and it answers
the forget questions' buttons (_forget.py)."""

from __future__ import annotations

import asyncio
import contextlib
import logging

import discord
from discord.ext import commands

from bot.adapter.registry import Handler, Registry
from bot.session.privacy import Privacy as PrivacyOps

from ._forget import Forget

log = logging.getLogger(__name__)

PURGE_EVERY = 3600.0  # seconds between runs of the due purges (and one at start-up)


class Privacy(commands.Cog):
    def __init__(
        self, bot: commands.Bot, privacy: PrivacyOps, forget: Forget, buttons: Registry
    ) -> None:
        self.bot = bot  # the servers it is in, and when it is connected
        self.privacy = privacy
        self.task: asyncio.Task[None] | None = None
        self.buttons = buttons
        self.families: dict[str, Handler] = {
            "forget": lambda i, a: forget.answered(i, a.op, a.expires, a.game_id, a.yes),
        }

    async def cog_load(self) -> None:
        self.buttons.register(self.families)
        self.task = asyncio.create_task(self.purging())

    async def cog_unload(self) -> None:
        self.buttons.unregister(self.families)  # the same list
        if self.task is not None:
            self.task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self.task

    async def purging(self) -> None:
        """Once connected (so the servers the bot is in are known), then every PURGE_EVERY."""
        await self.bot.wait_until_ready()
        while True:
            try:
                await self.privacy.purge_due(lambda g: self.bot.get_guild(g) is not None)
            except Exception:  # storage down: the next run tries again
                log.exception("the due purges failed; will retry")
            await asyncio.sleep(PURGE_EVERY)

    @commands.Cog.listener()
    async def on_guild_remove(self, guild: discord.Guild) -> None:
        try:
            due = await self.privacy.bot_removed(guild.id)
        except Exception:
            log.exception("could not schedule the purge of server %s", guild.id)
            return
        log.info("removed from server %s: its data goes at %s", guild.id, due)

    @commands.Cog.listener()
    async def on_guild_join(self, guild: discord.Guild) -> None:
        await self.back_in(guild)

    @commands.Cog.listener()
    async def on_guild_available(self, guild: discord.Guild) -> None:
        await self.back_in(guild)  # a guild seen again (as discord.py reads some re-adds)

    async def back_in(self, guild: discord.Guild) -> None:
        try:
            if await self.privacy.bot_back(guild.id):
                log.info("back in server %s: its purge is cancelled", guild.id)
        except Exception:  # the next purge run sees the bot is here and cancels it then
            log.exception("could not cancel the purge of server %s", guild.id)
