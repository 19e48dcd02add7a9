"""The table's commands: a member's hand, the table posted again, forfeit and cancel, and the
yes/no answers to those questions (the `confirm` family)."""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot.adapter.edge import Edge
from bot.adapter.interactions import guild_of, post, reply, update
from bot.adapter.language import user_lang
from bot.adapter.presenter import Presenter
from bot.i18n import t
from bot.session import NoGame, NotInGame, Sessions, Table
from bot.ui import errors
from bot.ui.text import next_steps

from ._hands import Hands
from ._questions import Questions, ask

log = logging.getLogger(__name__)


class Games:
    def __init__(
        self,
        sessions: Sessions,
        presenter: Presenter,
        edge: Edge,
        hands: Hands,
        questions: Questions,
    ) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.edge = edge
        self.hands = hands
        self.questions = questions

    def _running(self, interaction: discord.Interaction) -> Table:
        table = self.sessions.live_in(interaction.channel_id or 0)
        if not isinstance(table, Table):
            raise NoGame()
        return table

    async def show_hand(self, interaction: discord.Interaction) -> None:
        user = await self.edge.seen(interaction)
        try:
            table = self._running(interaction)
        except NoGame:
            # A tournament's channel: the member's table plays in one of its threads.
            guild, here = interaction.guild, interaction.channel_id
            for seated in self.sessions.seated_at(guild_of(interaction), str(user)):
                thread = guild.get_thread(seated.channel_id) if guild is not None else None
                if thread is not None and thread.parent_id == here:
                    raise NoGame("error.game_in_thread", thread=thread.mention) from None
            raise
        await self.hands.send_hand(interaction, table)

    async def repost_table(self, interaction: discord.Interaction) -> None:
        """The table again at the bottom of the channel, for its players and managers; anyone
        else gets a link to it (so nobody can bury a game under reposts)."""
        user = await self.edge.seen(interaction)
        table = self._running(interaction)
        if table.seat_of(user) is None and not await self.edge.is_manager(interaction):
            link = self.presenter.link(table.game_id)
            if link is None:
                raise NotInGame()
            lang = user_lang(interaction)
            await reply(
                interaction, **errors.linked(lang, t(lang, "reply.table_link"), link).send_kwargs()
            )
            return
        table = await self.sessions.load(table.game_id)  # restored: its game is read first
        message = await self.presenter.table_now(table)
        sent = await post(interaction, **message.send_kwargs())
        await self.presenter.table_reposted(table, sent)

    async def ask_forfeit(self, interaction: discord.Interaction) -> None:
        user = await self.edge.seen(interaction)
        table = self._running(interaction)
        if table.seat_of(user) is None:
            raise NotInGame()
        await ask(interaction, "reply.forfeit", "forfeit", table.game_id)

    async def ask_cancel(self, interaction: discord.Interaction) -> None:
        await self.edge.seen(interaction)
        live = self.sessions.live_in(interaction.channel_id or 0)
        if live is None:
            raise NoGame()
        await self.questions.confirm_cancel(interaction, live.game_id, live.host_id)

    async def confirmed(
        self, interaction: discord.Interaction, op: str, game_id: int, yes: bool
    ) -> None:
        """Yes or No to a question about one lobby or game: only that one is ever ended."""
        await self.edge.seen(interaction)
        lang = user_lang(interaction)
        sessions = self.sessions
        if not yes:
            await update(interaction, content=t(lang, "reply.nothing_changed"), view=None)
            return
        # The question was about this lobby or this game: a lobby that has since started is not
        # the lobby the member agreed to close, and a game elsewhere is not the one asked about.
        live: Any = sessions.lobby_of(game_id) if op == "close" else sessions.table_of(game_id)
        if live is None:
            gone = "reply.lobby_already_gone" if op == "close" else "reply.game_already_over"
            await update(interaction, content=t(lang, gone, **next_steps(lang)), view=None)
            return
        if live.channel_id != interaction.channel_id:  # a crafted or misplaced question
            await update(interaction, content=t(lang, "reply.confirm_elsewhere"), view=None)
            return
        if op == "forfeit":
            await sessions.forfeit(game_id, interaction.user.id)
            await update(interaction, content=t(lang, "reply.forfeited"), view=None)
            return
        manager = await self.edge.is_manager(interaction)
        await sessions.cancel(live.channel_id, interaction.user.id, manager, game_id=game_id)
        await update(interaction, content=t(lang, "reply.cancelled"), view=None)
