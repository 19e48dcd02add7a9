"""Lobbies: opening one (/steal new, Rematch), joining, leaving, starting, seating AI
opponents, and keeping the lobby message up to date. Called by the /steal commands and the
lobby's buttons."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord

from bot.adapter.channels import may_start, place_of
from bot.adapter.edge import Edge
from bot.adapter.ephemera import Ephemera
from bot.adapter.interactions import guild_of, made_private, post, reply, say, tell, update
from bot.adapter.language import game_lang, user_lang
from bot.adapter.presenter import Presenter
from bot.domain import server_settings as settings
from bot.domain.place import Kind, Place
from bot.engine import Rules
from bot.i18n import t, tn
from bot.i18n.commands import named
from bot.session import (
    AlreadyHosting,
    AlreadyRunning,
    AlreadySeated,
    Lobby,
    LobbyFull,
    NoLobby,
    NotHost,
    NotInGame,
    Sessions,
)
from bot.session import lobby_policy as policy
from bot.session.lobby_policy import Refusal
from bot.ui import errors, render
from bot.ui.text import ai_label

from ._questions import Questions

log = logging.getLogger(__name__)


class Lobbies:
    def __init__(
        self,
        sessions: Sessions,
        presenter: Presenter,
        ephemera: Ephemera,
        edge: Edge,
        questions: Questions,
    ) -> None:
        self.sessions = sessions
        self.presenter = presenter
        self.ephemera = ephemera
        self.edge = edge
        self.questions = questions

    async def new(
        self,
        interaction: discord.Interaction,
        picked: str | None,
        max_players: int,
        games: int,
        scoring: str,
        bots: int,
        level: str,
    ) -> None:
        """/steal new: the server's settings decide what the host may ask for."""
        values = (await self.sessions.records.settings(guild_of(interaction))).values
        lang = user_lang(interaction)
        allowed = policy.new_lobby(values, picked, max_players, bots, level)
        if allowed is Refusal.TOO_MANY_BOTS:
            await tell(interaction, tn(lang, allowed.value, max_players - 1, players=max_players))
            return
        if allowed is Refusal.PRESET_FIXED:
            preset = t(lang, f"choice.{values['preset']}")
            admin = named(lang, "steal-admin settings")
            await say(interaction, allowed.value, preset=preset, admin=admin)
            return
        if isinstance(allowed, Refusal):
            await say(interaction, allowed.value)
            return
        rules = settings.rules_for(values, allowed.preset)
        await self.open_lobby(
            interaction, values, rules, max_players, games=games, scoring=scoring,
            bots=allowed.bots,
        )  # fmt: skip

    async def open_lobby(
        self,
        interaction: discord.Interaction,
        values: Mapping[str, Any],
        rules: Rules,
        max_players: int,
        **options: Any,
    ) -> None:
        """/steal new and Rematch: check the channel against the server's settings (`values`),
        open the lobby, post its message."""
        if not await may_start(interaction, values["channels"]):
            return
        user = await self.edge.seen(interaction)
        server = settings.lobby_options(values)
        # Public messages of this game keep the server's language from when it opened.
        public = await self.edge.guild_lang(interaction, values["language"])
        fixed = values["language"] != "follow"  # then its ephemeral messages are in it too
        try:
            lobby = await self.sessions.open_lobby(
                guild_of(interaction), interaction.channel_id or 0, user, rules, max_players,
                place=self.place(interaction),
                setup=server.table_setup(lang=public, lang_fixed=fixed),
                lobby_seconds=server.lobby_seconds,
                max_games=server.max_games, **options,
            )  # fmt: skip
        except AlreadyHosting as exc:
            await say(interaction, "reply.already_hosting", channel=f"<#{exc.channel_id}>")
            return
        except AlreadyRunning as exc:  # answered here: not an error of the bot's
            lang = user_lang(interaction)
            shown = errors.error_message(lang, exc, self.presenter.link(exc.game_id))
            await reply(interaction, **shown.send_kwargs())
            return
        shown = render.lobby(public, lobby, self.sessions.names_in(lobby.guild_id))
        try:
            message_id = await post(interaction, **shown.send_kwargs())
        except Exception:
            # Nobody saw it: it must not hold the channel, or trying again says "already running".
            await self.sessions.withdraw(lobby.game_id)
            raise
        if await self.shown_to_host_only(interaction, lobby):
            return
        await self.presenter.lobby_posted(lobby, message_id)

    @staticmethod
    def place(interaction: discord.Interaction) -> Place | None:
        """Where the lobby opens; None for a server channel the bot is in (as ever)."""
        place = place_of(interaction)
        return None if place.kind is Kind.SERVER and place.bot_member else place

    async def shown_to_host_only(self, interaction: discord.Interaction, lobby: Lobby) -> bool:
        """A server that turned "Use External Apps" off makes the answers of an app it did not
        add ephemeral: the lobby came back seen by its host alone. A game nobody else can see
        is not started: the lobby is withdrawn, and its message says why and how the server
        can allow it."""
        if not made_private(interaction):
            return False
        await self.sessions.withdraw(lobby.game_id)
        lang = user_lang(interaction)
        body = t(lang, "reply.forced_private", new=render.command(lang, "new"))
        await update(
            interaction, **render.notice(t(lang, "reply.forced_private.title"), body).kwargs()
        )
        log.info("game %s: the lobby came back ephemeral; withdrawn", lobby.game_id)
        return True

    async def rematch(self, interaction: discord.Interaction, game_id: int) -> None:
        """A new lobby with the finished game's rules and players seated; whoever clicks
        hosts it, and anyone may leave before the start."""
        records = self.sessions.records
        entry = await records.finished(game_id)
        if entry is None or entry.board_id != guild_of(interaction):  # another place's game
            await say(interaction, "reply.not_in_history")
            return
        user = str(interaction.user.id)
        if user not in entry.seats:
            raise NotInGame("error.rematch_not_player")
        rules = Rules.from_dict(entry.record["rules"])
        values = (await records.settings(guild_of(interaction))).values
        seats = policy.rematch_seats(values, entry.seats)
        await self.open_lobby(interaction, values, rules, max(len(seats), 2), seats=seats)

    async def lobby_op(
        self, interaction: discord.Interaction, op: str, game_id: int | None
    ) -> None:
        """A lobby button (game_id given: answer by editing the lobby) or command (ephemeral)."""
        sessions = self.sessions
        user = await self.edge.seen(interaction)
        channel_id = interaction.channel_id or 0
        lang = user_lang(interaction)
        gone = t(lang, "reply.lobby_gone", new=render.command(lang, "new"))
        try:
            lobby = sessions.lobby_in(channel_id)
        except NoLobby:
            if game_id is not None:
                await tell(interaction, gone)
                return
            raise
        if game_id is not None and lobby.game_id != game_id:
            await tell(interaction, gone)
            return
        public = render.public_lang(lobby)
        names = sessions.names_in(lobby.guild_id)
        if game_id is not None and sessions.overdue(lobby.game_id):
            # Past its time, which no token could say: this click's token says it now.
            await update(interaction)
            self.presenter.anchored(lobby.game_id)
            await sessions.expire_overdue(lobby.game_id)
            return
        if op == "cancel":
            await self.questions.confirm_cancel(interaction, lobby.game_id, lobby.host_id)
            return
        if op.startswith("bot") or op == "unbot":
            await self.lobby_bots(interaction, op, lobby)
            return
        if op == "join":
            try:
                joined = await sessions.join(channel_id, user)
            except AlreadySeated as exc:  # true until the lobby starts or closes: then it goes
                shown = errors.error_message(lang, exc, None)
                sent = await reply(interaction, **shown.send_kwargs())
                self.ephemera.keep(lobby.game_id, "lobby", interaction, sent)
                return
        elif op == "leave":
            if user not in lobby.seats:  # the lobby is right there: join it, if there is room
                if len(lobby.seats) >= lobby.max_players:
                    raise LobbyFull()
                await say(interaction, "reply.not_in_lobby", join=t(public, "lobby.button.join"))
                return
            left = await sessions.leave(channel_id, user)
            if left is None:  # the last player left: the lobby is closed by the event
                if game_id is None:
                    await say(interaction, "reply.left_closed")
                else:
                    await update(interaction)
                return
            joined = left
        else:
            # The table is drawn here as the answer, so this interaction's token edits it from
            # now on ("@original"), outside the global rate limit: a click's answer turns the
            # lobby message into it; the command's answer is the table, and the lobby message
            # becomes a link to it (the command's token cannot edit a message it did not send).
            clicked = interaction.message if game_id is not None else None
            table = await sessions.start(
                channel_id, user, message_id=None if clicked is None else clicked.id
            )
            version = table.version
            message = await self.presenter.table_message(table)
            if clicked is not None:
                await update(interaction, **message.kwargs())
            else:
                table_id = await post(interaction, **message.send_kwargs())
                await self.presenter.table_reposted(table, table_id)
            self.presenter.table_shown(table, version)
            return
        if game_id is not None:
            await update(interaction, **render.lobby(public, joined, names).kwargs())
            self.presenter.anchored(lobby.game_id)  # this click's token shows the lobby now
            return
        await self.edit_lobby(interaction, joined)
        await say(interaction, "reply.joined" if op == "join" else "reply.left")

    async def lobby_bots(self, interaction: discord.Interaction, op: str, lobby: Lobby) -> None:
        """Add bot (asks which), the chosen difficulty (answers the question), Remove bot."""
        if str(interaction.user.id) != lobby.host_id:
            raise NotHost("error.only_host_bots")
        refused = policy.ai_refused(lobby.setup.ai_allowed is not False)
        if op != "unbot" and refused is not None:
            await say(interaction, refused.value)
            return
        sessions = self.sessions
        names = sessions.names_in(lobby.guild_id)
        lang = game_lang(interaction, lobby)  # the bot is named as the lobby names it
        if op == "bot":
            question = render.bot_choice(lang, lobby.game_id)
            await reply(interaction, content=question.content, view=question.view)
            return
        if op == "unbot":
            lobby = await sessions.remove_bot(lobby.channel_id, interaction.user.id)
            await update(
                interaction, **render.lobby(render.public_lang(lobby), lobby, names).kwargs()
            )
            self.presenter.anchored(lobby.game_id)
            return
        lobby = await sessions.add_bot(
            lobby.channel_id, interaction.user.id, op.removeprefix("bot_")
        )
        added = t(lang, "reply.bot_added", name=ai_label(lang, lobby.seats[-1]))
        await update(interaction, content=added, view=None)
        # Only true while the lobby is open: the lobby shows the seat, so it goes at Start.
        self.ephemera.keep(lobby.game_id, "lobby", interaction)
        await self.edit_lobby(interaction, lobby)

    async def edit_lobby(self, interaction: discord.Interaction, lobby: Lobby) -> None:
        """Bring the public lobby message up to date after a change made elsewhere."""
        await self.presenter.show_lobby(lobby)
