"""Keeps each game's channel messages in step with the game: the table, the turn ping and the
players' open hand messages.

Session events only mark what is out of date; one worker task per game then does the API
calls in order. So a slow or failing Discord call never holds up a move, and a burst of
moves costs one table edit, not one each.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import itertools
import logging
import math
import time
from collections.abc import Collection, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any, Protocol

import discord

from bot.domain.seats import is_ai
from bot.engine import Event as EngineEvent
from bot.engine import record, replay
from bot.i18n import DEFAULT, language_of, t
from bot.session import Lobby, Sessions, Table
from bot.session.events import (
    Away,
    Back,
    Closed,
    EndOwed,
    Event,
    Forfeited,
    GameOver,
    Moved,
    Started,
)
from bot.ui import hand as hand_ui
from bot.ui import ids, render
from bot.ui import table as tables
from bot.ui.final import final
from bot.ui.highlights import Highlights, Tally, highlights
from bot.ui.picture import FinalScene, LastMove, Scene, TableCache
from bot.ui.text import describe, names_of
from bot.ui.widgets import button, view_of

from ..buttons import dynamic
from ..hands import drawn

log = logging.getLogger(__name__)
HAND_TOKEN_LIFE = timedelta(minutes=14)  # interaction tokens last 15 minutes
LOG_KEEP = 20
RETRIES = (0.5, 2.0, 5.0)  # seconds between tries of a failing table edit
OWED_RETRIES = (*RETRIES, 15.0, 30.0, 60.0)  # an owed message: then every minute until it lands
EDIT_GAP = 1.0  # seconds between a game's table edits: well inside Discord's channel rate limit
QUIET_WAIT = 0.25  # seconds background work waits, at most, for the clicks being answered
# The task answering the current click or command (`Presenter.answering`): a move's background
# work starts only once it is done, so it never delays the answer.
ANSWERING_TASK: contextvars.ContextVar[asyncio.Task[Any] | None] = contextvars.ContextVar(
    "answering", default=None
)


@dataclass
class Channel:
    """One game's messages and what still has to be sent."""

    game_id: int
    guild_id: int
    channel_id: int
    table_id: int | None = None
    ping_id: int | None = None
    table: Table | None = None  # the latest state; kept after the game ends or is cancelled
    lang: str = DEFAULT  # of the public messages (lobby, table, ping); see render.public_lang
    log: list[str] = field(default_factory=list)
    last: LastMove | None = None  # the move the picture marks
    edited: float = -math.inf  # when the table was last edited (time.monotonic)
    words_only: bool = False  # the last edit with the picture failed: send the words alone
    closing: render.Message | None = None  # replaces the table once the game is cancelled
    dirty: bool = False
    ping_user: str | None = None  # whom the ping should name; None: no ping
    ping_done: str | None = None  # whom the current ping names
    hands: set[str] = field(default_factory=set)  # players whose hand message needs a refresh
    notices: list[render.Message] = field(default_factory=list)  # to post after the table
    # Not shown by this process yet (restored, or ended or cancelled before a restart): its
    # stored message ids and move log are read before its first send (`_catch_up`).
    unread: bool = False
    tally: Tally | None = None  # the highlights of every move seen; None: replayed at the end
    owed: bool = False  # shows how the game ended: retried until it lands (see _work)
    worker: asyncio.Task[None] | None = None


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


class Discord(Protocol):
    """What the presenter needs of the client: a channel to send to and edit in."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...


class Presenter:
    def __init__(self, client: Discord, sessions: Sessions, gap: float = EDIT_GAP) -> None:
        self.discord = client
        self.sessions = sessions
        self.gap = gap  # seconds between a game's table edits (0: as soon as it changes)
        self.pictures = TableCache()  # drawn once per game version, for every viewer
        # Pictures are drawn in one thread of their own: a burst of games drawing at once
        # queues there instead of taking the event loop's turn (the GIL) from the clicks.
        self.painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="picture")
        self.channels: dict[int, Channel] = {}
        # Clicks and commands being answered: background work waits for them (a little).
        self._answering: set[asyncio.Task[Any]] = set()
        self._quiet = asyncio.Event()
        self._quiet.set()
        # (game id, player id) -> the newest hand message of that player, and its token
        self.hand_tokens: dict[tuple[int, str], HandRef] = {}
        self._hand_edits: set[asyncio.Task[None]] = set()  # older hands being told "moved ↓"

    def names(self, ch: Channel) -> dict[str, str]:
        return self.sessions.names_in(ch.guild_id)

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
                ch = self.channel(event.game_id, event.guild_id, event.channel_id)
                ch.notices.append(ended)
        self.cancelled(event.game_id, message, event.guild_id, event.channel_id)

    async def deliver_owed(self) -> None:
        """At start-up: show what games that ended before a restart still owe their channels
        (end screens, closings), as the outbox keeps it."""
        for item in await self.sessions.owed():
            if item.game_id in self.channels:
                continue  # already being shown (ended during restore)
            if not isinstance(item, EndOwed):
                self.closed(item)
                continue
            table = await self.sessions.ended_table(item.game_id)
            if table is None:
                await self.sessions.delivered(item.game_id)  # nothing left to show
                continue
            self.ended(table)

    def channel(self, game_id: int, guild_id: int, channel_id: int) -> Channel:
        ch = self.channels.get(game_id)
        if ch is None:
            # Unread until a lobby's post or a start says which messages are its own.
            ch = self.channels[game_id] = Channel(game_id, guild_id, channel_id, unread=True)
        return ch

    # ----- what changed

    async def lobby_posted(self, lobby: Lobby, message_id: int) -> None:
        """The lobby's message was posted: it is the game's message (the table, once it
        starts), kept in storage so a restart finds it."""
        ch = self.channel(lobby.game_id, lobby.guild_id, lobby.channel_id)
        ch.lang, ch.unread = render.public_lang(lobby), False
        await self._set_table_id(ch, message_id)
        await self.sessions.keep_messages(lobby.game_id, lobby=message_id)

    def started(self, table: Table, message_id: int | None) -> Channel:
        """The lobby message became the table: `message_id`, else the one this channel knows
        (None for a match's next game: a new table is posted)."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id)
        ch.table, ch.dirty, ch.unread = table, True, False
        ch.tally = Tally(len(table.seats)) if table.version == 0 else None
        if message_id is not None:
            ch.table_id = message_id
        ch.lang = render.public_lang(table)
        self._turn_changed(ch, table)
        self.kick(ch)
        return ch

    def table_shown(self, table: Table, version: int) -> None:
        """A click's answer drew the table at `version` into its message itself: unless a
        move came since, there is nothing left to edit."""
        ch = self.channels.get(table.game_id)
        if ch is not None and ch.table is table and table.version == version:
            ch.dirty = False

    def moved(self, event: Moved) -> None:
        table = event.table
        ch = self.channel(table.game_id, table.guild_id, table.channel_id)
        ch.table, ch.lang = table, render.public_lang(table)
        name = names_of(ch.lang, table.seats, self.names(ch))
        events = list(event.events)
        lines = describe(ch.lang, events, table.game.rules, name)
        ch.log = (ch.log + lines)[-LOG_KEEP:]
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
        ch.hands.update(self._open_hands(table.game_id, but=None if event.auto else event.user_id))
        self._turn_changed(ch, table)
        self.kick(ch)

    def ended(self, table: Table, nxt: Table | None = None) -> None:
        """The game is over: its table shows the result; a match's next game gets a new
        table, and the players' open hand messages move on to it."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id)
        ch.table, ch.dirty, ch.ping_user, ch.owed = table, True, None, True
        ch.lang = render.public_lang(table)
        if nxt is None:
            ch.hands.update(table.seats)
        self.kick(ch)
        if nxt is not None:
            for user in nxt.seats:
                token = self.hand_tokens.pop((table.game_id, user), None)
                if token is not None:
                    self.hand_tokens[(nxt.game_id, user)] = token
            started = self.started(nxt, None)
            started.hands.update(nxt.seats)

    def changed(self, table: Table) -> None:
        """Something shown on the table changed (a forfeit, an away seat)."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id)
        ch.table, ch.dirty = table, True
        self.kick(ch)

    def cancelled(
        self, game_id: int, message: render.Message, guild_id: int, channel_id: int
    ) -> None:
        """The lobby or game's message becomes `message`: owed until it is shown."""
        ch = self.channel(game_id, guild_id, channel_id)
        ch.closing, ch.dirty, ch.ping_user, ch.owed = message, True, None, True
        ch.hands.update(self._open_hands(game_id))  # they say so too, and lose their buttons
        self.kick(ch)

    def notice(self, game_id: int, message: render.Message) -> None:
        """A message to post in the game's channel once its table is up to date."""
        ch = self.channels.get(game_id)
        if ch is None:
            log.info("game %s: no channel known for a notice", game_id)
            return
        ch.notices.append(message)
        self.kick(ch)

    def relink_ping(self, ch: Channel) -> None:
        """The table moved: replace the turn ping, whose link points at the old one."""
        if ch.ping_user is not None:
            ch.ping_done = None
            self.kick(ch)

    def _turn_changed(self, ch: Channel, table: Table) -> None:
        seat = table.turn
        if seat is None or seat in table.away or seat in table.forfeited:
            ch.ping_user = None
            return
        user = table.seats[seat]
        if is_ai(user):  # nobody to ping
            ch.ping_user = None
            return
        ch.hands.add(user)
        if not table.options.get("pings", True):  # the server turned turn pings off
            ch.ping_user = None
            return
        ch.ping_user = user
        ch.ping_done = None  # a new turn: a new ping, even for the same player

    async def _catch_up(self, ch: Channel) -> None:
        """A game this process has not shown yet (restored after a restart, or ended or
        cancelled before it), at its first change: the ids of its messages as stored, and its
        move log and highlights rebuilt from the game (read by then: a change comes from a
        game in use). A cancel needs no read: its table may still be unread."""
        ch.unread = False
        lobby_id, table_id, ping_id = await self.sessions.messages(ch.game_id)
        if ch.table_id is None:
            ch.table_id = table_id or lobby_id
        if ch.ping_id is None:
            ch.ping_id = ping_id
        if ch.table is not None and ch.table.loaded:
            ch.log, ch.last, ch.tally = await self._rebuild_log(ch.table)

    async def _rebuild_log(self, table: Table) -> tuple[list[str], LastMove | None, Tally | None]:
        """The move log, the last move and the highlights so far, from one replay of the
        game's record (in a thread: a long game takes a while)."""
        game = table.game
        events: list[list[EngineEvent]] = []
        if game.moves:
            try:
                await asyncio.to_thread(replay, record(game), events)
            except Exception:
                log.warning("game %s: could not rebuild the move log", table.game_id, exc_info=True)
                return [], None, None
        tally = Tally(len(game.seats))
        for move_events in events:
            tally.add(move_events)
        lang = render.public_lang(table)
        name = names_of(lang, table.seats, self.sessions.names_in(table.guild_id))
        rules = game.rules
        lines = [line for ev in events[-LOG_KEEP:] for line in describe(lang, ev, rules, name)]
        last = next((m for ev in reversed(events) if (m := LastMove.of(ev))), None)
        return lines[-LOG_KEEP:], last, tally

    def link(self, game_id: int) -> str | None:
        """A link to a game's lobby or table message, if it is known."""
        ch = self.channels.get(game_id)
        if ch is None or ch.table_id is None:
            return None
        return render.jump_url(ch.guild_id, ch.channel_id, ch.table_id)

    async def table_now(self, table: Table) -> render.Message:
        """The running game's table as its channel shows it (its move log, the last move)."""
        ch = self.channels.get(table.game_id)
        if ch is None:
            return await self.table_message(table)
        return await self.table_message(table, ch.log, ch.last)

    async def table_reposted(self, table: Table, message_id: int) -> None:
        """/steal table posted the table again as `message_id`: it is the game's table now,
        and the old one becomes a link to it."""
        ch = self.channel(table.game_id, table.guild_id, table.channel_id)
        ch.table = table
        old = ch.table_id
        await self._set_table_id(ch, message_id)
        self.relink_ping(ch)
        if old is None:
            return
        moved = render.table_moved(ch.lang, ch.guild_id, ch.channel_id, message_id)
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
        target = self.discord.get_partial_messageable(lobby.channel_id, guild_id=lobby.guild_id)
        try:
            await target.get_partial_message(ch.table_id).edit(**dynamic(message.kwargs()))
        except discord.HTTPException as exc:
            log.info("lobby %s: message not updated (%s)", lobby.game_id, exc)

    async def refresh(self, game_ids: Sequence[int], redraw: Collection[int] = ()) -> None:
        """After a restart: restored lobby messages are brought up to date now; a restored
        table at its first change (`_catch_up`), so start-up reads no game, or now if it is
        in `redraw` (its time left changed: the restart's grace). Until then a table's message
        shows the game as it stands."""
        for game_id in game_ids:
            table = self.sessions.table_of(game_id)
            if table is not None:  # its channel is read at its first change (unread)
                if game_id in redraw and table.loaded:
                    self.changed(table)
                continue
            lobby = self.sessions.lobby_of(game_id)
            if lobby is not None:
                lobby_id, _, _ = await self.sessions.messages(game_id)
                ch = self.channel(game_id, lobby.guild_id, lobby.channel_id)
                ch.table_id, ch.lang, ch.unread = lobby_id, render.public_lang(lobby), False
                await self.show_lobby(lobby)

    def remember_hand(
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
        old = self.hand_tokens.get((game_id, user_id))
        self.hand_tokens[(game_id, user_id)] = ref
        if old is None or old.origin == ref.origin or not old.alive:
            return
        task = asyncio.create_task(self._hand_moved(old), name=f"hand-moved-{game_id}")
        self._hand_edits.add(task)
        task.add_done_callback(self._hand_edits.discard)

    async def _hand_moved(self, old: HandRef) -> None:
        try:
            await old.edit(hand_ui.moved(language_of(old.interaction.locale)))
        except discord.HTTPException as exc:
            log.debug("an older hand was not marked moved (%s)", exc)

    def _open_hands(self, game_id: int, but: str | None = None) -> set[str]:
        """The players of a game whose hand message can still be edited."""
        return {
            user
            for (game, user), ref in self.hand_tokens.items()
            if game == game_id and user != but and ref.alive
        }

    def _hand_alive(self, game_id: int, user: str) -> bool:
        ref = self.hand_tokens.get((game_id, user))
        return ref is not None and ref.alive

    # ----- doing it

    def answering(self, task: asyncio.Task[Any]) -> None:
        """A click or command is being answered (interactions.watch) until `task` ends."""
        ANSWERING_TASK.set(task)
        self._answering.add(task)
        self._quiet.clear()
        task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task[Any]) -> None:
        self._answering.discard(task)
        if not self._answering:
            self._quiet.set()

    async def _after_answers(self, after: asyncio.Task[Any] | None) -> None:
        """Wait for the click that made this work to be answered, then (at most QUIET_WAIT)
        for the other clicks being answered: tables are drawn once nobody waits for an answer,
        so a burst of moves in many games is answered first."""
        if after is not None and not after.done():
            await asyncio.wait({after})
        if not self._quiet.is_set():
            quiet = asyncio.ensure_future(self._quiet.wait())
            await asyncio.wait({quiet}, timeout=QUIET_WAIT)
            quiet.cancel()

    def kick(self, ch: Channel) -> None:
        if ch.worker is None or ch.worker.done():
            # Made in a click's handler: the work waits for the click to be answered.
            after = ANSWERING_TASK.get()
            ch.worker = asyncio.create_task(self._work(ch, after), name=f"table-{ch.game_id}")

    async def _work(self, ch: Channel, after: asyncio.Task[Any] | None = None) -> None:
        try:
            await self._after_answers(after)
            if ch.unread:
                await self._catch_up(ch)
            for attempt in itertools.count():
                try:
                    await self._flush(ch)
                    break
                except discord.HTTPException as exc:
                    log.warning("game %s: Discord said %s; retrying", ch.game_id, exc)
                    if not ch.owed and attempt == len(RETRIES):
                        log.error("game %s: giving up on the table until the next move", ch.game_id)
                        return
                    # A message a game owes (end screen, closing) is tried until it lands; it is
                    # in storage's outbox meanwhile, so a restart tries again too.
                    delays = OWED_RETRIES if ch.owed else RETRIES
                    await asyncio.sleep(delays[min(attempt, len(delays) - 1)])
            if ch.closing is not None or (ch.table is not None and ch.table.game.over):
                if ch.owed:
                    await self.sessions.delivered(ch.game_id)
                self.channels.pop(ch.game_id, None)
                self._forget_hands(ch.game_id)
        except Exception:
            log.exception("game %s: could not update its messages", ch.game_id)

    async def _flush(self, ch: Channel) -> None:
        while ch.dirty or ch.hands or ch.notices or ch.ping_user != ch.ping_done:
            if ch.dirty:
                await self._wait_for_slot(ch)
                ch.dirty = False
                await self._send_table(ch)
            while ch.notices:
                target = self.discord.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id)
                await target.send(**dynamic(ch.notices[0].send_kwargs()))
                ch.notices.pop(0)  # only once sent: a failed send is retried
            if ch.ping_user != ch.ping_done:
                await self._send_ping(ch, ch.ping_user)
            while ch.hands:
                await self._refresh_hand(ch, ch.hands.pop())

    async def _wait_for_slot(self, ch: Channel) -> None:
        """At most one table edit a `gap`: the first after a quiet spell goes at once, later
        ones wait, and what changed meanwhile goes in one edit (hands are refreshed after
        it, so they are coalesced too)."""
        wait = ch.edited + self.gap - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)

    async def table_message(
        self,
        table: Table,
        moves: Sequence[str] = (),
        last: LastMove | None = None,
        *,
        image: bool = True,
        tally: Tally | None = None,
    ) -> render.Message:
        """A game's table, or its end screen once it is over, in its public language, with its
        picture (drawn in a thread, once per game version) unless `image` is False. The end
        screen's highlights are `tally`'s if it saw every move, else the game replayed."""
        lang = render.public_lang(table)
        names = self.sessions.names_in(table.guild_id)
        if table.game.over:
            assert table.standing is not None  # the session sets it as the game ends
            png = None
            if image:
                scene = FinalScene.of(table, names, lang, table.standing.places)
                png = await self._draw(scene)
            return final(lang, table, names, await self._highlights(table, tally), png)
        png = None
        if image:
            png = await self._draw(Scene.of(table, names, lang, last=last))
        return tables.table(lang, table, names, moves, png)

    @staticmethod
    async def _highlights(table: Table, tally: Tally | None) -> Highlights:
        if tally is not None and tally.moves == table.version:
            return tally.result()
        return await asyncio.to_thread(highlights, table.game)  # no moves seen: played again

    async def _draw(self, scene: Scene | FinalScene) -> bytes:
        """The picture of a scene, from the cache or drawn in the painter's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.painter, self.pictures.picture, scene)

    async def _table_message(self, ch: Channel, *, image: bool = True) -> render.Message:
        if ch.closing is not None:
            return ch.closing
        assert ch.table is not None
        return await self.table_message(ch.table, ch.log, ch.last, image=image, tally=ch.tally)

    async def _send_table(self, ch: Channel) -> None:
        # After a failed edit with the picture, the retry sends the table in words alone: a
        # picture that cannot be uploaded never leaves the channel with a stale table.
        message = await self._table_message(ch, image=not ch.words_only)
        target = self.discord.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id)
        try:
            await self._put_table(ch, target, message)
        except discord.HTTPException:
            ch.dirty = True  # so the retry sends it again
            ch.words_only = bool(message.images)
            raise
        else:
            ch.words_only = False
        finally:
            ch.edited = time.monotonic()

    async def _put_table(
        self, ch: Channel, target: discord.PartialMessageable, message: render.Message
    ) -> None:
        """Edit the table message; post it again if it is gone."""
        if ch.table_id is not None:
            try:
                await target.get_partial_message(ch.table_id).edit(**dynamic(message.kwargs()))
                return
            except discord.NotFound:
                log.info("game %s: the table message is gone; posting a new one", ch.game_id)
        if ch.closing is not None:
            return  # no table to replace: nothing to say that the game is gone
        sent = await target.send(**dynamic(message.send_kwargs()))
        await self._set_table_id(ch, sent.id)

    async def _set_table_id(self, ch: Channel, message_id: int) -> None:
        ch.table_id = message_id
        try:
            await self.sessions.keep_messages(ch.game_id, table=message_id)
        except Exception:
            log.warning("game %s: could not store the table message id", ch.game_id)

    async def _send_ping(self, ch: Channel, user: str | None) -> None:
        target = self.discord.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id)
        old, ch.ping_id = ch.ping_id, None
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await target.get_partial_message(old).delete()
        new = None
        if user is not None:
            text = t(ch.lang, "ping.turn", user=render.mention(user))
            if ch.table_id is not None:
                url = render.jump_url(ch.guild_id, ch.channel_id, ch.table_id)
                text = t(ch.lang, "ping.turn_link", user=render.mention(user), url=url)
            extra: dict[str, Any] = {}
            if not self._hand_alive(ch.game_id, user):  # no hand to refresh: one click opens one
                mine = button(ids.table("hand", ch.game_id), t(ch.lang, "table.button.hand"),
                              discord.ButtonStyle.primary, emoji="🃏")  # fmt: skip
                extra = dynamic({"view": view_of(mine)})
            try:
                sent = await target.send(
                    text,
                    allowed_mentions=discord.AllowedMentions(users=[discord.Object(int(user))]),
                    **extra,
                )
                new = sent.id
            except discord.HTTPException as exc:
                log.info("game %s: no turn ping (%s)", ch.game_id, exc)
        ch.ping_id, ch.ping_done = new, user
        with contextlib.suppress(Exception):
            await self.sessions.keep_messages(ch.game_id, ping=new)

    async def _refresh_hand(self, ch: Channel, user: str) -> None:
        """Redraw a player's open hand as the game is now; at its end, the result."""
        ref = self.hand_tokens.get((ch.game_id, user))
        table = ch.table
        if ref is None or table is None:
            return
        if not ref.alive:
            self.hand_tokens.pop((ch.game_id, user), None)
            return
        if not ref.interaction.response.is_done():
            return  # a click still being answered: its answer draws this hand as it is now
        seat = table.seat_of(user)
        if seat is None:
            return
        # A hand is ephemeral: in the language of the player who opened it.
        lang = language_of(ref.interaction.locale)
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
            if self.hand_tokens.get((ch.game_id, user)) is ref:
                self.hand_tokens.pop((ch.game_id, user), None)

    def _forget_hands(self, game_id: int) -> None:
        for key in [k for k in self.hand_tokens if k[0] == game_id]:
            del self.hand_tokens[key]

    async def close(self) -> None:
        tasks = [ch.worker for ch in self.channels.values() if ch.worker and not ch.worker.done()]
        tasks += self._hand_edits
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.painter.shutdown(wait=False)
