"""/steal replay and the Replay buttons: a finished game, step by step, in an ephemeral viewer.

All its state is in the custom_id (game id and step), so an old viewer still works after a
restart. The id is untrusted: the game must be one of this server's finished games, played in
a channel the member can see (another server's, or a hidden channel's, gets the same answer as
an unknown one: bot/adapter/access.py), and the step is clamped to the game.
Replaying the record and drawing a step run in a thread, cached (bot/ui/replay.py).
"""

from __future__ import annotations

import logging
from typing import Any

import discord

from bot import work
from bot.adapter.edge import Edge
from bot.adapter.interactions import guild_of, reply, tell, update
from bot.adapter.language import user_lang
from bot.engine import BadState
from bot.session import Sessions
from bot.ui import replay as ui
from bot.ui.render import Message, command

log = logging.getLogger(__name__)

CACHE = ui.ReplayCache()
LAST = 25  # the member's last games looked at for one in a channel they can see


def draw(
    game_id: int, record: dict[str, Any], step: int, names: dict[str, str], lang: str
) -> Message:
    """In a thread: the game's states (cached), the step's picture (cached), the message."""
    r = CACHE.game(game_id, record)
    step = r.clamp(step)
    png = CACHE.picture(r, step, names, lang)
    return ui.viewer(lang, r, step, names, png)


class Replays:
    def __init__(self, sessions: Sessions, edge: Edge) -> None:
        self.sessions = sessions
        self.edge = edge

    async def show(self, interaction: discord.Interaction, game_id: int | None) -> None:
        """`/steal replay [game]`: the game asked for, or the member's last game here."""
        user = await self.edge.seen(interaction)
        lang = user_lang(interaction)
        if game_id is None:
            guild_id = guild_of(interaction)
            mine = await self.sessions.records.history(guild_id, user, limit=LAST)
            shown = await self.edge.seen_channels(interaction, {e.channel_id for e in mine})
            mine = [e for e in mine if e.channel_id in shown]
            if not mine:
                await tell(interaction, ui.none_yet(lang, command(lang, "new")))
                return
            game_id = mine[0].game_id
        await self.open_at(interaction, game_id, 0, new=True)

    async def clicked(
        self, interaction: discord.Interaction, nav: str, game_id: int, step: int
    ) -> None:
        """A Replay button: "open" (history, end screen) sends a new viewer; the viewer's own
        buttons move it in place."""
        await self.edge.seen(interaction)
        await self.open_at(interaction, game_id, step, new=nav == "open")

    async def open_at(
        self, interaction: discord.Interaction, game_id: int, step: int, new: bool
    ) -> None:
        lang = user_lang(interaction)
        records = self.sessions.records
        entry = await records.finished(game_id)
        if (
            entry is None
            or entry.board_id != guild_of(interaction)  # another place's: unknown
            or not await self.edge.can_see(interaction, entry.channel_id)
        ):
            await tell(interaction, ui.unknown(lang))
            return
        names = ui.step_names(entry.seats, await records.names(entry.board_id, entry.seats))
        try:
            message = await work.run(entry.board_id, draw, game_id, entry.record, step, names, lang)
        except BadState:
            log.warning("game %s: its record does not replay", game_id, exc_info=True)
            await tell(interaction, ui.unknown(lang))
            return
        if new:
            await reply(interaction, **message.send_kwargs())
        else:
            await update(interaction, **message.kwargs())
