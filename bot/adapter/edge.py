"""What every handler at the Discord edge shares and that needs the running bot's parts: the
server's fixed language, who manages games, which channels a member sees, names remembered,
the 3-second watch and errors told. Built once by the composition root (bot/app.py) with the
parts it uses and handed to each feature's constructor: nothing here looks the bot up."""

from __future__ import annotations

import asyncio
import logging
import secrets
from collections.abc import Awaitable, Collection

import discord
from discord import app_commands

from bot.i18n import language_of, t
from bot.metrics import QUIET, Instruments
from bot.session import AlreadyRunning, SessionError, Sessions
from bot.ui.errors import LINKED, error_message

from . import interactions as answers
from . import language
from .interactions import describe, reply, tell
from .options import bad_value_text
from .presenter import Presenter

log = logging.getLogger("bot.adapter.interactions")  # the name operators know


class Edge:
    def __init__(
        self,
        sessions: Sessions,
        presenter: Presenter,
        *,
        cooldowns: bool = True,
        instruments: Instruments = QUIET,
    ) -> None:
        self.sessions = sessions
        self.records = sessions.records
        self.presenter = presenter
        # The commands' per-member buckets; off in the tests, except those about cooldowns.
        self.cooldowns = answers.Cooldowns() if cooldowns else None
        self.instruments = instruments

    # ----- the 3-second budget and errors

    def watch(self, interaction: discord.Interaction, *, public: bool = False) -> None:
        """interactions.watch, with the click's task made known to the presenter (its table
        edits may answer through this interaction) and to the instruments."""
        answers.watch(interaction, public=public, cooldowns=self.cooldowns, started=self._started)

    def _started(self, task: asyncio.Task[object], interaction: discord.Interaction) -> None:
        self.instruments.on_click(task)
        self.presenter.answering(task, interaction)

    async def answer(self, interaction: discord.Interaction, work: Awaitable[None]) -> None:
        """A button's work, on the budget, with errors told to the member."""
        self.watch(interaction)
        try:
            await self.settle(interaction)
            await work
        except Exception as exc:
            await self.fail(interaction, exc)

    async def fail(self, interaction: discord.Interaction, error: BaseException) -> None:
        lang = language.user_lang(interaction)
        if isinstance(error, app_commands.CommandOnCooldown):
            when = int(discord.utils.utcnow().timestamp() + error.retry_after) + 1
            await tell(interaction, t(lang, "reply.cooldown", when=f"<t:{when}:R>"))
            return
        if isinstance(error, app_commands.TransformerError | app_commands.CommandSignatureMismatch):
            # An option the tree's check let through but discord.py could not use: the
            # member's input, not the bot's fault (bot/adapter/options.py).
            log.info("unusable option in %s: %s", describe(interaction), error)
            await tell(interaction, bad_value_text(interaction, error))
            return
        if isinstance(error, SessionError):
            link = self.table_link(interaction, error) if error.key in LINKED else None
            await reply(interaction, **error_message(lang, error, link).send_kwargs())
            return
        code = secrets.token_hex(4)
        log.error("error %s in %s", code, describe(interaction), exc_info=error)
        try:
            await tell(interaction, t(lang, "reply.unexpected", code=code))
        except discord.HTTPException:
            log.warning("error %s: could not tell the user", code)

    def table_link(self, interaction: discord.Interaction, error: SessionError) -> str | None:
        """A link to the table an error is about: the running one, or this channel's."""
        if isinstance(error, AlreadyRunning):
            return self.presenter.link(error.game_id)
        live = self.sessions.live_in(interaction.channel_id or 0)
        return None if live is None else self.presenter.link(live.game_id)

    # ----- languages (bot/adapter/language.py says whose)

    async def settle(self, interaction: discord.Interaction) -> None:
        """At an interaction's entry: if its server fixes a language, every answer is in it."""
        if interaction.guild_id is None or language.settled(interaction):
            return
        language.fix(interaction, await self.records.language(interaction.guild_id))

    async def guild_lang(
        self, interaction: discord.Interaction, configured: str | None = None
    ) -> str:
        """The language of public messages in the interaction's server. `configured`: its
        language setting, when the caller has read the settings already."""
        guild_id = interaction.guild_id
        if guild_id is None:
            return language_of(interaction.locale)
        if configured is None:
            configured = await self.records.language(guild_id)
        return language.public_in(interaction, configured)

    # ----- members

    async def seen(self, interaction: discord.Interaction) -> str:
        """The member's id; their display name is kept for this place's tables and boards (a
        server's, or a DM's: `guild_of`)."""
        user = str(interaction.user.id)
        await self.sessions.remember(
            answers.guild_of(interaction), user, interaction.user.display_name
        )
        return user

    async def is_manager(self, interaction: discord.Interaction) -> bool:
        """Manage Server, or the role a server's admins chose."""
        perms = interaction.permissions
        if perms is not None and perms.manage_guild:
            return True
        if interaction.guild_id is None:
            return False
        settings = await self.records.settings(interaction.guild_id)
        role = settings["manager_role"]
        roles = getattr(interaction.user, "roles", ())
        return role is not None and any(r.id == role for r in roles)

    async def can_see(self, interaction: discord.Interaction, channel_id: int) -> bool:
        """Whether the member may see what was played in a channel (a game's replay, record
        and history entry): they can view it, by their permissions in that channel. A channel
        that is gone (or never was this server's): managers only."""
        return channel_id in await self.seen_channels(interaction, {channel_id})

    async def seen_channels(
        self, interaction: discord.Interaction, channel_ids: Collection[int]
    ) -> set[int]:
        """The channels of `channel_ids` the member may see (can_see), at most one manager
        check."""
        guild, member = interaction.guild, interaction.user
        if interaction.guild_id is None:  # a DM: its own games, played in this very channel
            return {c for c in channel_ids if c == interaction.channel_id}
        if guild is None or not isinstance(member, discord.Member):
            return set()
        found: set[int] = set()
        gone: set[int] = set()
        for channel_id in channel_ids:
            channel = guild.get_channel_or_thread(channel_id)
            if channel is None:
                gone.add(channel_id)
            elif channel.permissions_for(member).view_channel:
                found.add(channel_id)
        if gone and await self.is_manager(interaction):
            found |= gone
        return found
