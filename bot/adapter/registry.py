"""Which handler answers each button family: the cogs register theirs when they load, so the
families (bot/adapter/buttons.py) import no cog."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable

import discord

from bot.ui import ids

from .interactions import answer

log = logging.getLogger(__name__)
Handler = Callable[[discord.Interaction, ids.Action], Awaitable[None]]


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
        await answer(interaction, handler(interaction, action))
