"""Keeps each game's channel messages in step with the game: the table, the turn ping and the
players' open hand messages.

Session events only mark what is out of date; one worker task per game then does the API
calls in order. So a slow or failing Discord call never holds up a move, and a burst of
moves costs one table edit, not one each.

`Presenter` is what the rest of the bot calls; its parts share the games' `Channel` states:
`intake` marks what changed, `worker` sends it, `hand_tokens` keeps the open hands,
`drawing` makes the table message, `catch_up` reads what a restart left, `anchor` shows a
game the bot token cannot reach (a group DM) through interaction tokens alone.
"""

from __future__ import annotations

import asyncio
from typing import Any

import discord

from bot.metrics import QUIET, Instruments
from bot.session import Sessions, Table
from bot.session.events import Event, SeasonOver
from bot.ui import render

from .anchor import Anchoring, Followups
from .announce import Announcer
from .catch_up import Restart, catch_up
from .channel import ANSWERING_TASK, Channel, Discord
from .drawing import Drawing
from .hand_tokens import OpenHands
from .intake import Intake
from .webhook import Hook
from .worker import EDIT_GAP, Worker

__all__ = ["Channel", "Discord", "Presenter"]


class Presenter:
    def __init__(
        self,
        client: Discord,
        sessions: Sessions,
        gap: float = EDIT_GAP,
        *,
        instruments: Instruments = QUIET,
    ) -> None:
        self.discord = client
        self.sessions = sessions
        self.channels: dict[int, Channel] = {}  # game id -> its messages; every part shares it
        self.hands = OpenHands(sessions, self._webhook, ANSWERING_TASK.get)
        self.drawing = Drawing(sessions, on_render=instruments.on_render)
        self.followups = Followups()  # per token: none sends a sixth (anchor.py)
        self.anchoring = Anchoring(
            sessions, self.channels, self.hands, self.followups,
            lambda ch: self.worker.kick(ch), lambda ch: catch_up(sessions, ch),
        )  # fmt: skip
        self.worker = Worker(
            client, sessions, self.channels, self.hands, self.drawing, gap, self.anchoring
        )
        self.intake = Intake(
            client, sessions, self.channels, self.hands, self.worker.kick, self.anchoring
        )
        self.announcer = Announcer(client, sessions)
        self.restart = Restart(
            sessions, self.channels, self.intake, self.announcer.announce, self.anchoring
        )
        # What the rest of the bot calls, as the parts' own methods. The session layer calls
        # on_event; it only marks work, never waits on Discord.
        self.lobby_posted = self.intake.lobby_posted
        self.table_shown = self.intake.table_shown
        self.table_reposted = self.intake.table_reposted
        self.show_lobby = self.intake.show_lobby
        self.remember_hand = self.hands.remember
        self.table_message = self.drawing.table_message
        self.refresh = self.restart.refresh
        self.deliver_owed = self.restart.deliver_owed

    async def on_event(self, event: Event) -> None:
        """Called by the session layer; only marks work (or starts a season's announcement),
        never waits on Discord."""
        if isinstance(event, SeasonOver):
            self.announcer.announce(event)
            return
        await self.intake.on_event(event)

    def answering(
        self, task: asyncio.Task[Any], interaction: discord.Interaction | None = None
    ) -> None:
        """A click or command is being answered until `task` ends (Worker.answering); a click
        in a paused game (on its table, or a hand) resumes it (anchor.py)."""
        self.worker.answering(task, interaction)
        channel_id = getattr(interaction, "channel_id", None)
        if getattr(interaction, "message", None) is None or channel_id is None:
            return  # a command: only a click resumes a game
        game_id = self.sessions.channels.get(channel_id)
        table = None if game_id is None else self.sessions.table_of(game_id)
        if table is not None and table.paused:
            self.anchoring.clicked(self.intake.channel(table.game_id, table.guild_id, channel_id))

    def anchored(self, game_id: int) -> None:
        """The click being answered edited the game's lobby or table into its answer: where
        only tokens reach, its token shows the game from now on (anchor.py)."""
        ch = self.channels.get(game_id)
        if ch is not None:
            self.anchoring.anchored(ch)

    def _webhook(self, token: str) -> Hook:
        """The interaction webhook of `token`: calls through it are not bound to the bot's
        global rate limit."""
        if not isinstance(self.discord, discord.Client):
            raise TypeError("interaction webhooks need the bot's client")
        return Hook(self.discord, token)

    # ----- what is shown

    def link(self, game_id: int) -> str | None:
        """A link to a game's lobby or table message, if it is known."""
        ch = self.channels.get(game_id)
        if ch is None or ch.table_id is None:
            return None
        return ch.jump_url(ch.table_id)

    async def table_now(self, table: Table) -> render.Message:
        """The running game's table as its channel shows it (its move log, the last move)."""
        ch = self.channels.get(table.game_id)
        if ch is None:
            return await self.drawing.table_message(table)
        return await self.drawing.table_message(table, ch.log, ch.last)

    # ----- start-up and shutdown

    async def close(self) -> None:
        tasks = self.worker.running()
        tasks += self.hands.edits
        tasks += self.anchoring.jobs
        tasks += self.announcer.running()
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self.drawing.close()
