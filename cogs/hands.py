"""Hands: showing a player's cards, and the card, choice and Back buttons that play them."""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

import discord

from bot.i18n import t
from bot.session import NoGame, NotInGame, SaveFailed, SessionError, StaleHand, Table
from bot.ui import ids, render

from .language import user_lang

if TYPE_CHECKING:
    from .steal import Steal

ACK_BUDGET = 2.0  # seconds a move may take before we defer; Discord allows 3 to answer
OUT_OF_DATE = "reply.out_of_date"  # catalog keys of the notes above a hand
NOT_SAVED = "reply.not_saved"


async def send_hand(cog: Steal, interaction: discord.Interaction, table: Table) -> None:
    user = str(interaction.user.id)
    seat = table.seat_of(user)
    if seat is None:
        raise NotInGame()
    await cog.sessions.back(table.game_id, user)
    message = render.hand(user_lang(interaction), table.hand(seat), table, cog.sessions.names)
    await interaction.response.send_message(
        content=message.content, view=message.view, ephemeral=True
    )
    cog.presenter.remember_hand(table.game_id, user, interaction)


async def on_game_button(cog: Steal, interaction: discord.Interaction, action: ids.Action) -> None:
    user = await cog.seen(interaction)
    try:
        table = cog.sessions.table(action.game_id)
    except NoGame:
        lang = user_lang(interaction)
        await cog.tell(interaction, t(lang, "reply.game_gone", new=render.command(lang, "new")))
        return
    if action.kind == "table" and action.op == "rules":
        embed = render.rules_embed(user_lang(interaction), table.game.rules)
        await interaction.response.send_message(embed=embed, ephemeral=True)
        return
    seat = table.seat_of(user)
    if seat is None:
        raise NotInGame()
    if action.kind == "table":  # My hand
        await send_hand(cog, interaction, table)
        return
    cog.presenter.remember_hand(table.game_id, user, interaction)
    await cog.sessions.back(table.game_id, user)
    if action.version != table.version:
        await show_hand(cog, interaction, table, seat, OUT_OF_DATE)
        return
    if action.kind == "back":
        await show_hand(cog, interaction, table, seat)
        return
    hand = table.hand(seat)
    if action.kind == "card":
        options = [m for m in hand.legal if m.card == action.card]
        if not hand.legal:
            await show_hand(cog, interaction, table, seat, "reply.not_your_turn_yet")
            return
        if not options:
            await show_hand(cog, interaction, table, seat, "reply.cant_play")
            return
        if len(options) > 1:
            message = render.choices(user_lang(interaction), hand, action.card, cog.sessions.names)
            await interaction.response.edit_message(content=message.content, view=message.view)
            return
        move = options[0]
    else:
        move = action.move
    try:
        await in_time(
            cog, interaction, cog.sessions.play(table.game_id, user, move, action.version)
        )
    except StaleHand:
        await show_hand(cog, interaction, table, seat, OUT_OF_DATE)
        return
    except SaveFailed:
        await show_hand(cog, interaction, table, seat, NOT_SAVED)
        return
    except SessionError as exc:
        await show_hand(cog, interaction, table, seat, exc)
        return
    await show_hand(cog, interaction, table, seat)


async def in_time(cog: Steal, interaction: discord.Interaction, work):
    """Await `work`; if it is slow (a busy database), defer first so the click is never
    left unanswered."""
    task = asyncio.ensure_future(work)
    done, _ = await asyncio.wait({task}, timeout=ACK_BUDGET)
    if not done:
        await interaction.response.defer()
    return await task


async def show_hand(
    cog: Steal,
    interaction: discord.Interaction,
    table: Table,
    seat: int,
    note: str | SessionError | None = None,
) -> None:
    """Redraw the clicked hand, with `note` (a catalog key or an error) above it."""
    lang = user_lang(interaction)
    if isinstance(note, SessionError):
        note = note.text(lang)
    elif note is not None:
        note = t(lang, note)
    message = render.hand(lang, table.hand(seat), table, cog.sessions.names, note)
    if interaction.response.is_done():  # deferred by in_time
        await interaction.edit_original_response(content=message.content, view=message.view)
    else:
        await interaction.response.edit_message(content=message.content, view=message.view)
