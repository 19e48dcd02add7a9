"""Yes/No questions about one lobby or game (cancel, close, forfeit): asked by commands and by
the lobby's Cancel button; the answer comes back as a confirm button (`steal.confirmed`)."""

from __future__ import annotations

import discord

from bot.adapter.edge import Edge
from bot.adapter.interactions import reply
from bot.adapter.language import user_lang
from bot.i18n import t
from bot.session import NotHost, Sessions
from bot.ui import ids
from bot.ui.widgets import button, view_of


async def ask(interaction: discord.Interaction, key: str, op: str, game_id: int) -> None:
    """A yes/no question: `key` is the question, `key`.yes its Yes button."""
    lang = user_lang(interaction)
    buttons = view_of(
        button(ids.confirm(op, game_id, True), t(lang, f"{key}.yes"), discord.ButtonStyle.danger),
        button(ids.confirm(op, game_id, False), t(lang, "reply.keep_playing")),
    )
    await reply(interaction, content=t(lang, key), view=buttons)


class Questions:
    def __init__(self, sessions: Sessions, edge: Edge) -> None:
        self.sessions = sessions
        self.edge = edge

    async def confirm_cancel(
        self, interaction: discord.Interaction, game_id: int, host: str
    ) -> None:
        if str(interaction.user.id) != host and not await self.edge.is_manager(interaction):
            raise NotHost("error.only_host_cancels")
        if self.sessions.lobby_of(game_id) is not None:
            await ask(interaction, "reply.cancel.lobby", "close", game_id)
        else:
            await ask(interaction, "reply.cancel.game", "cancel", game_id)
