"""/steal leaderboard, stats and history, and their buttons (leaderboard pages, records).

Thin: read storage, render with bot/ui/boards.py, reply. Options and custom_ids are untrusted:
sorts are checked against ids.SORTS and pages are clamped before they reach a query.
"""

from __future__ import annotations

import io
from typing import TYPE_CHECKING

import discord

from bot.ui import boards as ui
from bot.ui import ids
from bot.ui.render import Message

from .language import guild_lang, user_lang

if TYPE_CHECKING:
    from .steal import Steal


async def board(cog: Steal, guild_id: int, sort: str, page: int, lang: str) -> Message:
    if sort not in ids.SORTS:
        sort = "rating"
    repo = cog.bot.storage.stats
    count = await repo.count(guild_id)
    shown = ui.clamp_page(page, count)  # also keeps a crafted huge page out of OFFSET
    standings = await repo.leaderboard(guild_id, sort, ui.PER_PAGE, (shown - 1) * ui.PER_PAGE)
    return ui.leaderboard(lang, standings, sort, shown, count, page)


async def leaderboard(cog: Steal, interaction: discord.Interaction, sort: str, page: int) -> None:
    await cog.seen(interaction)
    lang = await guild_lang(cog.bot, interaction.guild_id, interaction)  # public: the server's
    message = await board(cog, interaction.guild_id, sort, page, lang)
    await interaction.response.send_message(**message.send_kwargs())  # public: the shared board


async def stats(cog: Steal, interaction: discord.Interaction, member: discord.abc.User) -> None:
    # Ephemeral: a lookup for the member asking, like /steal hand; the public, shared view is
    # /steal leaderboard. It also keeps checking someone else's numbers discreet.
    await cog.seen(interaction)
    lang = user_lang(interaction)
    guild_id = interaction.guild_id
    user = str(member.id)
    me = member.id == interaction.user.id
    found = await cog.bot.storage.stats.get(guild_id, user)
    if found is None or found.games == 0:  # a row with no games: seen, never finished one
        await cog.tell(interaction, ui.never_played(lang, None if me else member.display_name))
        return
    rank = await cog.bot.storage.stats.rank(guild_id, user)
    count = await cog.bot.storage.stats.count(guild_id)
    embed = ui.player_stats(lang, found, member.display_name, rank, count)
    await interaction.response.send_message(embed=embed, ephemeral=True)


async def history(
    cog: Steal, interaction: discord.Interaction, member: discord.abc.User | None
) -> None:
    # Ephemeral, like /steal stats: a lookup that would otherwise push the table up the channel.
    # Its Record buttons answer privately too.
    await cog.seen(interaction)
    lang = user_lang(interaction)
    guild_id = interaction.guild_id
    repo = cog.bot.storage.history
    if member is None:
        entries = await repo.by_guild(guild_id, limit=ui.HISTORY_SIZE)
    else:
        entries = await repo.by_player(str(member.id), guild_id=guild_id, limit=ui.HISTORY_SIZE)
    whose = None if member is None else member.display_name
    if not entries:
        me = member is not None and member.id == interaction.user.id
        text = ui.never_played(lang, None) if me else ui.no_history(lang, whose)
        await cog.tell(interaction, text)
        return
    names = await cog.bot.storage.stats.names(guild_id, {u for e in entries for u in e.seats})
    if member is not None:
        names[str(member.id)] = member.display_name  # the freshest name we have
    message = ui.history(lang, entries, names, whose)
    await interaction.response.send_message(**message.send_kwargs(), ephemeral=True)


async def send_record(cog: Steal, interaction: discord.Interaction, game_id: int) -> None:
    lang = user_lang(interaction)  # an ephemeral answer: the clicking member's language
    entry = await cog.bot.storage.history.get(game_id)
    # Another server's game gets the same answer as an unknown one: its existence stays private.
    if entry is None or entry.guild_id != interaction.guild_id:
        await cog.tell(interaction, ui.no_record(lang))
        return
    file = discord.File(io.BytesIO(ui.record_bytes(entry)), filename=ui.record_filename(game_id))
    await cog.tell(interaction, ui.record_text(lang, entry), file=file)


async def on_button(cog: Steal, interaction: discord.Interaction, action: ids.Action) -> None:
    await cog.seen(interaction)
    if action.kind == "board":  # anyone may turn the public board's pages: edit it in place
        lang = await guild_lang(cog.bot, interaction.guild_id, interaction)  # still public
        message = await board(cog, interaction.guild_id, action.op, action.game_id, lang)
        await interaction.response.edit_message(**message.kwargs())
    elif action.kind == "record":
        await send_record(cog, interaction, action.game_id)
