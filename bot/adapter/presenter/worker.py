"""One worker task per game makes its Discord calls in order: the table edit (at most one a
`gap`), the notices, the turn ping and the open hands, retried when Discord fails. It starts
only once the click that made the change is answered, so it never delays an answer."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import time
from typing import Any

import discord

from bot.i18n import t
from bot.session import Sessions
from bot.ui import ids, render
from bot.ui.widgets import button, view_of

from .. import governor as rest
from ..buttons import as_sent
from .anchor import Anchoring, Followups
from .catch_up import catch_up
from .channel import ANSWERING_TASK, ANSWERING_TOKEN, Channel, Discord, set_table_id
from .drawing import Drawing
from .hand_tokens import HAND_TOKEN_LIFE, OpenHands, now

log = logging.getLogger(__name__)
RETRIES = (0.5, 2.0, 5.0)  # seconds between tries of a failing table edit
OWED_RETRIES = (*RETRIES, 15.0, 30.0, 60.0)  # an owed message: then every minute until it lands
EDIT_GAP = 1.0  # seconds between a game's table edits: well inside Discord's channel rate limit
QUIET_WAIT = 0.25  # seconds background work waits, at most, for the clicks being answered


class Worker:
    def __init__(
        self,
        client: Discord,
        sessions: Sessions,
        channels: dict[int, Channel],
        hands: OpenHands,
        drawing: Drawing,
        gap: float = EDIT_GAP,
        anchoring: Anchoring | None = None,
    ) -> None:
        self.discord = client
        self.anchoring = anchoring or Anchoring(sessions, channels, hands, Followups(), self.kick)
        self.sessions = sessions
        self.channels = channels
        self.hands = hands
        self.drawing = drawing
        self.gap = gap  # seconds between a game's table edits (0: as soon as it changes)
        # Clicks and commands being answered: background work waits for them (a little).
        self._answering: set[asyncio.Task[Any]] = set()
        self._quiet = asyncio.Event()
        self._quiet.set()

    def answering(
        self, task: asyncio.Task[Any], interaction: discord.Interaction | None = None
    ) -> None:
        """A click or command is being answered (interactions.watch) until `task` ends. Its
        token can send the turn ping a change it makes owes, outside the global rate limit."""
        ANSWERING_TASK.set(task)
        token = getattr(interaction, "token", None)  # a stand-in (bench/) may have none
        if interaction is not None and token:
            expires = (interaction.created_at + HAND_TOKEN_LIFE).timestamp()
            ANSWERING_TOKEN.set((interaction.channel_id or 0, token, expires))
        self._answering.add(task)
        self._quiet.clear()
        task.add_done_callback(self._answered)

    def _answered(self, task: asyncio.Task[Any]) -> None:
        self._answering.discard(task)
        if not self._answering:
            self._quiet.set()

    async def _after_answers(self) -> None:
        """Wait (at most QUIET_WAIT) for the clicks being answered: tables are drawn once
        nobody waits for an answer, so a burst of moves in many games is answered first. (The
        click that kicked this work is answered already: `kick`.)"""
        if not self._quiet.is_set():
            quiet = asyncio.ensure_future(self._quiet.wait())
            await asyncio.wait({quiet}, timeout=QUIET_WAIT)
            quiet.cancel()

    def kick(self, ch: Channel) -> None:
        if ch.worker is not None and not ch.worker.done():
            return
        after = ANSWERING_TASK.get()
        if after is None or after.done():
            ch.worker = asyncio.create_task(self._work(ch), name=f"table-{ch.game_id}")
            return
        # Kicked in a click's handler: the work waits for the click to be answered, and its
        # task is made only then (made now, it and its first step ran in the click: ~15 us).
        # Until then a bare future holds its place: cancelled (close), no task is made.
        slot: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        ch.worker = slot
        after.add_done_callback(lambda _: self._begin(ch, slot))

    def _begin(self, ch: Channel, slot: asyncio.Future[None]) -> None:
        if slot.done():  # cancelled meanwhile
            return
        task = asyncio.create_task(self._work(ch), name=f"table-{ch.game_id}")
        if ch.worker is slot:
            ch.worker = task

        def ended(_: object) -> None:
            if not slot.done():
                slot.set_result(None)

        task.add_done_callback(ended)

    def running(self) -> list[asyncio.Future[None]]:
        return [ch.worker for ch in self.channels.values() if ch.worker and not ch.worker.done()]

    async def _work(self, ch: Channel) -> None:
        rest.SERVER.set(ch.guild_id)  # this task's: its requests take their server's turns
        await self._after_answers()
        # Anything else failing (the database, a drawing) is retried too, with the same
        # backoff, until it works or the game is gone; logged once per game.
        for failures in itertools.count():
            try:
                await self._round(ch)
                return
            except Exception:
                if failures == 0:
                    log.exception("game %s: could not update its messages; retrying", ch.game_id)
                await asyncio.sleep(OWED_RETRIES[min(failures, len(OWED_RETRIES) - 1)])
                if self.channels.get(ch.game_id) is not ch:
                    return  # the game is gone: nothing left to show

    async def _round(self, ch: Channel) -> None:
        if ch.unread:
            await catch_up(self.sessions, ch)
        for attempt in itertools.count():
            try:
                await self._flush(ch)
                break
            except (discord.Forbidden, discord.NotFound) as exc:
                # Discord refuses the channel (deleted, or no longer visible) for good: trying
                # again would only pile up invalid requests. What the game owes is settled.
                if not ch.refused:
                    log.warning("game %s: Discord refuses its channel (%s); not retrying",
                                ch.game_id, exc.status)  # fmt: skip
                ch.refused = True
                ch.dirty, ch.notices = False, []
                ch.ping_done = ch.ping_user
                if not ch.owed:
                    return
                break
            except discord.HTTPException as exc:
                log.warning("game %s: Discord said %s; retrying", ch.game_id, exc.status)
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
                ch.owed = False
            self.channels.pop(ch.game_id, None)
            self.hands.forget(ch.game_id)
            if ch.tokens_only:
                self.anchoring.done(ch)
            if ch.nudge is not None:
                ch.nudge.cancel()

    async def _flush(self, ch: Channel) -> None:
        while ch.dirty or ch.hands or ch.notices or ch.ping_user != ch.ping_done:
            # The turn ping first: it never waits behind its table's turn of the budget.
            if ch.ping_user != ch.ping_done:
                with rest.priority(rest.Priority.PING):
                    await self._send_ping(ch, ch.ping_user)
            if ch.dirty:
                await self._wait_for_slot(ch)
                # Its turn of the REST budget comes before it is drawn: it shows the game as
                # it is then, never an edit queued behind a newer one (bot/adapter/governor.py).
                owed = ch.owed or ch.closing is not None
                level = rest.Priority.OWED if owed else rest.Priority.TABLE
                # Through the Start click's token, while it lives, it waits for no budget.
                # A game the bot token cannot reach never spends the bot's budget.
                exempt = ch.tokens_only or self._table_voice(ch) is not None
                async with rest.turn(self.discord, level, table=ch.game_id, exempt=exempt):
                    ch.dirty = False
                    await self._send_table(ch)
            while ch.notices:
                notice = as_sent(ch.notices[0].send_kwargs())
                if ch.tokens_only:  # through a token with a follow-up left, if one lives
                    await self.anchoring.send(ch, **notice)
                else:
                    target = self.discord.get_partial_messageable(
                        ch.channel_id, guild_id=ch.guild_id
                    )
                    with rest.priority(rest.Priority.OWED):
                        await target.send(**notice)
                ch.notices.pop(0)  # only once sent: a failed send is retried
            while ch.hands:
                await self.hands.refresh(ch, ch.hands.pop())

    async def _wait_for_slot(self, ch: Channel) -> None:
        """At most one table edit a `gap`: the first after a quiet spell goes at once, later
        ones wait, and what changed meanwhile goes in one edit (hands are refreshed after
        it, so they are coalesced too)."""
        wait = ch.edited + self.gap - time.monotonic()
        if wait > 0:
            await asyncio.sleep(wait)

    async def _send_table(self, ch: Channel) -> None:
        # After a failed edit with the picture, the retry sends the table in words alone: a
        # picture that cannot be uploaded never leaves the channel with a stale table.
        try:
            message = await self.drawing.of(ch, image=not ch.words_only)
        except Exception:
            ch.dirty = True  # so the retry draws it again
            raise
        target = self.discord.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id)
        try:
            await self._put_table(ch, target, message)
        except Exception as exc:
            ch.dirty = True  # so the retry sends it again
            ch.words_only = isinstance(exc, discord.HTTPException) and bool(message.images)
            raise
        else:
            ch.words_only = False
        finally:
            ch.edited = time.monotonic()

    async def _put_table(
        self, ch: Channel, target: discord.PartialMessageable, message: render.Message
    ) -> None:
        """Edit the table message (through the Start click's token while it lives: not bound
        to the global rate limit); post it again if it is gone."""
        if ch.tokens_only:  # never the bot token: the anchor, or a fresher token (anchor.py)
            await self.anchoring.put(ch, message)
            return
        voice = self._table_voice(ch)
        if ch.table_id is not None and voice is not None:
            try:
                await self.hands.webhooks(voice[0]).edit(None, **as_sent(message.kwargs()))
                return
            except discord.HTTPException as exc:
                log.info("game %s: table not edited through its token (%s)", ch.game_id,
                         exc.status)  # fmt: skip
                ch.table_token = None  # the bot token's edit below, or a new table
        if ch.table_id is not None:
            try:
                await target.get_partial_message(ch.table_id).edit(**as_sent(message.kwargs()))
                return
            except discord.NotFound:
                log.info("game %s: the table message is gone; posting a new one", ch.game_id)
        if ch.closing is not None:
            return  # no table to replace: nothing to say that the game is gone
        sent = await target.send(**as_sent(message.send_kwargs()))
        await set_table_id(self.sessions, ch, sent.id)

    async def _send_ping(self, ch: Channel, user: str | None) -> None:
        """The turn ping names `user` now (None: no ping). It is sent, and the old one deleted,
        through an interaction token of the game when one lives: those calls are not bound to
        the bot's global rate limit (docs/operations.md)."""
        target = self.discord.get_partial_messageable(ch.channel_id, guild_id=ch.guild_id)
        old, ch.ping_id = ch.ping_id, None
        old_token, ch.ping_token = ch.ping_token, None
        if old is not None:
            await self._delete_ping(target, old, old_token, ch.tokens_only)
        new, voice = None, None
        if user is not None:
            text = t(ch.lang, "ping.turn", user=render.mention(user))
            if ch.table_id is not None:
                url = ch.jump_url(ch.table_id)
                text = t(ch.lang, "ping.turn_link", user=render.mention(user), url=url)
            extra: dict[str, Any] = {}
            if not self.hands.alive(ch.game_id, user):  # no hand to refresh: one click opens one
                mine = button(ids.table("hand", ch.game_id), t(ch.lang, "table.button.hand"),
                              discord.ButtonStyle.primary, emoji="🃏")  # fmt: skip
                extra = as_sent({"view": view_of(mine)})
            mention = discord.AllowedMentions(users=[discord.Object(int(user))])
            voice = self._voice(ch)
            try:
                if ch.tokens_only:  # a follow-up of a token with one left; none: no ping
                    fields = {"content": text, "allowed_mentions": mention, **extra}
                    new = await self.anchoring.send(ch, **fields)
                    voice = None if new is None else self.anchoring.sent_by
                elif voice is not None:
                    hook = self.hands.webhooks(voice[0])
                    new = await hook.send(text, allowed_mentions=mention, **extra)
                else:
                    new = (await target.send(text, allowed_mentions=mention, **extra)).id
            except discord.HTTPException as exc:
                log.info("game %s: no turn ping (%s)", ch.game_id, exc.status)
        ch.ping_id, ch.ping_done = new, user
        ch.ping_token = voice if new is not None else None
        with contextlib.suppress(Exception):
            await self.sessions.keep_messages(ch.game_id, ping=new)

    @staticmethod
    def _table_voice(ch: Channel) -> tuple[str, float] | None:
        """The token whose first answer is the table message, if it has a minute left."""
        token = ch.table_token
        return token if token is not None and token[1] > now() + 60 else None

    def _voice(self, ch: Channel) -> tuple[str, float] | None:
        """The game's interaction token that lives longest (a ping it sends can be deleted
        through it later), if one has a minute left."""
        tokens = [*self.hands.voices(ch.game_id), *([ch.voice] if ch.voice else [])]
        best = max(tokens, key=lambda tok: tok[1], default=None)
        return best if best is not None and best[1] > now() + 60 else None

    async def _delete_ping(
        self,
        target: discord.PartialMessageable,
        ping: int,
        token: tuple[str, float] | None,
        tokens_only: bool = False,
    ) -> None:
        if tokens_only and (token is None or token[1] <= now()):
            return  # nothing but its own token may delete it: it stays
        if token is not None and token[1] > now():
            try:
                await self.hands.webhooks(token[0]).delete(ping)
                return
            except discord.NotFound:
                return  # deleted already
            except discord.HTTPException:
                if tokens_only:
                    return
                # the bot's own delete below
        with contextlib.suppress(discord.HTTPException):
            await target.get_partial_message(ping).delete()
