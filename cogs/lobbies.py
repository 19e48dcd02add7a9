"""Lobbies: opening one (/steal new, Rematch), joining, leaving, starting, seating AI
opponents, and keeping the lobby message up to date. Called by the Steal cog."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import discord

from bot import settings
from bot.engine import Rules
from bot.i18n import t, tn
from bot.seats import is_ai
from bot.session import AlreadyRunning, NoLobby, NotHost, NotInGame
from bot.ui import render
from bot.ui.text import ai_label

from .language import guild_lang, user_lang

if TYPE_CHECKING:
    from .steal import Steal

log = logging.getLogger(__name__)

# What the bot needs in a channel to run a game there (names: reply.perm.<name>).
NEEDED = ("view_channel", "send_messages", "embed_links", "read_message_history")


async def new(
    cog: Steal,
    interaction: discord.Interaction,
    picked: str | None,
    max_players: int,
    games: int,
    scoring: str,
    bots: int,
    level: str,
) -> None:
    """/steal new: the server's settings decide what the host may ask for."""
    values = (await cog.bot.storage.settings.get(interaction.guild_id)).values
    lang = user_lang(interaction)
    if bots and not values["ai_allowed"]:
        await cog.say(interaction, "reply.no_ai")
        return
    if bots >= max_players:
        text = tn(lang, "reply.too_many_bots", max_players - 1, players=max_players)
        await cog.tell(interaction, text)
        return
    if picked not in (None, values["preset"]) and not values["host_picks_preset"]:
        preset = t(lang, f"choice.{values['preset']}")
        admin = "/" + t(lang, "cmd.steal-admin.name")
        await cog.say(interaction, "reply.preset_fixed", preset=preset, admin=admin)
        return
    chosen = settings.rules_for(values, picked)
    await open_lobby(
        cog, interaction, values, chosen, max_players, games=games, scoring=scoring,
        bots=[level] * bots,
    )  # fmt: skip


async def open_lobby(
    cog: Steal,
    interaction: discord.Interaction,
    values: Mapping[str, Any],
    rules: Rules,
    max_players: int,
    **options: Any,
) -> None:
    """/steal new and Rematch: check the channel against the server's settings (`values`),
    open the lobby, post its message."""
    allowed = values["channels"]
    channel = interaction.channel
    parent = getattr(channel, "parent_id", None)  # a thread counts as its channel
    lang = user_lang(interaction)
    if allowed and interaction.channel_id not in allowed and parent not in allowed:
        where = ", ".join(f"<#{c}>" for c in allowed)
        await cog.say(interaction, "reply.wrong_channel", channels=where)
        return
    missing = [t(lang, f"reply.perm.{perm}") for perm in NEEDED
               if not getattr(interaction.app_permissions, perm)]  # fmt: skip
    if missing:
        await cog.say(interaction, "reply.missing_permissions", missing=", ".join(missing))
        return
    user = await cog.seen(interaction)
    server = settings.lobby_options(values)
    # Public messages of this game keep the server's language from when it opened.
    public = await guild_lang(cog.bot, interaction.guild_id, interaction, values["language"])
    try:
        lobby = await cog.sessions.open_lobby(
            interaction.guild_id, interaction.channel_id, user, rules, max_players,
            options={**server.table_options(), "lang": public},
            lobby_seconds=server.lobby_seconds,
            max_games=server.max_games, **options,
        )  # fmt: skip
    except AlreadyRunning as exc:
        where = cog.link(interaction.guild_id, interaction.channel_id, exc.game_id)
        if where:
            await cog.say(interaction, "reply.already_running_link", link=where)
        else:
            await cog.say(interaction, "reply.already_running")
        return
    shown = render.lobby(public, lobby, cog.sessions.names)
    await interaction.response.send_message(**shown.kwargs())
    message = await interaction.original_response()
    ch = cog.presenter.channel(lobby.game_id, lobby.guild_id, lobby.channel_id)
    ch.lang = public
    await cog.presenter.set_table_id(ch, message.id)
    await cog.bot.storage.games.update(lobby.game_id, lobby_message_id=message.id)


async def rematch(cog: Steal, interaction: discord.Interaction, game_id: int) -> None:
    """A new lobby with the finished game's rules and players seated; whoever clicks
    hosts it, and anyone may leave before the start."""
    entry = await cog.bot.storage.history.get(game_id)
    if entry is None or entry.guild_id != interaction.guild_id:
        await cog.say(interaction, "reply.not_in_history")
        return
    user = str(interaction.user.id)
    if user not in entry.seats:
        raise NotInGame("error.rematch_not_player")
    rules = Rules.from_dict(entry.record["rules"])
    seats = list(entry.seats)
    values = (await cog.bot.storage.settings.get(interaction.guild_id)).values
    if not values["ai_allowed"]:
        seats = [s for s in seats if not is_ai(s)]
    await open_lobby(cog, interaction, values, rules, max(len(seats), 2), seats=seats)


async def lobby_op(
    cog: Steal, interaction: discord.Interaction, op: str, game_id: int | None
) -> None:
    """A lobby button (game_id given: answer by editing the lobby) or command (ephemeral)."""
    user = await cog.seen(interaction)
    channel_id = interaction.channel_id
    lang = user_lang(interaction)
    gone = t(lang, "reply.lobby_gone", new=render.command(lang, "new"))
    try:
        lobby = cog.sessions.lobby_in(channel_id)
    except NoLobby:
        if game_id is not None:
            await cog.tell(interaction, gone)
            return
        raise
    if game_id is not None and lobby.game_id != game_id:
        await cog.tell(interaction, gone)
        return
    public = render.public_lang(lobby)
    if op == "cancel":
        await cog.confirm_cancel(interaction, lobby.game_id, lobby.host_id)
        return
    if op.startswith("bot") or op == "unbot":
        await lobby_bots(cog, interaction, op, lobby)
        return
    ch = cog.presenter.channel(lobby.game_id, lobby.guild_id, lobby.channel_id)
    if op == "join":
        lobby = await cog.sessions.join(channel_id, user)
    elif op == "leave":
        lobby = await cog.sessions.leave(channel_id, user)
        if lobby is None:  # the last player left: the lobby is closed by the event
            if game_id is None:
                await cog.say(interaction, "reply.left_closed")
            else:
                await interaction.response.defer()
            return
    else:
        table = await cog.sessions.start(channel_id, user)
        message = render.table(public, table, cog.sessions.names, [])
        if game_id is not None:
            await interaction.response.edit_message(**message.kwargs())
            cog.presenter.started(table, interaction.message.id, drawn=True)
        else:
            cog.presenter.started(table, ch.table_id)  # the lobby message becomes the table
            # The button is named as the table (in the server's language) shows it.
            button = t(public, "table.button.hand")
            await cog.say(interaction, "reply.started", button=button)
        return
    if game_id is not None:
        await interaction.response.edit_message(
            **render.lobby(public, lobby, cog.sessions.names).kwargs()
        )
        return
    await edit_lobby(cog, lobby)
    await cog.say(interaction, "reply.joined" if op == "join" else "reply.left")


async def lobby_bots(cog: Steal, interaction: discord.Interaction, op: str, lobby) -> None:
    """Add bot (asks which), the chosen difficulty (answers the question), Remove bot."""
    if str(interaction.user.id) != lobby.host_id:
        raise NotHost("error.only_host_bots")
    if op != "unbot" and not lobby.options.get("ai_allowed", True):
        await cog.say(interaction, "reply.no_ai")
        return
    lang = user_lang(interaction)
    if op == "bot":
        question = render.bot_choice(lang, lobby.game_id)
        await cog.tell(interaction, question.content, view=question.view)
        return
    if op == "unbot":
        lobby = await cog.sessions.remove_bot(lobby.channel_id, interaction.user.id)
        await interaction.response.edit_message(
            **render.lobby(render.public_lang(lobby), lobby, cog.sessions.names).kwargs()
        )
        return
    lobby = await cog.sessions.add_bot(
        lobby.channel_id, interaction.user.id, op.removeprefix("bot_")
    )
    added = t(lang, "reply.bot_added", name=ai_label(lang, lobby.seats[-1]))
    await interaction.response.edit_message(content=added, view=None)
    await edit_lobby(cog, lobby)


async def edit_lobby(cog: Steal, lobby) -> None:
    ch = cog.presenter.channels.get(lobby.game_id)
    if ch is None or ch.table_id is None:
        return
    target = cog.bot.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
    try:
        await target.get_partial_message(ch.table_id).edit(
            **render.lobby(render.public_lang(lobby), lobby, cog.sessions.names).kwargs()
        )
    except discord.HTTPException as exc:
        log.info("lobby %s: message not updated (%s)", lobby.game_id, exc)
