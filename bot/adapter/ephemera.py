"""Ephemeral answers true only for a while: a hint holds until the next move (or the game's
end), "You're already in this lobby" until the lobby starts or closes. Each is kept with the
interaction that sent it; when its moment passes (a session event), it is deleted through the
interaction's token, which Discord honours for 15 minutes. An answer older than that stays."""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass

import discord

from bot.session.events import Closed, Event, GameOver, Moved, Started

log = logging.getLogger(__name__)

TOKEN_LIFE = 15 * 60 - 30  # seconds a token can delete its answers, with a margin
# Which events end each kind of answer.
ENDS: dict[str, tuple[type, ...]] = {
    "hint": (Moved, GameOver, Closed),
    "lobby": (Started, Closed),
}


@dataclass(frozen=True)
class Kept:
    kind: str
    interaction: discord.Interaction
    message: discord.WebhookMessage | None  # a follow-up; None: the original response
    at: float


class Ephemera:
    def __init__(self) -> None:
        self._kept: dict[int, list[Kept]] = {}
        self._tasks: set[asyncio.Task[None]] = set()

    def keep(
        self,
        game_id: int,
        kind: str,
        interaction: discord.Interaction,
        message: discord.Message | None = None,
    ) -> None:
        """An answer sent for `game_id` that goes when an event of its kind's ENDS comes."""
        now = time.monotonic()
        kept = [k for k in self._kept.get(game_id, []) if now - k.at < TOKEN_LIFE]
        followup = message if isinstance(message, discord.WebhookMessage) else None
        kept.append(Kept(kind, interaction, followup, now))
        self._kept[game_id] = kept

    async def on_event(self, event: Event) -> None:
        """Called with every session event; deletes in the background, never waits."""
        game_id = getattr(event, "game_id", None)
        if not isinstance(game_id, int) or game_id not in self._kept:
            return
        ending = [k for k in self._kept[game_id] if isinstance(event, ENDS[k.kind])]
        if not ending:
            return
        staying = [k for k in self._kept[game_id] if k not in ending]
        if staying:
            self._kept[game_id] = staying
        else:
            del self._kept[game_id]
        now = time.monotonic()
        for kept in ending:
            if now - kept.at < TOKEN_LIFE:
                task = asyncio.create_task(_delete(kept), name=f"ephemeral-{game_id}")
                self._tasks.add(task)
                task.add_done_callback(self._tasks.discard)

    async def close(self) -> None:
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)


async def _delete(kept: Kept) -> None:
    try:
        if kept.message is not None:
            await kept.message.delete()
        else:
            await kept.interaction.delete_original_response()
    except discord.HTTPException as exc:  # gone already, or its token expired
        log.debug("an ephemeral answer was not deleted (%s)", exc)
