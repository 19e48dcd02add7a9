"""After a restart: a game this process has not shown yet is caught up at its first change
(its stored message ids, its move log rebuilt), and start-up shows the restored lobbies and
what ended games still owe their channels."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Collection, Sequence

from bot.engine import Event as EngineEvent
from bot.engine import record, replay
from bot.session import Sessions, Table
from bot.session.events import EndOwed, SeasonOver
from bot.ui import render
from bot.ui.highlights import Tally
from bot.ui.picture import LastMove
from bot.ui.text import describe, names_of

from .anchor import Anchoring
from .channel import LOG_KEEP, Channel
from .intake import Intake

log = logging.getLogger(__name__)


async def catch_up(sessions: Sessions, ch: Channel) -> None:
    """A game this process has not shown yet (restored after a restart, or ended or
    cancelled before it), at its first change: the ids of its messages as stored, and its
    move log and highlights rebuilt from the game (read by then: a change comes from a
    game in use). A cancel needs no read: its table may still be unread."""
    lobby_id, table_id, ping_id = await sessions.messages(ch.game_id)  # a failure: retried
    ch.unread = False
    if ch.table_id is None:
        ch.table_id = table_id or lobby_id
    if ch.ping_id is None:
        ch.ping_id = ping_id
    if ch.table is not None and ch.table.loaded:
        ch.log, ch.last, ch.tally = await rebuild_log(sessions, ch.table)


async def rebuild_log(
    sessions: Sessions, table: Table
) -> tuple[list[str], LastMove | None, Tally | None]:
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
    name = names_of(lang, table.seats, sessions.names_in(table.guild_id))
    rules = game.rules
    lines = [line for ev in events[-LOG_KEEP:] for line in describe(lang, ev, rules, name)]
    last = next((m for ev in reversed(events) if (m := LastMove.of(ev))), None)
    return lines[-LOG_KEEP:], last, tally


class Restart:
    """Start-up's share: it reads no game it need not (a table waits for its first change)."""

    def __init__(
        self,
        sessions: Sessions,
        channels: dict[int, Channel],
        intake: Intake,
        announce: Callable[[SeasonOver], None],
        anchoring: Anchoring,
    ) -> None:
        self.anchoring = anchoring
        self.sessions = sessions
        self.channels = channels
        self.intake = intake
        self.announce = announce  # a season's end, owed to a channel (announce.py)

    async def refresh(self, game_ids: Sequence[int], redraw: Collection[int] = ()) -> None:
        """After a restart: restored lobby messages are brought up to date now; a restored
        table at its first change (`catch_up`), so start-up reads no game, or now if it is
        in `redraw` (its time left changed: the restart's grace). Until then a table's message
        shows the game as it stands. The open hands of these games follow them again."""
        await self.intake.hands.restore(set(game_ids))
        await self.anchoring.restore(set(game_ids))  # those of games only tokens reach
        for game_id in game_ids:
            table = self.sessions.table_of(game_id)
            if table is not None:  # its channel is read at its first change (unread)
                if game_id in redraw and table.loaded:
                    self.intake.changed(table)
                elif table.tokens_only and game_id in self.anchoring.pending:
                    # Made now, so its anchor's end pauses it and its table says so.
                    self.intake.channel(game_id, table.guild_id, table.channel_id)
                continue
            lobby = self.sessions.lobby_of(game_id)
            if lobby is not None:
                lobby_id, _, _ = await self.sessions.messages(game_id)
                ch = self.intake.channel(game_id, lobby.guild_id, lobby.channel_id)
                ch.table_id, ch.lang, ch.unread = lobby_id, render.public_lang(lobby), False
                await self.intake.show_lobby(lobby)

    async def deliver_owed(self) -> None:
        """At start-up: show what games that ended before a restart still owe their channels
        (end screens, closings), as the outbox keeps it; open hands show the end too. And
        the seasons' ends still to announce."""
        owed = await self.sessions.owed()
        seasons = [item for item in owed if isinstance(item, SeasonOver)]
        for season in seasons:
            self.announce(season)
        games = [item for item in owed if not isinstance(item, SeasonOver)]
        await self.intake.hands.restore({item.game_id for item in games})
        await self.anchoring.restore({item.game_id for item in games})
        for item in games:
            if item.game_id in self.channels:
                continue  # already being shown (ended during restore)
            if not isinstance(item, EndOwed):
                self.intake.closed(item)
                continue
            table = await self.sessions.ended_table(item.game_id)
            if table is None:
                await self.sessions.delivered(item.game_id)  # nothing left to show
                continue
            self.intake.ended(table)
