"""A game the bot token cannot reach (a group DM, a server where only a player installed the
app: `Place.tokens_only`) is shown through interaction tokens alone. Its table is the answer to
`/steal new` (later a follow-up), edited through its ANCHOR: the token that made it.

- Every click on the table and every click in a hand that the game uses gives a fresh token
  (`Channel.voice`, the open hands'). A click answered by editing the table (the lobby's
  buttons, Start) makes its token the anchor at once (`anchored`).
- Before the anchor expires (`REPOST_AT` left), the next move's fresh token reposts the table
  as a public follow-up, which becomes the anchor; the old table is edited into a short link
  through its own token.
- With no fresh token when the anchor is about to die (`PAUSE_AT` left), the game pauses:
  its timers stop (`Sessions.pause`; they check `Sessions.anchors` too), the table says so
  through the dying anchor, and the first click on it resumes the game and says it did.
- No token sends more than `MAX_FOLLOWUPS` follow-ups (`Followups`, counted per token). Only
  the anchor's count is stored: after a restart, hand tokens read back send none.
- The anchor is stored (storage's `anchor_tokens`, hand tokens' rules) so a restart finds it.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import replace
from typing import Any

import discord

from bot.domain.values import AnchorToken
from bot.i18n import t
from bot.session import Sessions
from bot.ui import render

from ..buttons import as_sent
from .channel import ANSWERING_TOKEN, Channel, set_table_id
from .hand_tokens import OpenHands, now

log = logging.getLogger(__name__)
REPOST_AT = 7 * 60.0  # seconds the anchor has left: a move's fresher token reposts the table
PAUSE_AT = 60.0  # seconds the anchor has left, and no fresher token: the game pauses
MAX_FOLLOWUPS = 5  # Discord's cap on one token's follow-ups where only a user install is
KEEP_COUNTS = 4096  # tokens whose follow-ups are counted (the oldest are long expired)
GONE = (401, 404)  # a token expired (401, 50027) or failed early, or its message is gone
CAPPED = 40094  # Discord's code for a follow-up past the cap


class Spent(Exception):
    """A token has sent its MAX_FOLLOWUPS follow-ups: it sends no more."""


class Followups:
    """How many follow-ups each token sent (the newest KEEP_COUNTS tokens)."""

    def __init__(self) -> None:
        self.sent: OrderedDict[str, int] = OrderedDict()

    def left(self, token: str) -> int:
        return MAX_FOLLOWUPS - self.sent.get(token, 0)

    def take(self, token: str) -> None:
        """Count one follow-up of `token`; Spent if it has none left."""
        if self.left(token) <= 0:
            raise Spent()
        self.sent[token] = self.sent.get(token, 0) + 1
        self.sent.move_to_end(token)
        while len(self.sent) > KEEP_COUNTS:
            self.sent.popitem(last=False)


class Anchoring:
    def __init__(
        self,
        sessions: Sessions,
        channels: dict[int, Channel],
        hands: OpenHands,
        followups: Followups,
        kick: Callable[[Channel], None],
        read: Callable[[Channel], Awaitable[None]] | None = None,
    ) -> None:
        self.sessions = sessions
        self.channels = channels
        self.hands = hands
        self.followups = followups
        self.kick = kick
        self.read = read  # catch_up: a restored game's message ids and move log
        self.paused: dict[int, Channel] = {}  # game id -> a paused game's channel
        self.sent_by: tuple[str, float] | None = None  # the token of the last `send`
        self.jobs: set[asyncio.Task[None]] = set()  # anchors being stored or forgotten
        self._storing = asyncio.Lock()
        self.pending: dict[int, AnchorToken] = {}  # read back, for a channel not made yet

    # ----- the anchor

    def anchored(self, ch: Channel, message_id: int | None = None) -> None:
        """The click being answered showed the table (its first answer, or `message_id`, its
        follow-up): its token is the anchor now."""
        clicked = ANSWERING_TOKEN.get()
        if not ch.tokens_only or clicked is None or clicked[0] != ch.channel_id:
            return
        self.hold(ch, AnchorToken(ch.game_id, clicked[1], message_id, clicked[2]))

    def hold(self, ch: Channel, anchor: AnchorToken, *, store: bool = True) -> None:
        ch.anchor = anchor
        self.sessions.anchors.hold(ch.game_id, anchor.expires_at)
        if ch.pausing is not None:
            ch.pausing.cancel()
        delay = max(0.0, anchor.expires_at - PAUSE_AT - now())
        ch.pausing = asyncio.get_running_loop().call_later(delay, self._pause, ch, anchor)
        if store:
            self._spawn(self.store(anchor), f"anchor-{ch.game_id}")

    async def store(self, anchor: AnchorToken) -> None:
        """Keep the anchor, with its follow-ups so far, for a restart. One store at a time,
        its count read inside: an older count never lands after a newer one."""
        async with self._storing:
            sent = MAX_FOLLOWUPS - self.followups.left(anchor.token)
            with contextlib.suppress(Exception):  # a restart then finds the game paused
                await self.sessions.game_messages.keep_anchor(replace(anchor, followups=sent))

    def fresh(self, ch: Channel, longer_than: float) -> tuple[str, float] | None:
        """The game's newest click token that outlives `longer_than` (unix seconds) and can
        still send two follow-ups (the table and a ping)."""
        tokens = [*self.hands.voices(ch.game_id), *([ch.voice] if ch.voice else [])]
        usable = [
            tok for tok in tokens if tok[1] > longer_than and self.followups.left(tok[0]) >= 2
        ]
        return max(usable, key=lambda tok: tok[1], default=None)

    async def put(self, ch: Channel, message: render.Message) -> None:
        """Show the table through the anchor; repost it through a fresher token first when
        the anchor has less than REPOST_AT left (or is gone)."""
        anchor = ch.anchor
        alive = anchor is not None and anchor.expires_at > now() + 5
        if anchor is not None and alive and anchor.expires_at - now() > REPOST_AT:
            if await self._edit_or_lose(ch, anchor, message):
                return
            anchor, alive = None, False
        posted = await self._post(ch, message, (anchor.expires_at if anchor and alive else now()))
        if posted is None:
            if anchor is None or not alive or not await self._edit_or_lose(ch, anchor, message):
                self._stranded(ch)
            return
        fresh, sent = posted
        self.hold(ch, AnchorToken(ch.game_id, fresh[0], sent, fresh[1]))
        await set_table_id(self.sessions, ch, sent)
        if anchor is not None and alive:  # the old table: a link to the new one
            moved = render.table_moved(ch.lang, ch.link_guild, ch.channel_id, sent)
            with contextlib.suppress(discord.HTTPException):
                await self.edit(anchor, moved)

    async def _post(
        self, ch: Channel, message: render.Message, outlive: float
    ) -> tuple[tuple[str, float], int] | None:
        """The table as a follow-up of the freshest token that outlives `outlive` by a minute:
        (that token, the message's id); None if no token can."""
        while (fresh := self.fresh(ch, outlive + 60)) is not None:
            self.followups.take(fresh[0])
            try:
                return fresh, await self.hands.webhooks(fresh[0]).post(
                    **as_sent(message.send_kwargs())
                )
            except discord.HTTPException as exc:
                self.refused(fresh[0], exc)
                if exc.status not in GONE:
                    raise
                self.followups.sent[fresh[0]] = MAX_FOLLOWUPS  # gone early: never chosen again
        return None

    async def _edit_or_lose(
        self, ch: Channel, anchor: AnchorToken, message: render.Message
    ) -> bool:
        """Edit the table through its anchor; False if the anchor turned out to be gone (a
        token can fail before its 15 minutes: 404, or 401 once expired)."""
        try:
            await self.edit(anchor, message)
            return True
        except discord.HTTPException as exc:
            if exc.status not in GONE:
                raise
            log.info("game %s: its anchor is gone (%s)", ch.game_id, exc.status)
            self.lose(ch)
            return False

    def lose(self, ch: Channel) -> None:
        """The anchor can no longer edit the table: forgotten, here and in storage."""
        ch.anchor = None
        if ch.pausing is not None:
            ch.pausing.cancel()
            ch.pausing = None
        self.sessions.anchors.drop(ch.game_id)
        self._spawn(self._forget(ch.game_id), f"anchor-lost-{ch.game_id}")

    def refused(self, token: str, exc: discord.HTTPException) -> None:
        """Discord refused a follow-up: a token at its cap sends no more."""
        if exc.code == CAPPED:
            self.followups.sent[token] = MAX_FOLLOWUPS

    def _stranded(self, ch: Channel) -> None:
        """Nothing can show the game (no anchor, no fresher token): it pauses, and the first
        click in it resumes it."""
        table = ch.table
        if table is None or table.game.over or ch.closing is not None or ch.paused:
            return
        self.sessions.pause(ch.game_id)
        ch.paused = True
        self.paused[ch.game_id] = ch

    async def edit(self, anchor: AnchorToken, message: render.Message) -> None:
        await self.hands.webhooks(anchor.token).edit(anchor.message_id, **as_sent(message.kwargs()))

    async def send(self, ch: Channel, **fields: object) -> int | None:
        """A public follow-up of the game (a ping, a notice) through its freshest token with a
        follow-up left; None if none has."""
        tokens = [*self.hands.voices(ch.game_id), *([ch.voice] if ch.voice else [])]
        if ch.anchor is not None:
            tokens.append((ch.anchor.token, ch.anchor.expires_at))
        usable = [tok for tok in tokens if tok[1] > now() + 5 and self.followups.left(tok[0]) > 0]
        best = max(usable, key=lambda tok: tok[1], default=None)
        if best is None:
            return None
        self.followups.take(best[0])
        self.sent_by = best
        if ch.anchor is not None and best[0] == ch.anchor.token:
            # Its count is stored before the follow-up goes: a restart in between must not
            # read a count that lets the token try a sixth.
            await self.store(ch.anchor)
        try:
            return await self.hands.webhooks(best[0]).post(**fields)
        except discord.HTTPException as exc:
            self.refused(best[0], exc)
            raise

    # ----- pause and resume

    def _pause(self, ch: Channel, anchor: AnchorToken) -> None:
        """The anchor is about to die: a fresher token takes over, else the game pauses and
        its table says so (through that anchor, which still lives a minute)."""
        ch.pausing = None
        if ch.anchor is not anchor or self.channels.get(ch.game_id) is not ch:
            return
        if ch.table is None and self.sessions.table_of(ch.game_id) is not None:
            self._spawn(self._read_then_pause(ch, anchor), f"pause-{ch.game_id}")
            return  # restored, not read since: read first, so the table can say it paused
        if ch.closing is not None or ch.table is None or ch.table.game.over:
            return  # a lobby waits for its expiry, which waits for a live anchor
        if self.fresh(ch, now() + 2 * PAUSE_AT) is not None:
            ch.dirty = True  # `put` reposts the table through it
        else:
            self.sessions.pause(ch.game_id)
            ch.paused, ch.dirty = True, True
            self.paused[ch.game_id] = ch
            ch.said = [*ch.log, t(ch.lang, "table.paused")]
        self.kick(ch)

    async def _read_then_pause(self, ch: Channel, anchor: AnchorToken) -> None:
        """A restored table nobody used since the restart: its game and move log are read
        (as its first change would), then it pauses like any other."""
        try:
            ch.table = await self.sessions.load(ch.game_id)
            if ch.unread and self.read is not None:
                await self.read(ch)
        except Exception:  # its timers still wait for an anchor; a click resumes it
            log.warning("game %s: could not read it to pause it", ch.game_id, exc_info=True)
            return
        if ch.anchor is anchor and ch.table is not None:
            self._pause(ch, anchor)

    def clicked(self, ch: Channel) -> None:
        """A click in a paused game: it resumes, its table says so (through the click's token,
        which reposts it), and its timers run again."""
        ch.paused = False
        self.paused.pop(ch.game_id, None)
        self.sessions.resume(ch.game_id)
        clicked = ANSWERING_TOKEN.get()
        if clicked is not None and (ch.voice is None or ch.voice[1] < clicked[2]):
            ch.voice = clicked[1], clicked[2]
        table = self.sessions.table_of(ch.game_id)
        if table is None or not table.loaded:
            return  # read since a restart at its first use: its first move shows it
        ch.table = table
        ch.said = [*ch.log, t(ch.lang, "table.resumed")]
        ch.dirty = True
        self.kick(ch)

    def done(self, ch: Channel) -> None:
        """The game's end is shown: its anchor is of no more use."""
        if ch.pausing is not None:
            ch.pausing.cancel()
            ch.pausing = None
        self.sessions.anchors.drop(ch.game_id)
        self.paused.pop(ch.game_id, None)
        self._spawn(self._forget(ch.game_id), f"anchor-gone-{ch.game_id}")

    def _spawn(self, work: Coroutine[Any, Any, None], name: str) -> None:
        task = asyncio.create_task(work, name=name)
        self.jobs.add(task)
        task.add_done_callback(self.jobs.discard)

    async def _forget(self, game_id: int) -> None:
        with contextlib.suppress(Exception):  # left to expire
            await self.sessions.game_messages.forget_anchor(game_id)

    async def restore(self, games: set[int]) -> None:
        """After a restart: the anchors of `games` (this process's) that still live. A game
        whose channel is not made yet takes its anchor when it is (`adopt`); its timers see it
        alive at once."""
        # Hand tokens' counts are not stored: one read back may have sent five already.
        for game_id in games:
            for token, _ in self.hands.voices(game_id):
                self.followups.sent.setdefault(token, MAX_FOLLOWUPS)
        try:
            stored = await self.sessions.game_messages.anchors()
        except Exception:
            log.warning("could not read the anchors; those games wait for a click", exc_info=True)
            return
        for anchor in stored:
            if anchor.game_id not in games:
                continue
            self.followups.sent[anchor.token] = anchor.followups
            ch = self.channels.get(anchor.game_id)
            if ch is None:
                self.pending[anchor.game_id] = anchor
                self.sessions.anchors.hold(anchor.game_id, anchor.expires_at)
            else:
                self.hold(ch, anchor, store=False)

    def adopt(self, ch: Channel) -> None:
        """A game's channel was just made: its anchor read back after a restart, if any."""
        anchor = self.pending.pop(ch.game_id, None)
        if anchor is not None and ch.anchor is None:
            self.hold(ch, anchor, store=False)
