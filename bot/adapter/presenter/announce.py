"""A season's end announced in the channel of the server's latest game (bot/session/seasons.py):
a new message, owed in storage's outbox until it lands, like an end screen. Sent with the
bot's token at the governor's owed level; a failure is tried again (every minute at most)
until it lands or Discord refuses the channel for good (403/404); then the outbox item is
done. A restart in between sends it again from the outbox."""

from __future__ import annotations

import asyncio
import logging

import discord

from bot.i18n import DEFAULT
from bot.session import Sessions
from bot.session.events import SeasonOver
from bot.session.retry import until_done
from bot.ui import boards

from .. import governor as rest
from .channel import Discord
from .worker import OWED_RETRIES

log = logging.getLogger(__name__)


class Announcer:
    def __init__(self, client: Discord, sessions: Sessions) -> None:
        self.discord = client
        self.sessions = sessions
        self.sending: dict[int, asyncio.Task[None]] = {}  # outbox item id -> its task

    def announce(self, event: SeasonOver) -> None:
        if event.item_id in self.sending:
            return  # already on its way
        task = asyncio.create_task(self._send(event))
        self.sending[event.item_id] = task
        task.add_done_callback(lambda _: self.sending.pop(event.item_id, None))

    def running(self) -> list[asyncio.Task[None]]:
        return list(self.sending.values())

    async def _send(self, event: SeasonOver) -> None:
        payload = event.payload
        lang = payload.get("lang") or payload.get("game_lang") or DEFAULT
        message = boards.season_over(lang, payload)
        target = self.discord.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        for attempt in range(1_000_000):
            try:
                with rest.priority(rest.Priority.OWED):
                    await target.send(**message.send_kwargs())
                break
            except (discord.Forbidden, discord.NotFound) as exc:
                log.warning("guild %s: Discord refuses channel %s for the season's end (%s)",
                            event.guild_id, event.channel_id, exc.status)  # fmt: skip
                break
            except Exception:
                if attempt == 0:
                    log.exception("guild %s: could not announce the season's end; retrying",
                                  event.guild_id)  # fmt: skip
                await asyncio.sleep(OWED_RETRIES[min(attempt, len(OWED_RETRIES) - 1)])

        async def done() -> None:
            await self.sessions.announced(event.item_id)

        await until_done(done, what="marking the season's end shown", game_id=event.game_id,
                         first=self.sessions.retry_seconds)  # fmt: skip
