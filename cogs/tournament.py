"""Tournaments: `/steal tournament ...` (the group is in cogs/steal.py) and the sign-up
message's buttons (the `tour` family). Interactions in, TournamentOps calls, the ui's screens
out (bot/ui/tournament/); the tables' threads and the rounds' announcements are the
adapter's (bot/adapter/tournaments.py).

Who may do what: anyone joins and leaves; managers (bot/adapter/access.py) make, start,
cancel (after a confirmation), remove a player and fill the tables with AI entrants. A member
who tries a manager's action is told, privately, who can."""

from __future__ import annotations

import logging
from datetime import UTC, datetime

import discord

from bot.adapter.access import can_see, is_manager, seen_channels
from bot.adapter.interactions import fail, guild_of, post, reply, say, seen, tell, update
from bot.adapter.language import guild_lang, user_lang
from bot.adapter.services import app_of
from bot.domain import server_settings as settings
from bot.domain.tournament import Tournament
from bot.i18n import t, tn
from bot.session import SessionError
from bot.session.tournament import Action, allowed
from bot.ui import ids
from bot.ui import tournament as screens
from bot.ui.names import shown
from bot.ui.render import Message, notice
from bot.ui.widgets import button, view_of

from .lobbies import NEEDED

log = logging.getLogger(__name__)

# What the bot needs in the channel beside a game's needs: the tables' threads.
THREADS = ("create_public_threads", "send_messages_in_threads")
# A tournament's tables always have a turn timer, so a no-show cannot hold up a round: the
# server's, or this (seconds) on a server whose games are untimed.
UNTIMED_SERVER_TURN = 120


async def _manager(interaction: discord.Interaction, action: Action) -> None:
    """The session's rule (who may do `action`), given whether the member is a manager."""
    allowed(action, manager=await is_manager(interaction))


async def _here(interaction: discord.Interaction) -> Tournament:
    """The tournament open in this channel (or the one whose table this thread is), else
    the server's newest open one."""
    ops = app_of(interaction).sessions.tournaments
    channel = interaction.channel
    parent = getattr(channel, "parent_id", None)
    where = {interaction.channel_id or 0, parent or 0}
    return await _visible(interaction, await ops.current(guild_of(interaction), where))


async def _visible(interaction: discord.Interaction, row: Tournament) -> Tournament:
    """`row`, if the member may see its channel; else as if there were none (privacy)."""
    if not await can_see(interaction, row.channel_id):
        raise SessionError("tour.error.not_found")
    return row


async def _refresh(interaction: discord.Interaction, tournament_id: int) -> None:
    """The sign-up message shows the change (a bot-token edit: for a command, not a click)."""
    desk = app_of(interaction).desk
    if desk is None:
        return
    try:
        await desk.refresh_signup(tournament_id)
    except Exception:
        log.warning("tournament %s: could not edit its sign-up message", tournament_id,
                    exc_info=True)  # fmt: skip


async def new(
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
    await _manager(interaction, "create")
    app = app_of(interaction)
    values = (await app.sessions.records.settings(guild_of(interaction))).values
    lang = user_lang(interaction)
    allowed = values["channels"]
    if allowed and interaction.channel_id not in allowed:
        await say(
            interaction, "reply.wrong_channel", channels=", ".join(f"<#{c}>" for c in allowed)
        )
        return
    if isinstance(interaction.channel, discord.Thread):
        await say(interaction, "tourop.error.thread")
        return
    missing = [t(lang, f"reply.perm.{perm}") for perm in (*NEEDED, *THREADS)
               if not getattr(interaction.app_permissions, perm)]  # fmt: skip
    if missing:
        await say(interaction, "reply.missing_permissions", missing=", ".join(missing))
        return
    user = await seen(interaction)
    server = settings.lobby_options(values)
    public = await guild_lang(interaction, values["language"])
    fixed = values["language"] != "follow"
    now = app.sessions.clock()
    row = await app.sessions.tournaments.create(
        guild_of(interaction), interaction.channel_id or 0, user, name, format=fmt,
        table_size=table_size, rounds=rounds, preset=preset or values["preset"],
        rules=settings.rules_for(values, preset),
        turn_seconds=turn_timer or server.turn_seconds or UNTIMED_SERVER_TURN,
        signup_ends=None if signup_minutes is None else now + 60 * signup_minutes,
        starts_at=None if start_minutes is None else now + 60 * start_minutes,
        counted=bool(values.get("tournament_counted", True)), check_in=check_in,
        options={**server.table_options(), "lang": public, "lang_fixed": fixed},
    )  # fmt: skip
    message = await _signup(interaction, row.id)
    message_id = await post(interaction, **message.send_kwargs())
    await app.sessions.tournaments.set_message(row.id, message_id)


async def _signup(interaction: discord.Interaction, tournament_id: int) -> Message:
    app = app_of(interaction)
    desk = app.desk
    if desk is not None:
        return await desk.signup_message(tournament_id)
    ops = app.sessions.tournaments
    info = await ops.info(tournament_id)
    now = datetime.fromtimestamp(app.sessions.clock(), UTC)
    lang = str((await ops.get(tournament_id)).settings.get("options", {}).get("lang", "en"))
    return screens.signup_view(info, app.sessions.names_in(info.guild_id), lang, now)


async def join(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    user = await seen(interaction)
    ops = app_of(interaction).sessions.tournaments
    row = (
        await ops.get(tournament_id, guild_of(interaction))
        if tournament_id
        else await _here(interaction)
    )
    await ops.join(row.id, user, guild_of(interaction))
    await _answer_change(interaction, row, "tourop.joined", tournament_id is not None)


async def leave(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    user = await seen(interaction)
    ops = app_of(interaction).sessions.tournaments
    row = (
        await ops.get(tournament_id, guild_of(interaction))
        if tournament_id
        else await _here(interaction)
    )
    await ops.leave(row.id, user, guild_of(interaction))
    key = "tourop.left" if row.status == "signup" else "tourop.dropped"
    await _answer_change(interaction, row, key, tournament_id is not None)


async def check_in(interaction: discord.Interaction, tournament_id: int) -> None:
    """The sign-up's Check in (a tournament made with check-in): the message shows the
    count, the member is told privately."""
    user = await seen(interaction)
    ops = app_of(interaction).sessions.tournaments
    row = await ops.check_in(tournament_id, user, guild_of(interaction))
    await _answer_change(interaction, row, "tourop.checked_in", True)


async def _answer_change(
    interaction: discord.Interaction, row: Tournament, key: str, clicked: bool
) -> None:
    """A click updates the sign-up message it was on (an interaction answer); a command
    answers privately and the sign-up message is edited."""
    lang = user_lang(interaction)
    if clicked:
        await update(interaction, **(await _signup(interaction, row.id)).kwargs())
        await reply(interaction, content=t(lang, key, name=shown(row.name)))
        return
    await tell(interaction, t(lang, key, name=shown(row.name)))
    await _refresh(interaction, row.id)


async def start(interaction: discord.Interaction, tournament_id: int | None = None) -> None:
    """Managers start early: the sign-up closes, round 1 is seated and its threads made."""
    await _manager(interaction, "start")
    await seen(interaction)
    ops = app_of(interaction).sessions.tournaments
    row = (
        await ops.get(tournament_id, guild_of(interaction))
        if tournament_id
        else await _here(interaction)
    )
    row = await ops.start(row.id, guild_of(interaction))
    lang = user_lang(interaction)
    text = tn(lang, "tourop.started", row.rounds, name=shown(row.name))
    if tournament_id is not None:
        await update(interaction, **(await _signup(interaction, row.id)).kwargs())
        await reply(interaction, content=text)
    else:
        await tell(interaction, text)
        await _refresh(interaction, row.id)


async def ask_cancel(interaction: discord.Interaction) -> None:
    """Managers: a yes/no question first (a cancel ends every table's game)."""
    await _manager(interaction, "cancel")
    await seen(interaction)
    row = await _here(interaction)
    lang = user_lang(interaction)
    danger = discord.ButtonStyle.danger
    buttons = view_of(
        button(ids.tour("cancel", row.id), t(lang, "tourop.cancel_yes"), danger),
        button(ids.tour("keep", row.id), t(lang, "tourop.cancel_no")),
    )
    await reply(
        interaction, content=t(lang, "tourop.cancel_ask", name=shown(row.name)), view=buttons
    )


async def cancelled(interaction: discord.Interaction, tournament_id: int, yes: bool) -> None:
    lang = user_lang(interaction)
    if not yes:
        await update(interaction, content=t(lang, "reply.nothing_changed"), view=None)
        return
    await _manager(interaction, "cancel")
    user = await seen(interaction)
    ops = app_of(interaction).sessions.tournaments
    row = await ops.cancel(tournament_id, guild_of(interaction), user)
    await update(
        interaction, content=t(lang, "tourop.cancel_done", name=shown(row.name)), view=None
    )
    await _refresh(interaction, row.id)


async def remove(interaction: discord.Interaction, member: discord.abc.User) -> None:
    await _manager(interaction, "remove")
    user = await seen(interaction)
    row = await _here(interaction)
    ops = app_of(interaction).sessions.tournaments
    await ops.leave(row.id, member.id, guild_of(interaction), by=user, manager=True)
    lang = user_lang(interaction)
    await tell(
        interaction, t(lang, "tourop.removed", member=f"<@{member.id}>", name=shown(row.name))
    )
    await _refresh(interaction, row.id)


async def fill(interaction: discord.Interaction, count: int, level: str) -> None:
    await _manager(interaction, "fill")
    await seen(interaction)
    row = await _here(interaction)
    added = await app_of(interaction).sessions.tournaments.fill_with_ai(
        row.id, guild_of(interaction), count, level
    )
    lang = user_lang(interaction)
    await tell(interaction, tn(lang, "tourop.filled", added, name=shown(row.name)))
    await _refresh(interaction, row.id)


async def standings(interaction: discord.Interaction) -> None:
    """Privately: the standings picture, with the asker's own row."""
    user = await seen(interaction)
    app = app_of(interaction)
    ops = app.sessions.tournaments
    try:
        row = await _here_or_last(interaction)
    except SessionError as error:  # none here, or none the member may see: said, not raised
        await fail(interaction, error)
        return
    info = await ops.info(row.id)
    rows = await ops.standings(row.id)
    desk = app.desk
    names = await desk.names(row) if desk is not None else app.sessions.names_in(row.guild_id)
    lang = user_lang(interaction)
    message = screens.standings_view(
        info, rows, names, lang, final=row.status == "finished", viewer=user
    )
    await reply(interaction, **message.send_kwargs())


async def _here_or_last(interaction: discord.Interaction) -> Tournament:
    try:
        return await _here(interaction)
    except SessionError:
        pass  # none open here: the server's last one, outside the handler
    ops = app_of(interaction).sessions.tournaments
    infos = await ops.of_guild(guild_of(interaction), 1)
    if not infos:
        raise SessionError("tour.error.not_found")
    return await _visible(interaction, await ops.get(infos[0].id))


async def listing(interaction: discord.Interaction) -> None:
    """The server's tournaments, newest first (privately)."""
    await seen(interaction)
    app = app_of(interaction)
    infos = await app.sessions.tournaments.of_guild(guild_of(interaction))
    # Only those of channels the member may see, as /steal history lists games.
    visible = await seen_channels(interaction, {i.channel_id for i in infos})
    infos = [i for i in infos if i.channel_id in visible]
    lang = user_lang(interaction)
    names = app.sessions.names_in(guild_of(interaction))
    await reply(interaction, **screens.tournaments_list_view(infos, names, lang).send_kwargs())


async def clicked(interaction: discord.Interaction, op: str, tournament_id: int) -> None:
    """The `tour` family: the sign-up's Join, Leave, Check in, Start; the cancel question's
    answers. An id is untrusted: a tournament of a channel the member cannot view is, to
    them, no tournament at all (as for the commands)."""
    if op != "keep":
        ops = app_of(interaction).sessions.tournaments
        await _visible(interaction, await ops.get(tournament_id, guild_of(interaction)))
    if op == "join":
        await join(interaction, tournament_id)
    elif op == "leave":
        await leave(interaction, tournament_id)
    elif op == "start":
        await start(interaction, tournament_id)
    elif op == "checkin":
        await check_in(interaction, tournament_id)
    elif op in ("cancel", "keep"):
        await cancelled(interaction, tournament_id, op == "cancel")
    elif op == "resume":
        await resumed(interaction, tournament_id)


async def resumed(interaction: discord.Interaction, tournament_id: int) -> None:
    """A paused round's Try again (managers): its tables are tried again; the notice says
    so (refused again, a new notice follows)."""
    await _manager(interaction, "resume")
    user = await seen(interaction)
    ops = app_of(interaction).sessions.tournaments
    row = await ops.resume_round(tournament_id, guild_of(interaction))
    lang = user_lang(interaction)
    title = t(lang, "tourop.resumed", name=shown(row.name))
    await update(
        interaction, **notice(title, t(lang, "tourop.resumed_by", by=f"<@{user}>")).kwargs()
    )
    await _refresh(interaction, row.id)  # the sign-up says it is under way again
