"""Tournaments: `/steal tournament ...` (the group is in cogs/steal.py) and the sign-up
message's buttons (the `tour` family). Interactions in, TournamentOps calls, the ui's screens
out (bot/ui/tournament.py); the tables' threads and the rounds' announcements are the
adapter's (bot/adapter/tournament.py).

Who may do what: anyone joins and leaves; managers (bot/adapter/access.py) make, start,
cancel (after a confirmation), remove a player and fill the tables with AI entrants. A member
who tries a manager's action is told, privately, who can."""

from __future__ import annotations

import logging

import discord

from bot.adapter.channels import NEEDED, THREADS, may_start, place_of
from bot.adapter.edge import Edge
from bot.adapter.interactions import guild_of, post, reply, say, tell, update
from bot.adapter.language import user_lang
from bot.adapter.registry import Handler
from bot.adapter.tournament import TournamentDesk
from bot.domain import server_settings as settings
from bot.domain.tournament import Tournament
from bot.i18n import t, tn
from bot.session import SessionError, Sessions
from bot.session.tournament import Action, allowed
from bot.ui import ids
from bot.ui import tournament as screens
from bot.ui.names import shown
from bot.ui.render import Message, notice
from bot.ui.widgets import button, view_of

log = logging.getLogger(__name__)

# A tournament's tables always have a turn timer, so a no-show cannot hold up a round: the
# server's, or this (seconds) on a server whose games are untimed.
UNTIMED_SERVER_TURN = 120


def in_a_server(interaction: discord.Interaction) -> None:
    """`/steal` is offered in DMs and group DMs too (issue 36), and its subcommands share
    that; a tournament's tables are threads the bot makes in a server. So outside one, every
    tournament command says where they are played, and what to play here instead. A server
    where only a person installed the app is no better: the bot token makes no thread there."""
    if interaction.guild_id is None or not place_of(interaction).bot_member:
        raise SessionError("tour.error.server_only")


class Tournaments:
    def __init__(self, sessions: Sessions, desk: TournamentDesk, edge: Edge) -> None:
        self.sessions = sessions
        self.desk = desk
        self.edge = edge

    def families(self) -> dict[str, Handler]:
        return {"tour": lambda i, a: self.clicked(i, a.op, a.game_id)}

    async def _manager(self, interaction: discord.Interaction, action: Action) -> None:
        """The session's rule (who may do `action`), given whether the member is a manager."""
        allowed(action, manager=await self.edge.is_manager(interaction))

    async def _here(self, interaction: discord.Interaction) -> Tournament:
        """The tournament open in this channel (or the one whose table this thread is), else
        the server's newest open one."""
        ops = self.sessions.tournaments
        channel = interaction.channel
        parent = getattr(channel, "parent_id", None)
        where = {interaction.channel_id or 0, parent or 0}
        return await self._visible(interaction, await ops.current(guild_of(interaction), where))

    async def _visible(self, interaction: discord.Interaction, row: Tournament) -> Tournament:
        """`row`, if the member may see its channel; else as if there were none (privacy)."""
        if not await self.edge.can_see(interaction, row.channel_id):
            raise SessionError("tour.error.not_found")
        return row

    async def _refresh(self, interaction: discord.Interaction, tournament_id: int) -> None:
        """The sign-up message shows the change (a bot-token edit: for a command, not a click)."""
        try:
            await self.desk.refresh_signup(tournament_id)
        except Exception:
            log.warning("tournament %s: could not edit its sign-up message", tournament_id,
                        exc_info=True)  # fmt: skip

    async def new(
        self,
        interaction: discord.Interaction,
        name: str,
        fmt: str,
        rounds: int | None,
        table_size: int,
        preset: str | None,
        turn_timer: int | None,
        signup_minutes: int | None,
        start_minutes: int | None,
        check_in: bool = False,
    ) -> None:
        """/steal tournament new (managers): the sign-up message in this channel."""
        in_a_server(interaction)
        await self._manager(interaction, "create")
        values = (await self.sessions.records.settings(guild_of(interaction))).values
        if not await may_start(interaction, values["channels"], (*NEEDED, *THREADS)):
            return
        if isinstance(interaction.channel, discord.Thread):  # its tables are threads of it
            await say(interaction, "tourop.error.thread")
            return
        user = await self.edge.seen(interaction)
        server = settings.lobby_options(values)
        public = await self.edge.guild_lang(interaction, values["language"])
        fixed = values["language"] != "follow"
        now = self.sessions.clock()
        row = await self.sessions.tournaments.create(
            guild_of(interaction), interaction.channel_id or 0, user, name, format=fmt,
            table_size=table_size, rounds=rounds, preset=preset or values["preset"],
            rules=settings.rules_for(values, preset),
            turn_seconds=turn_timer or server.turn_seconds or UNTIMED_SERVER_TURN,
            signup_ends=None if signup_minutes is None else now + 60 * signup_minutes,
            starts_at=None if start_minutes is None else now + 60 * start_minutes,
            counted=bool(values.get("tournament_counted", True)), check_in=check_in,
            options=server.table_setup(lang=public, lang_fixed=fixed).to_dict(),
        )  # fmt: skip
        message = await self._signup(interaction, row.id)
        message_id = await post(interaction, **message.send_kwargs())
        await self.sessions.tournaments.set_message(row.id, message_id)

    async def _signup(self, interaction: discord.Interaction, tournament_id: int) -> Message:
        return await self.desk.signup_message(tournament_id)

    async def join(
        self, interaction: discord.Interaction, tournament_id: int | None = None
    ) -> None:
        in_a_server(interaction)
        user = await self.edge.seen(interaction)
        ops = self.sessions.tournaments
        row = (
            await ops.get(tournament_id, guild_of(interaction))
            if tournament_id
            else await self._here(interaction)
        )
        await ops.join(row.id, user, guild_of(interaction))
        await self._answer_change(interaction, row, "tourop.joined", tournament_id is not None)

    async def leave(
        self, interaction: discord.Interaction, tournament_id: int | None = None
    ) -> None:
        in_a_server(interaction)
        user = await self.edge.seen(interaction)
        ops = self.sessions.tournaments
        row = (
            await ops.get(tournament_id, guild_of(interaction))
            if tournament_id
            else await self._here(interaction)
        )
        await ops.leave(row.id, user, guild_of(interaction))
        key = "tourop.left" if row.status == "signup" else "tourop.dropped"
        await self._answer_change(interaction, row, key, tournament_id is not None)

    async def check_in(self, interaction: discord.Interaction, tournament_id: int) -> None:
        """The sign-up's Check in (a tournament made with check-in): the message shows the
        count, the member is told privately."""
        user = await self.edge.seen(interaction)
        ops = self.sessions.tournaments
        row = await ops.check_in(tournament_id, user, guild_of(interaction))
        await self._answer_change(interaction, row, "tourop.checked_in", True)

    async def _answer_change(
        self, interaction: discord.Interaction, row: Tournament, key: str, clicked: bool
    ) -> None:
        """A click updates the sign-up message it was on (an interaction answer); a command
        answers privately and the sign-up message is edited."""
        lang = user_lang(interaction)
        if clicked:
            await update(interaction, **(await self._signup(interaction, row.id)).kwargs())
            await reply(interaction, content=t(lang, key, name=shown(row.name)))
            return
        await tell(interaction, t(lang, key, name=shown(row.name)))
        await self._refresh(interaction, row.id)

    async def start(
        self, interaction: discord.Interaction, tournament_id: int | None = None
    ) -> None:
        """Managers start early: the sign-up closes, round 1 is seated and its threads made."""
        in_a_server(interaction)
        await self._manager(interaction, "start")
        await self.edge.seen(interaction)
        ops = self.sessions.tournaments
        row = (
            await ops.get(tournament_id, guild_of(interaction))
            if tournament_id
            else await self._here(interaction)
        )
        row = await ops.start(row.id, guild_of(interaction))
        lang = user_lang(interaction)
        text = tn(lang, "tourop.started", row.rounds, name=shown(row.name))
        if tournament_id is not None:
            await update(interaction, **(await self._signup(interaction, row.id)).kwargs())
            await reply(interaction, content=text)
        else:
            await tell(interaction, text)
            await self._refresh(interaction, row.id)

    async def ask_cancel(self, interaction: discord.Interaction) -> None:
        """Managers: a yes/no question first (a cancel ends every table's game)."""
        in_a_server(interaction)
        await self._manager(interaction, "cancel")
        await self.edge.seen(interaction)
        row = await self._here(interaction)
        lang = user_lang(interaction)
        danger = discord.ButtonStyle.danger
        buttons = view_of(
            button(ids.tour("cancel", row.id), t(lang, "tourop.cancel_yes"), danger),
            button(ids.tour("keep", row.id), t(lang, "tourop.cancel_no")),
        )
        await reply(
            interaction, content=t(lang, "tourop.cancel_ask", name=shown(row.name)), view=buttons
        )

    async def cancelled(
        self, interaction: discord.Interaction, tournament_id: int, yes: bool
    ) -> None:
        lang = user_lang(interaction)
        if not yes:
            await update(interaction, content=t(lang, "reply.nothing_changed"), view=None)
            return
        await self._manager(interaction, "cancel")
        user = await self.edge.seen(interaction)
        ops = self.sessions.tournaments
        row = await ops.cancel(tournament_id, guild_of(interaction), user)
        await update(
            interaction, content=t(lang, "tourop.cancel_done", name=shown(row.name)), view=None
        )
        await self._refresh(interaction, row.id)

    async def remove(self, interaction: discord.Interaction, member: discord.abc.User) -> None:
        in_a_server(interaction)
        await self._manager(interaction, "remove")
        user = await self.edge.seen(interaction)
        row = await self._here(interaction)
        ops = self.sessions.tournaments
        await ops.leave(row.id, member.id, guild_of(interaction), by=user, manager=True)
        lang = user_lang(interaction)
        await tell(
            interaction, t(lang, "tourop.removed", member=f"<@{member.id}>", name=shown(row.name))
        )
        await self._refresh(interaction, row.id)

    async def fill(self, interaction: discord.Interaction, count: int, level: str) -> None:
        in_a_server(interaction)
        await self._manager(interaction, "fill")
        await self.edge.seen(interaction)
        row = await self._here(interaction)
        added = await self.sessions.tournaments.fill_with_ai(
            row.id, guild_of(interaction), count, level
        )
        lang = user_lang(interaction)
        await tell(interaction, tn(lang, "tourop.filled", added, name=shown(row.name)))
        await self._refresh(interaction, row.id)

    async def standings(self, interaction: discord.Interaction) -> None:
        """Privately: the standings picture, with the asker's own row."""
        in_a_server(interaction)
        user = await self.edge.seen(interaction)
        ops = self.sessions.tournaments
        try:
            row = await self._here_or_last(interaction)
        except SessionError as error:  # none here, or none the member may see: said, not raised
            await self.edge.fail(interaction, error)
            return
        info = await ops.info(row.id)
        rows = await ops.standings(row.id)
        names = await self.desk.names(row)
        lang = user_lang(interaction)
        message = screens.standings_view(
            info, rows, names, lang, final=row.status == "finished", viewer=user
        )
        await reply(interaction, **message.send_kwargs())

    async def _here_or_last(self, interaction: discord.Interaction) -> Tournament:
        try:
            return await self._here(interaction)
        except SessionError:
            pass  # none open here: the server's last one, outside the handler
        ops = self.sessions.tournaments
        infos = await ops.of_guild(guild_of(interaction), 1)
        if not infos:
            raise SessionError("tour.error.not_found")
        return await self._visible(interaction, await ops.get(infos[0].id))

    async def listing(self, interaction: discord.Interaction) -> None:
        """The server's tournaments, newest first (privately)."""
        in_a_server(interaction)
        await self.edge.seen(interaction)
        infos = await self.sessions.tournaments.of_guild(guild_of(interaction))
        # Only those of channels the member may see, as /steal history lists games.
        visible = await self.edge.seen_channels(interaction, {i.channel_id for i in infos})
        infos = [i for i in infos if i.channel_id in visible]
        lang = user_lang(interaction)
        names = self.sessions.names_in(guild_of(interaction))
        await reply(interaction, **screens.tournaments_list_view(infos, names, lang).send_kwargs())

    async def clicked(self, interaction: discord.Interaction, op: str, tournament_id: int) -> None:
        """The `tour` family: the sign-up's Join, Leave, Check in, Start; the cancel question's
        answers. An id is untrusted: a tournament of a channel the member cannot view is, to
        them, no tournament at all (as for the commands)."""
        if op != "keep":
            ops = self.sessions.tournaments
            await self._visible(interaction, await ops.get(tournament_id, guild_of(interaction)))
        if op == "join":
            await self.join(interaction, tournament_id)
        elif op == "leave":
            await self.leave(interaction, tournament_id)
        elif op == "start":
            await self.start(interaction, tournament_id)
        elif op == "checkin":
            await self.check_in(interaction, tournament_id)
        elif op in ("cancel", "keep"):
            await self.cancelled(interaction, tournament_id, op == "cancel")
        elif op == "resume":
            await self.resumed(interaction, tournament_id)

    async def resumed(self, interaction: discord.Interaction, tournament_id: int) -> None:
        """A paused round's Try again (managers): its tables are tried again; the notice says
        so (refused again, a new notice follows)."""
        await self._manager(interaction, "resume")
        user = await self.edge.seen(interaction)
        ops = self.sessions.tournaments
        row = await ops.resume_round(tournament_id, guild_of(interaction))
        lang = user_lang(interaction)
        title = t(lang, "tourop.resumed", name=shown(row.name))
        await update(
            interaction, **notice(title, t(lang, "tourop.resumed_by", by=f"<@{user}>")).kwargs()
        )
        await self._refresh(interaction, row.id)  # the sign-up says it is under way again
