"""Hands: showing a player's cards, and the My hand, Rules, card, choice and Back buttons."""

from __future__ import annotations

import discord

from bot.engine import Move
from bot.i18n import t
from bot.session import NotInGame, SaveFailed, SessionError, StaleHand, Table
from bot.ui import render
from bot.ui.text import error_text

from . import rules
from .common import app_of, reply, seen, tell, update
from .language import user_lang

OUT_OF_DATE = "reply.out_of_date"  # catalog keys of the notes above a hand
NOT_SAVED = "reply.not_saved"


async def send_hand(interaction: discord.Interaction, table: Table) -> None:
    """The member's hand, as a new ephemeral message that follows the game."""
    app = app_of(interaction)
    user = str(interaction.user.id)
    seat = table.seat_of(user)
    if seat is None:
        raise NotInGame()
    await app.sessions.back(table.game_id, user)
    names = app.sessions.names_in(table.guild_id)
    message = render.hand(user_lang(interaction), table.hand(seat), table, names)
    await reply(interaction, content=message.content, view=message.view)
    app.presenter.remember_hand(table.game_id, user, interaction)


async def _table(interaction: discord.Interaction, game_id: int) -> Table | None:
    """The running game a button belongs to; None (and the member told) once it has ended."""
    table = app_of(interaction).sessions.table_of(game_id)
    if table is None:
        lang = user_lang(interaction)
        await tell(interaction, t(lang, "reply.game_gone", new=render.command(lang, "new")))
    return table


async def table_button(interaction: discord.Interaction, op: str, game_id: int) -> None:
    """The table's My hand and Rules buttons."""
    user = await seen(interaction)
    table = await _table(interaction, game_id)
    if table is None:
        return
    if op == "rules":
        await rules.send(interaction, None)
        return
    if table.seat_of(user) is None:
        raise NotInGame()
    await send_hand(interaction, table)


async def _seated(interaction: discord.Interaction, game_id: int) -> tuple[Table, int] | None:
    """For a hand's buttons: the game and the clicking member's seat; they are back if away."""
    app = app_of(interaction)
    user = await seen(interaction)
    table = await _table(interaction, game_id)
    if table is None:
        return None
    seat = table.seat_of(user)
    if seat is None:
        raise NotInGame()
    app.presenter.remember_hand(table.game_id, user, interaction)
    await app.sessions.back(table.game_id, user)
    return table, seat


async def back(interaction: discord.Interaction, game_id: int, version: int) -> None:
    found = await _seated(interaction, game_id)
    if found is not None:
        table, seat = found
        await show_hand(interaction, table, seat, None if version == table.version else OUT_OF_DATE)


async def hint(interaction: discord.Interaction, game_id: int, version: int) -> None:
    """💡 Hint: the medium AI's move for this turn, privately, with one line why."""
    found = await _seated(interaction, game_id)
    if found is None:
        return
    table, seat = found
    if version != table.version:
        await show_hand(interaction, table, seat, OUT_OF_DATE)
        return
    user = str(interaction.user.id)
    sessions = app_of(interaction).sessions
    move = await sessions.hint(game_id, user, version)
    names = sessions.names_in(table.guild_id)
    await tell(interaction, render.hint(user_lang(interaction), table.hand(seat), move, names))


async def card(interaction: discord.Interaction, game_id: int, version: int, code: str) -> None:
    """A card: played at once if it can do only one thing, else the choice of what it does."""
    found = await _seated(interaction, game_id)
    if found is None:
        return
    table, seat = found
    if version != table.version:
        await show_hand(interaction, table, seat, OUT_OF_DATE)
        return
    hand = table.hand(seat)
    options = [m for m in hand.legal if m.card == code]
    if not hand.legal:
        await show_hand(interaction, table, seat, "reply.not_your_turn_yet")
    elif not options:
        await show_hand(interaction, table, seat, "reply.cant_play")
    elif len(options) > 1:
        names = app_of(interaction).sessions.names_in(table.guild_id)
        message = render.choices(user_lang(interaction), hand, code, names)
        await update(interaction, content=message.content, view=message.view)
    else:
        await _play(interaction, table, seat, version, options[0])


async def move(interaction: discord.Interaction, game_id: int, version: int, chosen: Move) -> None:
    found = await _seated(interaction, game_id)
    if found is None:
        return
    table, seat = found
    if version != table.version:
        await show_hand(interaction, table, seat, OUT_OF_DATE)
        return
    await _play(interaction, table, seat, version, chosen)


async def _play(
    interaction: discord.Interaction, table: Table, seat: int, version: int, chosen: Move
) -> None:
    user = str(interaction.user.id)
    try:
        await app_of(interaction).sessions.play(table.game_id, user, chosen, version)
    except StaleHand:
        await show_hand(interaction, table, seat, OUT_OF_DATE)
    except SaveFailed:
        await show_hand(interaction, table, seat, NOT_SAVED)
    except SessionError as exc:
        await show_hand(interaction, table, seat, exc)
    else:
        await show_hand(interaction, table, seat)


async def show_hand(
    interaction: discord.Interaction,
    table: Table,
    seat: int,
    note: str | SessionError | None = None,
) -> None:
    """Redraw the clicked hand, with `note` (a catalog key or an error) above it."""
    lang = user_lang(interaction)
    if isinstance(note, SessionError):
        note = error_text(lang, note)
    elif note is not None:
        note = t(lang, note)
    names = app_of(interaction).sessions.names_in(table.guild_id)
    message = render.hand(lang, table.hand(seat), table, names, note)
    await update(interaction, content=message.content, view=message.view)
