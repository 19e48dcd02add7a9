"""What happened, marked on the game's channel: session events, and what the cogs report
(a lobby posted, a table shown or posted again). Marking never waits on Discord; the worker,
kicked here, sends what is out of date. Only the cogs' reports make their one call in place."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections.abc import Callable

import discord

from bot import metrics
from bot.domain.place import Place
from bot.domain.seats import is_ai
from bot.i18n import DEFAULT
from bot.session import Lobby, Sessions, Table
from bot.session.events import (
    Away,
    Back,
    Closed,
    Event,
    Forfeited,
    GameOver,
    Moved,
    Started,
)
from bot.ui import render
from bot.ui.highlights import Tally
from bot.ui.picture import LastMove
from bot.ui.text import describe, names_of

from ..buttons import as_sent
from .anchor import Anchoring
from .channel import ANSWERING_TOKEN, LOG_KEEP, Channel, Discord, set_table_id
from .hand_tokens import OpenHands, now

log = logging.getLogger(__name__)
# A player whose open hand wakes up on their turn gets no ping, unless it sits idle this long
# (seconds): then a nudge. Measured in docs/operations.md ("Requests and the global limit").
NUDGE_AFTER = 30.0
FRESH = 10 * 60.0  # seconds: a hand shown this recently is one its player is looking at


class Intake:
    def __init__(
        self,
        client: Discord,
        sessions: Sessions,
        channels: dict[int, Channel],
        hands: OpenHands,
        kick: Callable[[Channel], None],
        anchoring: Anchoring,
    ) -> None:
        self.discord = client
        self.anchoring = anchoring
        self.sessions = sessions
        self.channels = channels
        self.hands = hands
        self.kick = kick  # the worker's: starts the game's worker unless it is running

    def names(self, ch: Channel) -> dict[str, str]:
        return self.sessions.names_in(ch.guild_id)

    def channel(
        self, game_id: int, guild_id: int, channel_id: int, place: Place | None = None
    ) -> Channel:
        ch = self.channels.get(game_id)
        if ch is None:
            # Unread until a lobby's post or a start says which messages are its own.
            ch = self.channels[game_id] = Channel(game_id, guild_id, channel_id, unread=True)
            live = self.sessions.table_of(game_id) or self.sessions.lobby_of(game_id)
            ch.place = place if live is None else live.place
            self.anchoring.adopt(ch)  # its anchor, read back after a restart
            # A DM's key is its channel's id; an old server's first channel may share the
            # server's id too, but that server is one the bot is in.
            ch.dm = ch.place is not None and ch.place.guild_id is None
            ch.dm = ch.dm or (guild_id == channel_id and self.discord.get_guild(guild_id) is None)
        return ch

    # ----- session events

    async def on_event(self, event: Event) -> None:
        """Called by the session layer; only marks work, never waits on Discord."""
        match event:
            case Started(table, message_id):
                self.started(table, message_id)
            case Moved():
                self.moved(event)
            case GameOver(table, nxt):
                self.ended(table, nxt)
            case Away(game_id) | Back(game_id) | Forfeited(game_id):
                live = self.sessions.table_of(game_id)
                if live is not None:
                    self.changed(live)
            case Closed():
                self.closed(event)

    def closed(self, event: Closed) -> None:
        """A lobby or game ended without a result: its message says so, in its language."""
        lang = event.lang or DEFAULT
        if event.reason == "lobby_expired":
            message = render.lobby_expired(lang, event.seconds or 600)
        elif event.reason == "lobby_closed":
            message = render.lobby_emptied(lang)
        else:
            what, by, admin = event.what, event.by or "", event.admin
            names = self.sessions.names_in(event.guild_id)
            message = render.cancelled(lang, what, by, names, admin)
            if admin:
                ended = render.ended_by_admin(lang, what, by, list(event.players))
                ch = self.channel(event.game_id, event.guild_id, event.channel_id, event.place)
                ch.notices.append(ended)
        self.cancelled(event.game_id, message, event.guild_id, event.channel_id, event.place)

    def started(self, table: Table, message_id: int | None) -> Channel:
        """The lobby message became the table: `message_id`, else the one this channel knows
        (None for a match's next game: a new table is posted)."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id, table.place)
        ch.table, ch.dirty, ch.unread, ch.place = table, True, False, table.place
        ch.tally = Tally(len(table.seats)) if table.version == 0 else None
        if message_id is not None:
            ch.table_id = message_id
        ch.lang = render.public_lang(table)
        self._heard_now(ch)
        self._turn_changed(ch, table)
        self.kick(ch)
        return ch

    def moved(self, event: Moved) -> None:
        table = event.table
        ch = self.channel(table.game_id, table.guild_id, table.channel_id, table.place)
        ch.table, ch.lang = table, render.public_lang(table)
        known = self.names(ch)  # the seats' names as they are now: the line says them later
        seated = {seat: known[seat] for seat in table.seats if seat in known}
        name = names_of(ch.lang, table.seats, seated)
        events = list(event.events)
        ch.unsaid.append(functools.partial(describe, ch.lang, events, table.game.rules, name))
        if len(ch.unsaid) > LOG_KEEP:  # a table not drawn for long (refused): said now
            ch.say()
        ch.last = LastMove.of(events) or ch.last
        if ch.tally is not None:
            if event.version == ch.tally.moves + 1:
                ch.tally.add(events)
            elif event.version > ch.tally.moves + 1:  # a move not seen: replayed at the end
                ch.tally = None
        ch.dirty = True
        dealt = any(e["type"] == "hands_dealt" for e in events)
        if dealt or event.auto:
            ch.hands.update(table.seats if dealt else [event.user_id])
        # The mover's hand is drawn by their click's answer, if it is the one they clicked.
        clicked = not event.auto and self.hands.answering(table.game_id, event.user_id)
        ch.hands.update(self.hands.open(table.game_id, but=event.user_id if clicked else None))
        self._heard_now(ch)
        self._turn_changed(ch, table, None if event.auto else event.user_id)
        self.kick(ch)

    def ended(self, table: Table, nxt: Table | None = None) -> None:
        """The game is over: its table shows the result; a match's next game gets a new
        table, and the players' open hand messages move on to it."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id, table.place)
        ch.table, ch.dirty, ch.ping_user, ch.owed = table, True, None, True
        ch.lang = render.public_lang(table)
        self._no_nudge(ch)
        if nxt is None:
            ch.hands.update(table.seats)
        self.kick(ch)
        if nxt is not None:
            self.hands.move_on(table.game_id, nxt)
            started = self.started(nxt, None)
            started.hands.update(nxt.seats)

    def changed(self, table: Table) -> None:
        """Something shown on the table changed (a forfeit, an away seat)."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id, table.place)
        ch.table, ch.dirty = table, True
        self.kick(ch)

    def cancelled(
        self,
        game_id: int,
        message: render.Message,
        guild_id: int,
        channel_id: int,
        place: Place | None = None,
    ) -> None:
        """The lobby or game's message becomes `message`: owed until it is shown."""
        ch = self.channel(game_id, guild_id, channel_id, place)
        ch.closing, ch.dirty, ch.ping_user, ch.owed = message, True, None, True
        self._no_nudge(ch)
        ch.hands.update(self.hands.open(game_id))  # they say so too, and lose their buttons
        self.kick(ch)

    def relink_ping(self, ch: Channel) -> None:
        """The table moved: replace the turn ping, whose link points at the old one."""
        if ch.ping_user is not None:
            ch.ping_done = None
            self.kick(ch)

    def _heard_now(self, ch: Channel) -> None:
        """A change made while a click in the game's channel is answered: that click's token
        is the newest the game has (its ping can go through it)."""
        clicked = ANSWERING_TOKEN.get()
        if clicked is None or clicked[0] != ch.channel_id:
            return
        if ch.voice is None or ch.voice[1] < clicked[2]:
            ch.voice = clicked[1], clicked[2]

    def _turn_changed(self, ch: Channel, table: Table, mover: str | None = None) -> None:
        """Whose turn it is now: their hand wakes up, and they are pinged unless that helps
        nobody (see `_watching`); the old ping goes either way."""
        self._no_nudge(ch)
        seat = table.turn
        if seat is None or seat in table.away or seat in table.forfeited:
            ch.ping_user = None
            return
        user = table.seats[seat]
        if is_ai(user):  # nobody to ping
            ch.ping_user = None
            return
        ch.hands.add(user)
        if table.setup.pings is False:  # the server turned turn pings off
            ch.ping_user = None
            return
        if self._watching(table, user, mover):
            ch.ping_user = None
            loop = asyncio.get_running_loop()
            ch.nudge = loop.call_later(NUDGE_AFTER, self._nudge, ch, table.version, user)
            return
        ch.ping_user = user
        ch.ping_done = None  # a new turn: a new ping, even for the same player

    def _watching(self, table: Table, user: str, mover: str | None) -> bool:
        """A ping would not help: the player's open hand is fresh (it wakes up for their turn),
        or they are the only person at the table and just moved."""
        people = {seat for seat in table.seats if not is_ai(seat)}
        if people == {user} and mover == user:
            return True
        return self.hands.fresh(table.game_id, user, now() - FRESH)

    def _nudge(self, ch: Channel, version: int, user: str) -> None:
        """The player's hand sat idle on their turn: ping them after all."""
        ch.nudge = None
        table = ch.table
        if self.channels.get(ch.game_id) is not ch or table is None or ch.closing is not None:
            return
        if table.version != version or table.game.over:
            return
        ch.ping_user, ch.ping_done = user, None
        self.kick(ch)

    @staticmethod
    def _no_nudge(ch: Channel) -> None:
        if ch.nudge is not None:
            ch.nudge.cancel()
            ch.nudge = None

    # ----- what the cogs report

    async def lobby_posted(self, lobby: Lobby, message_id: int) -> None:
        """The lobby's message was posted: it is the game's message (the table, once it
        starts), kept in storage so a restart finds it."""
        ch = self.channel(lobby.game_id, lobby.guild_id, lobby.channel_id, lobby.place)
        ch.lang, ch.unread, ch.place = render.public_lang(lobby), False, lobby.place
        await set_table_id(self.sessions, ch, message_id)
        self.anchoring.anchored(ch)  # the command's answer: the lobby, then the table
        await self.sessions.keep_messages(lobby.game_id, lobby=message_id)

    def table_shown(self, table: Table, version: int) -> None:
        """A click's answer drew the table at `version` into its message itself: unless a
        move came since, there is nothing left to edit. That click's token edits the table
        from now on, while it lives ("@original" is the table message): outside the global
        rate limit."""
        ch = self.channels.get(table.game_id)
        if ch is None:
            return
        clicked = ANSWERING_TOKEN.get()
        if clicked is not None and clicked[0] == ch.channel_id:
            ch.table_token = clicked[1], clicked[2]
        self.anchoring.anchored(ch)
        if ch.table is table and table.version == version:
            ch.dirty = False
            metrics.TABLES.shown(table.game_id, metrics.TABLES.drawing(table.game_id))

    async def table_reposted(self, table: Table, message_id: int) -> None:
        """/steal table posted the table again as `message_id`: it is the game's table now,
        and the old one becomes a link to it."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id, table.place)
        ch.table = table
        old, anchor = ch.table_id, ch.anchor
        await set_table_id(self.sessions, ch, message_id)
        self.relink_ping(ch)
        moved = render.table_moved(ch.lang, ch.link_guild, ch.channel_id, message_id)
        if ch.tokens_only:  # the old table through its own token; the command's is the anchor
            self.anchoring.anchored(ch)
            if anchor is not None and old is not None:
                with contextlib.suppress(discord.HTTPException):
                    await self.anchoring.edit(anchor, moved)
            return
        if old is None:
            return
        target = self.discord.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id)
        try:
            await target.get_partial_message(old).edit(**moved.kwargs())
        except discord.HTTPException as exc:
            log.info("game %s: old table not edited (%s)", ch.game_id, exc)

    async def show_lobby(self, lobby: Lobby) -> None:
        """Bring a lobby's message up to date (a change made by a command, or a restart)."""
        ch = self.channels.get(lobby.game_id)
        if ch is None or ch.table_id is None:
            return
        lang = render.public_lang(lobby)
        message = render.lobby(lang, lobby, self.sessions.names_in(lobby.guild_id))
        if ch.tokens_only:  # through its anchor, never the bot token
            if ch.anchor is not None:
                try:
                    await self.anchoring.edit(ch.anchor, message)
                except discord.HTTPException as exc:
                    log.info("lobby %s: message not updated (%s)", lobby.game_id, exc.status)
            return
        target = self.discord.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
        try:
            await target.get_partial_message(ch.table_id).edit(**as_sent(message.kwargs()))
        except discord.HTTPException as exc:
            log.info("lobby %s: message not updated (%s)", lobby.game_id, exc)
