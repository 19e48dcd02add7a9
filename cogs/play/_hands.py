"""Hands: showing a player's cards, and the My hand, Rules, move and Hint buttons (and the card
and Back buttons of hands drawn before one-click moves, which now redraw the hand)."""

from __future__ import annotations

import logging

import discord

from bot.adapter.edge import Edge
from bot.adapter.ephemera import Ephemera
from bot.adapter.hands import drawn
from bot.adapter.interactions import reply, tell, update
from bot.adapter.language import game_lang, user_lang
from bot.adapter.presenter import Presenter
from bot.engine import Move
from bot.i18n import t
from bot.session import NotInGame, SaveFailed, SessionError, Sessions, StaleHand, Table
from bot.ui import hand_message as hand_ui
from bot.ui import render
from bot.ui.text import error_text

from ._rules import RulesPages

log = logging.getLogger(__name__)
OUT_OF_DATE = "reply.out_of_date"  # catalog keys of the notes above a hand
NOT_SAVED = "reply.not_saved"
UNKNOWN_MESSAGE = 10008  # Discord's error code: the message is gone


class Hands:
    def __init__(
        self,
        sessions: Sessions,
        presenter: Presenter,
        ephemera: Ephemera,
        edge: Edge,
        rules: RulesPages,
    ) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.ephemera = ephemera
        self.edge = edge
        self.rules = rules

    async def send_hand(self, interaction: discord.Interaction, table: Table) -> None:
        """The member's hand, as a new ephemeral message that follows the game."""
        user = str(interaction.user.id)
        seat = table.seat_of(user)
        if seat is None:
            raise NotInGame()
        await self.sessions.back(table.game_id, user)
        names = self.sessions.names_in(table.guild_id)
        lang = game_lang(interaction, table)
        message = await drawn(lang, table, seat, names)
        sent = await reply(interaction, **message.send_kwargs())
        self.presenter.remember_hand(
            table.game_id, user, interaction, sent.id if sent else None, fresh=True
        )

    async def _table(self, interaction: discord.Interaction, game_id: int) -> Table | None:
        """The running game a button belongs to; None (and the member told) once it has ended."""
        table = self.sessions.table_of(game_id)
        if table is None:
            lang = user_lang(interaction)
            await tell(interaction, t(lang, "reply.game_gone", new=render.command(lang, "new")))
        return table

    async def table_button(self, interaction: discord.Interaction, op: str, game_id: int) -> None:
        """The table's My hand and Rules buttons."""
        user = await self.edge.seen(interaction)
        table = await self._table(interaction, game_id)
        if table is None:
            return
        if op == "rules":
            await self.rules.send(interaction, None)
            return
        if table.seat_of(user) is None:
            raise NotInGame()
        await self.send_hand(interaction, table)

    async def _seated(
        self, interaction: discord.Interaction, game_id: int, remember: bool = True
    ) -> tuple[Table, int, bool] | None:
        """For a hand's buttons: the game, the clicking member's seat, and whether the clicked
        hand is still there (False: a copy deleted as a newer one opened, clicked before the
        delete landed); they are back if away. The clicked hand becomes the one the presenter
        keeps up to date (`remember`: unless the answer is another message, as a hint is)."""
        user = await self.edge.seen(interaction)
        table = await self._table(interaction, game_id)
        if table is None:
            return None
        seat = table.seat_of(user)
        if seat is None:
            raise NotInGame()
        there = True
        if remember:
            there = self.presenter.remember_hand(table.game_id, user, interaction)
        await self.sessions.back(table.game_id, user)
        return table, seat, there

    async def redraw(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        """Back, or a card button (of a hand drawn before one-click moves, or a greyed card): the
        clicked hand is redrawn as the game stands, with its moves as buttons."""
        found = await self._seated(interaction, game_id)
        if found is not None:
            table, seat, there = found
            note = None if version == table.version else OUT_OF_DATE
            await self.show_hand(interaction, table, seat, note, there=there)

    async def hint(self, interaction: discord.Interaction, game_id: int, version: int) -> None:
        """💡 Hint: the medium AI's move for this turn, privately, with one line why."""
        found = await self._seated(interaction, game_id, remember=False)
        if found is None:
            return
        table, seat, _ = found
        if version != table.version:
            user = str(interaction.user.id)
            there = self.presenter.remember_hand(game_id, user, interaction)
            await self.show_hand(interaction, table, seat, OUT_OF_DATE, there=there)
            return
        user = str(interaction.user.id)
        sessions = self.sessions
        move = await sessions.hint(game_id, user, version)
        names = sessions.names_in(table.guild_id)
        lang = game_lang(interaction, table)
        sent = await reply(interaction, content=hand_ui.hint(lang, table.hand(seat), move, names))
        # True for this turn only: it goes at the next move, or when the game ends.
        self.ephemera.keep(game_id, "hint", interaction, sent)

    async def picked(
        self, interaction: discord.Interaction, game_id: int, version: int, chosen: Move | None
    ) -> None:
        """A move chosen from a card's menu; None: an option the bot did not send."""
        if chosen is None:
            found = await self._seated(interaction, game_id)
            if found is not None:
                table, seat, there = found
                await self.show_hand(interaction, table, seat, "reply.cant_play", there=there)
            return
        await self.move(interaction, game_id, version, chosen)

    async def move(
        self, interaction: discord.Interaction, game_id: int, version: int, chosen: Move
    ) -> None:
        found = await self._seated(interaction, game_id)
        if found is None:
            return
        table, seat, there = found
        if version != table.version:
            await self.show_hand(interaction, table, seat, OUT_OF_DATE, there=there)
            return
        await self._play(interaction, table, seat, version, chosen, there)

    async def _play(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        version: int,
        chosen: Move,
        there: bool = True,
    ) -> None:
        user = str(interaction.user.id)
        try:
            await self.sessions.play(table.game_id, user, chosen, version)
        except StaleHand:
            await self.show_hand(interaction, table, seat, OUT_OF_DATE, there=there)
        except SaveFailed:
            await self.show_hand(interaction, table, seat, NOT_SAVED, there=there)
        except SessionError as exc:
            await self.show_hand(interaction, table, seat, exc, there=there)
        else:
            await self.show_hand(interaction, table, seat, there=there, counted=True)

    async def show_hand(
        self,
        interaction: discord.Interaction,
        table: Table,
        seat: int,
        note: str | SessionError | None = None,
        *,
        there: bool = True,
        counted: bool = False,
    ) -> None:
        """Redraw the clicked hand, with `note` (a catalog key or an error) above it. If the
        clicked message is gone (`there` False, or Discord says so), a new private answer says
        what this click did instead (`counted`: it played its move)."""
        if not there:
            await self._copy_gone(interaction, table, counted)
            return
        lang = game_lang(interaction, table)
        if isinstance(note, SessionError):
            note = error_text(lang, note)
        elif note is not None:
            note = t(lang, note)
        names = self.sessions.names_in(table.guild_id)
        if table.game.over:  # the move that ended it: the result, no buttons
            message = hand_ui.ended(lang, table, seat, names)
        else:
            message = await drawn(lang, table, seat, names, note)
        try:
            await update(interaction, **message.kwargs())
        except discord.NotFound as exc:
            if exc.code != UNKNOWN_MESSAGE:
                raise
            # Deleted between the click and its answer (a newer copy opened, or the player
            # dismissed it): the player's hand is the one before, if there is one.
            self.presenter.hands.gone(table.game_id, str(interaction.user.id), interaction)
            await self._copy_gone(interaction, table, counted)

    async def _copy_gone(
        self, interaction: discord.Interaction, table: Table, counted: bool
    ) -> None:
        """A click on a hand message that is gone: a new private message says what it did, and
        the player's newer hand stays theirs. With no newer hand to play from, a new one."""
        user = str(interaction.user.id)
        if not table.game.over and not self.presenter.hands.alive(table.game_id, user):
            await self.send_hand(interaction, table)
            return
        key = "reply.copy_gone_counted" if counted else "reply.copy_gone"
        await tell(interaction, t(game_lang(interaction, table), key))
