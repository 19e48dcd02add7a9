"""Which handler answers each button family: the cogs register theirs when they load, so the
families (bot/adapter/buttons.py) import no cog."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.i18n import t
from bot.ui import ids

from .interactions import answer, tell
from .language import user_lang
from .services import services_of

log = logging.getLogger(__name__)
Handler = Callable[[discord.Interaction, ids.Action], Awaitable[None]]
# The families whose ids name a game (or lobby): every template with a `game` group, so a new
# family is covered as soon as its template names one.
NAMES_A_GAME = frozenset(kind for kind, template in ids.TEMPLATES.items()
                         if "game" in template.groupindex)  # fmt: skip


class Registry:
    def __init__(self) -> None:
        self._handlers: dict[str, Handler] = {}

    def register(self, kind: str, handler: Handler) -> None:
        if kind not in ids.TEMPLATES:
            raise KeyError(f"no button family {kind!r}")
        self._handlers[kind] = handler

    def unregister(self, *kinds: str) -> None:
        for kind in kinds:
            self._handlers.pop(kind, None)

    async def dispatch(self, interaction: discord.Interaction, action: ids.Action) -> None:
        """A click's work, on the 3-second budget, with errors told to the member."""
        handler = self._handlers.get(action.kind)
        if handler is None:  # its cog is not loaded: nothing here can answer it
            log.warning("no handler for %s buttons", action.kind)
            return
        if elsewhere(interaction, action):
            await answer(interaction, _not_here(interaction))
            return
        await answer(interaction, handler(interaction, action))


def elsewhere(interaction: discord.Interaction, action: ids.Action) -> bool:
    """Whether a click names a running lobby or game of another server: a custom_id is the
    client's, so a seated player could craft one and press it anywhere. Checked here, once,
    for every family that names a game; finished games are checked by their handlers
    (replay, record, rematch), which read them from storage."""
    if action.kind not in NAMES_A_GAME or not action.game_id:
        return False
    live = services_of(interaction.client).sessions.live(action.game_id)
    return live is not None and live.guild_id != interaction.guild_id


async def _not_here(interaction: discord.Interaction) -> None:
    await tell(interaction, t(user_lang(interaction), "reply.other_server"))
