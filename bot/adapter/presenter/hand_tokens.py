"""The players' open hand messages: the newest one of each player in a game, with the
interaction token that can still edit it (for 15 minutes), and redrawing them."""

from __future__ import annotations

import asyncio
import logging
from dataclasses import dataclass
from datetime import timedelta

import discord

from bot.session import Sessions, Table
from bot.ui import hand as hand_ui
from bot.ui import render

from ..buttons import dynamic
from ..hands import drawn
from ..language import game_lang, user_lang
from .channel import Channel

log = logging.getLogger(__name__)
HAND_TOKEN_LIFE = timedelta(minutes=14)  # interaction tokens last 15 minutes


@dataclass(frozen=True)
class HandRef:
    """An open hand message and the interaction token that can edit it (for 15 minutes)."""

    interaction: discord.Interaction
    origin: int  # the id of the interaction that created the message: which message it is
    followup: int | None = None  # the message's id when it was sent as a follow-up

    @property
    def alive(self) -> bool:
        return discord.utils.utcnow() - self.interaction.created_at < HAND_TOKEN_LIFE

    async def edit(self, message: render.Message) -> None:
        fields = dynamic(message.kwargs())
        if self.followup is not None:
            await self.interaction.followup.edit_message(self.followup, **fields)
        else:
            await self.interaction.edit_original_response(**fields)


def origin_of(interaction: discord.Interaction, fresh: bool) -> int:
    """Which hand message an interaction shows: a new one (My hand, /steal hand) is known by
    the interaction that made it; a clicked one by the interaction that made the message."""
    message = interaction.message
    if fresh or message is None:
        return interaction.id
    meta = message.interaction_metadata
    return meta.id if meta is not None else message.id


class OpenHands:
    """The open hand of each player, by (game id, player id)."""

    def __init__(self, sessions: Sessions) -> None:
        self.sessions = sessions
        # (game id, player id) -> the newest hand message of that player, and its token
        self.tokens: dict[tuple[int, str], HandRef] = {}
        self.edits: set[asyncio.Task[None]] = set()  # older hands being told "moved ↓"

    def remember(
        self,
        game_id: int,
        user_id: str,
        interaction: discord.Interaction,
        followup: int | None = None,
        *,
        fresh: bool = False,
    ) -> None:
        """`interaction` shows the player's hand now: a new message (`fresh`; `followup` its id
        if it was sent as a follow-up) or a clicked one. The hand message they had before, if it
        is another, becomes "Your hand moved ↓" with no buttons (while its token lives)."""
        ref = HandRef(interaction, origin_of(interaction, fresh), followup)
        old = self.tokens.get((game_id, user_id))
        self.tokens[(game_id, user_id)] = ref
        if old is None or old.origin == ref.origin or not old.alive:
            return
        task = asyncio.create_task(self._moved(old), name=f"hand-moved-{game_id}")
        self.edits.add(task)
        task.add_done_callback(self.edits.discard)

    async def _moved(self, old: HandRef) -> None:
        try:
            await old.edit(hand_ui.moved(user_lang(old.interaction)))
        except discord.HTTPException as exc:
            log.debug("an older hand was not marked moved (%s)", exc)

    def open(self, game_id: int, but: str | None = None) -> set[str]:
        """The players of a game whose hand message can still be edited."""
        return {
            user
            for (game, user), ref in self.tokens.items()
            if game == game_id and user != but and ref.alive
        }

    def alive(self, game_id: int, user: str) -> bool:
        ref = self.tokens.get((game_id, user))
        return ref is not None and ref.alive

    def move_on(self, game_id: int, nxt: Table) -> None:
        """A match's next game: its players' open hands are its hands now."""
        for user in nxt.seats:
            token = self.tokens.pop((game_id, user), None)
            if token is not None:
                self.tokens[(nxt.game_id, user)] = token

    async def refresh(self, ch: Channel, user: str) -> None:
        """Redraw a player's open hand as the game is now; at its end, the result."""
        ref = self.tokens.get((ch.game_id, user))
        table = ch.table
        if ref is None or table is None:
            return
        if not ref.alive:
            self.tokens.pop((ch.game_id, user), None)
            return
        if not ref.interaction.response.is_done():
            return  # a click still being answered: its answer draws this hand as it is now
        seat = table.seat_of(user)
        if seat is None:
            return
        # A hand is ephemeral: in its reader's language, its cards in the game's (game_lang).
        lang = game_lang(ref.interaction, table)
        if ch.closing is not None:  # cancelled or ended by an admin: no game to play any more
            message = hand_ui.closed(lang)
        elif table.game.over:
            message = hand_ui.ended(lang, table, seat, self.names(ch))
        else:
            message = await drawn(lang, table, seat, self.names(ch))
        try:
            await ref.edit(message)
        except discord.HTTPException as exc:
            log.debug("game %s: hand of %s not refreshed (%s)", ch.game_id, user, exc)
            if self.tokens.get((ch.game_id, user)) is ref:
                self.tokens.pop((ch.game_id, user), None)

    def names(self, ch: Channel) -> dict[str, str]:
        return self.sessions.names_in(ch.guild_id)

    def forget(self, game_id: int) -> None:
        for key in [k for k in self.tokens if k[0] == game_id]:
            del self.tokens[key]
