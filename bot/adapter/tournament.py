"""Tournaments on Discord: each table's thread, and what a tournament says in its channel.

`TournamentDesk` is what the session's TournamentOps is given (bot/app.py): `thread` makes a
table's public thread in the tournament's channel (one bot-token request per table, through
the governor at the priority of what a game owes: a round waits for its threads), and
`announce` posts a round's tables, the standings after each round, and the champion (or the
cancellation), each once: it tells the session when it is posted (`announced`), so a restart
posts only what was not. The sign-up message is edited when the tournament starts or ends.
Posting runs in the background; a failed post is tried a few times, then left for the next
start-up.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from datetime import UTC, datetime
from typing import Any

import discord

from bot.domain import tournament as tour
from bot.domain.tournament import Tournament
from bot.i18n import DEFAULT, t
from bot.session import Sessions
from bot.session import events as ev
from bot.session.tournament import ThreadRefused
from bot.ui import tournament as screens
from bot.ui.names import plain
from bot.ui.render import Message

from .buttons import as_sent
from .governor import Priority, priority

log = logging.getLogger(__name__)

TRIES = 4  # posts of one announcement before it waits for the next start-up
THREAD_NAME = 100  # Discord's limit on a thread's name
ARCHIVE_MINUTES = 1440  # a table's thread hides after a day without messages


def thread_name(row: Tournament, round: int, table_no: int) -> str:
    """ "Winter Cup · R2 T5": the tournament's name (plain: a thread's name shows no
    markdown) with the round and table."""
    tail = f" · R{round} T{table_no}"
    return plain(row.name)[: THREAD_NAME - len(tail)].rstrip() + tail


def lang_of(row: Tournament | tour.TournamentInfo, settings: dict[str, Any]) -> str:
    return str(settings.get("options", {}).get("lang") or DEFAULT)


class TournamentDesk:
    def __init__(self, client: Any, sessions: Sessions, *, wait: float = 2.0) -> None:
        self.client = client
        self.sessions = sessions
        self.wait = wait  # seconds before a failed post is tried again (doubling)
        self.posts: set[asyncio.Task[None]] = set()
        # One tournament's posts go out in the order they were announced (a lock is FIFO).
        self.order: dict[int, asyncio.Lock] = {}

    async def thread(
        self, row: Tournament, round: int, table_no: int, entrants: tuple[str, ...]
    ) -> int:
        """A public thread for the table in the tournament's channel: its id. A channel that
        refuses it (deleted, or the bot lacks a permission there) raises ThreadRefused: only
        a manager can fix that (the session then pauses the tournament and says so)."""
        try:
            with priority(Priority.OWED):
                data = await self.client.http.start_thread_without_message(
                    row.channel_id, name=thread_name(row, round, table_no),
                    auto_archive_duration=ARCHIVE_MINUTES,
                    type=discord.ChannelType.public_thread.value,
                )  # fmt: skip
        except discord.NotFound as exc:
            raise ThreadRefused("gone") from exc
        except discord.Forbidden as exc:
            raise ThreadRefused("denied") from exc
        return int(data["id"])

    async def announce(self, event: ev.TournamentEvent) -> None:
        task = asyncio.create_task(self._in_order(event))
        self.posts.add(task)
        task.add_done_callback(self.posts.discard)

    async def names(self, row: Tournament) -> dict[str, str]:
        """The entrants' names: as seen here since the start, else as stored."""
        known = self.sessions.names_in(row.guild_id)
        wanted = {e.entrant for e in await self.sessions.storage.tournaments.entrants(row.id)}
        wanted |= {row.host_id, *row.settings.get("no_check_in", ())}
        missing = [w for w in wanted if w.isdigit() and w not in known]
        if missing:
            with contextlib.suppress(Exception):
                known.update(await self.sessions.records.names(row.guild_id, missing))
        return known

    async def messages(self, event: ev.TournamentEvent) -> list[Message]:
        """What the event posts, in the tournament's language."""
        ops = self.sessions.tournaments
        row = await ops.get(event.tournament_id)
        info = await ops.info(row.id)
        lang = lang_of(row, row.settings)
        names = await self.names(row)
        if isinstance(event, ev.RoundStarted):
            plan, threads = await ops.plan(row.id, event.round)
            return [screens.round_view(info, plan, threads, names, lang)]
        if isinstance(event, ev.RoundOver):
            if row.status != "running" or event.round >= row.rounds:
                return []  # the last round's standings come with the champion
            rows = await ops.standings(row.id)
            return [screens.standings_view(info, rows, names, lang)]
        if isinstance(event, ev.RoundBlocked):
            return [screens.blocked_view(info, event.round, event.reason, lang)]
        if event.cancelled:
            name = screens.tournament_name(info)
            # Set aside by storage (its settings could not be read): its games play on.
            key = "tourop.set_aside" if row.settings.get("unreadable") else "tourop.cancelled"
            return [Message(content=t(lang, key, name=name))]
        rows = await ops.standings(row.id)
        return [
            screens.standings_view(info, rows, names, lang, final=True),
            screens.champion_view(info, rows, names, lang),
        ]

    async def _in_order(self, event: ev.TournamentEvent) -> None:
        async with self.order.setdefault(event.tournament_id, asyncio.Lock()):
            await self._post(event)

    async def _post(self, event: ev.TournamentEvent) -> None:
        ops = self.sessions.tournaments
        for attempt in range(TRIES):
            try:
                row = await ops.get(event.tournament_id)
                channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
                for message in await self.messages(event):
                    with priority(Priority.OWED):
                        await channel.send(**as_sent(message.send_kwargs()))
                await ops.announced(row.id, event.key)
                if isinstance(event, ev.TournamentOver | ev.RoundBlocked) or (
                    isinstance(event, ev.RoundStarted) and event.round == 1
                ):
                    await self.refresh_signup(row.id)
                return
            except discord.HTTPException as exc:
                if exc.status in (403, 404):  # the channel is gone or closed to the bot
                    log.warning("tournament %s: its channel refuses the bot (%s)",
                                event.tournament_id, exc.status)  # fmt: skip
                    return
                log.warning("tournament %s: posting %s failed", event.tournament_id,
                            event.key, exc_info=attempt == 0)  # fmt: skip
            except Exception:
                log.warning("tournament %s: posting %s failed", event.tournament_id,
                            event.key, exc_info=attempt == 0)  # fmt: skip
            await asyncio.sleep(self.wait * 2**attempt)

    async def signup_message(self, tournament_id: int) -> Message:
        ops = self.sessions.tournaments
        row = await ops.get(tournament_id)
        info = await ops.info(tournament_id)
        names = await self.names(row)
        now = datetime.fromtimestamp(self.sessions.clock(), UTC)
        return screens.signup_view(info, names, lang_of(row, row.settings), now)

    async def refresh_signup(self, tournament_id: int) -> None:
        """The sign-up message shows the tournament as it is now (a bot-token edit)."""
        row = await self.sessions.tournaments.get(tournament_id)
        if row.message_id is None:
            return
        message = await self.signup_message(tournament_id)
        channel = self.client.get_partial_messageable(row.channel_id, guild_id=row.guild_id)
        with priority(Priority.OWED):
            await channel.get_partial_message(row.message_id).edit(**as_sent(message.kwargs()))

    async def close(self) -> None:
        for task in list(self.posts):
            task.cancel()
        await asyncio.gather(*self.posts, return_exceptions=True)
