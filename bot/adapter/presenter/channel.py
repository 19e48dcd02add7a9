"""One game's channel state: its messages, and what still has to be sent to them. The intake
marks it, the worker sends it; nothing else writes it."""

from __future__ import annotations

import asyncio
import contextvars
import logging
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Protocol

import discord

from bot.domain.place import Place
from bot.domain.values import AnchorToken
from bot.i18n import DEFAULT
from bot.session import Sessions, Table
from bot.ui import render
from bot.ui.highlights import Tally
from bot.ui.picture import LastMove

log = logging.getLogger(__name__)
LOG_KEEP = 20  # lines of the move log a table shows
# The task answering the current click or command (`Presenter.answering`): a move's background
# work starts only once it is done, so it never delays the answer.
ANSWERING_TASK: contextvars.ContextVar[asyncio.Task[Any] | None] = contextvars.ContextVar(
    "answering", default=None
)
# That click's channel and interaction token, and until when it lives.
ANSWERING_TOKEN: contextvars.ContextVar[tuple[int, str, float] | None] = contextvars.ContextVar(
    "answering_token", default=None
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
    said: list[str] = field(default_factory=list)  # the move log's lines put in words (`log`)
    # Moves not put in words yet, each its `describe` call as it stood at the move: a move's
    # click only marks its line; the worker, drawing the table after the answer, says it.
    unsaid: list[Callable[[], list[str]]] = field(default_factory=list)
    last: LastMove | None = None  # the move the picture marks
    edited: float = -math.inf  # when the table was last edited (time.monotonic)
    words_only: bool = False  # the last edit with the picture failed: send the words alone
    closing: render.Message | None = None  # replaces the table once the game is cancelled
    dirty: bool = False
    ping_user: str | None = None  # whom the ping should name; None: no ping
    ping_done: str | None = None  # whom the current ping names
    # The interaction token that sent the current ping, and until when it lives: it deletes
    # the ping without a global request (None: sent with the bot token, or before a restart).
    ping_token: tuple[str, float] | None = None
    voice: tuple[str, float] | None = None  # the newest click's token in the game, its expiry
    # The token of the click whose first answer is the table message (Start, drawn as its
    # answer), and until when it lives: it edits the table ("@original") without a global
    # request. None: the bot token edits it (a table posted anew, or after a restart).
    table_token: tuple[str, float] | None = None
    nudge: asyncio.TimerHandle | None = None  # pings a player whose open hand sits idle
    refused: bool = False  # Discord refused the channel for good (403/404): logged once
    # Outside a server: `guild_id` is then the channel's own id (guild_of); links say "@me".
    dm: bool = False
    hands: set[str] = field(default_factory=set)  # players whose hand message needs a refresh
    notices: list[render.Message] = field(default_factory=list)  # to post after the table
    # Not shown by this process yet (restored, or ended or cancelled before a restart): its
    # stored message ids and move log are read before its first send (`catch_up`).
    unread: bool = False
    tally: Tally | None = None  # the highlights of every move seen; None: replayed at the end
    owed: bool = False  # shows how the game ended: retried until it lands (see worker)
    worker: asyncio.Future[None] | None = None  # its task, or a future until it starts
    # Where it is played (None: a server channel the bot is in). Where the bot token is
    # refused (`tokens_only`) the table is edited through its anchor alone (anchor.py).
    place: Place | None = None
    anchor: AnchorToken | None = None
    pausing: asyncio.TimerHandle | None = None  # at the anchor's end: repost it, or pause
    paused: bool = False  # no token left to show it: its timers wait for a click

    @property
    def tokens_only(self) -> bool:
        return self.place is not None and self.place.tokens_only

    @property
    def link_guild(self) -> int | None:
        """The server part of a link to its messages: None ("@me") outside a server."""
        return None if self.dm else self.guild_id

    def say(self) -> None:
        """Put the moves marked so far in words."""
        if self.unsaid:
            lines = [line for say in self.unsaid for line in say()]
            self.unsaid.clear()
            self.said = (self.said + lines)[-LOG_KEEP:]

    @property
    def log(self) -> list[str]:
        """The move log a table shows: its last LOG_KEEP lines, every move marked so far in."""
        self.say()
        return self.said

    @log.setter
    def log(self, lines: list[str]) -> None:
        self.said, self.unsaid = lines, []

    def jump_url(self, message_id: int) -> str:
        return render.jump_url(None if self.dm else self.guild_id, self.channel_id, message_id)


class Discord(Protocol):
    """What the presenter needs of the client: a channel to send to and edit in."""

    def get_partial_messageable(
        self, id: int, *, guild_id: int | None = None
    ) -> discord.PartialMessageable: ...

    def get_guild(self, id: int, /) -> discord.Guild | None: ...


async def set_table_id(sessions: Sessions, ch: Channel, message_id: int) -> None:
    """The game's table is `message_id` now, kept in storage so a restart finds it."""
    if message_id != ch.table_id:
        ch.table_token = None  # its click's "@original" is the old message
    ch.table_id = message_id
    try:
        await sessions.keep_messages(ch.game_id, table=message_id)
    except Exception:
        log.warning("game %s: could not store the table message id", ch.game_id)
