"""/steal rules and its page buttons: which rules are in play (a preset asked for by name,
this channel's game, or the server's settings), drawn by bot/ui/rules_pages.py."""

from __future__ import annotations

import discord

from bot import work
from bot.adapter.interactions import guild_of, reply, update
from bot.adapter.language import user_lang
from bot.domain import server_settings as settings
from bot.engine import PRESETS
from bot.session import Sessions
from bot.ui import rules_pages as ui
from bot.ui.render import Message


class RulesPages:
    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions

    async def shown(self, interaction: discord.Interaction, source: str) -> ui.Shown:
        """The rules `source` stands for now. "here": the channel's game (a button pressed after
        the game ended shows the server's rules instead), else the rules a new game would have."""
        if source in PRESETS:
            return ui.Shown(PRESETS[source], source, "preset")
        sessions = self.sessions
        in_play = await sessions.rules_here(interaction.channel_id or 0)  # a restored game is read
        if in_play is not None:
            return ui.Shown(in_play, ui.closest_preset(in_play), "game")
        values = (await sessions.records.settings(guild_of(interaction))).values
        return ui.Shown(settings.rules_for(values), values["preset"], "server")

    async def page(self, interaction: discord.Interaction, source: str, tab: str) -> Message:
        lang = user_lang(interaction)  # an ephemeral answer: the reader's language
        rules = await self.shown(interaction, source)
        pictures: tuple[tuple[str, bytes], ...] = ()
        if tab == "play":  # drawn once per language and deck, off the event loop
            guild = guild_of(interaction)
            pictures = await work.run(guild, ui.examples, lang, rules.rules.deck)
        return ui.page(lang, rules, tab, source, pictures)

    async def send(self, interaction: discord.Interaction, preset: str | None) -> None:
        """/steal rules [preset] and the table's Rules button: the first page, privately."""
        message = await self.page(interaction, preset or "here", "play")
        await reply(interaction, **message.send_kwargs())

    async def turn(self, interaction: discord.Interaction, source: str, tab: str) -> None:
        """A tab button: the same message shows another page."""
        message = await self.page(interaction, source, tab)
        await update(interaction, **message.kwargs())
