"""A season's end announced in the channel of the server's latest game (bot/session/seasons.py):
a new message, owed in storage's outbox until it lands, like an end screen. Sent with the
bot's token at the governor's owed level; a failure is tried again (every minute at most)
until it lands or Discord refuses the channel for good (403/404); then the outbox item is
done. A restart in between sends it again from the outbox.

Each try renders the item as it is stored then, so a member forgotten meanwhile is never named.
Posted once: before its first post the item notes when (`announcing`); a later try (a retry
after an uncertain failure, or a restart between the post and marking it done) first looks for
it among the channel's messages since then, and the post carries a nonce Discord enforces
(`enforce_nonce`, which discord.py sets with every nonce) for the few minutes it keeps one."""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from typing import Any

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
CLOCK_SLACK = 300.0  # seconds our clock may be ahead of Discord's when the post is looked for
NONCE_SECONDS = 120.0  # Discord enforces a nonce for "the past few minutes"


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
        target = self.discord.get_partial_messageable(event.channel_id, guild_id=event.guild_id)
        for attempt in range(1_000_000):
            try:
                payload = await self.sessions.announcement(event.item_id)
                if payload is None:
                    return  # shown already (another process), or the server purged
                lang = payload.get("lang") or payload.get("game_lang") or DEFAULT
                message = boards.season_over(lang, payload)
                tried = payload.get("tried_at")
                if tried is not None and await self._posted(target, float(tried), lang, payload):
                    break
                if tried is None:
                    await self.sessions.announcing(
                        event.item_id, discord.utils.utcnow().timestamp()
                    )
                with rest.priority(rest.Priority.OWED):
                    await target.send(**message.send_kwargs(), nonce=nonce(event.item_id))
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

    async def _posted(
        self, target: discord.PartialMessageable, tried: float, lang: str, payload: Any
    ) -> bool:
        """Whether the bot's announcement of this season is in the channel already, among
        its messages since the first try. Unreadable (no Read Message History): only the
        nonce guards a post within NONCE_SECONDS of it; later, it counts as posted."""
        me = getattr(self.discord, "user", None)
        title = boards.season_title(lang, int(payload["season"]))
        since = datetime.fromtimestamp(tried - CLOCK_SLACK, tz=UTC)
        try:
            with rest.priority(rest.Priority.OWED):
                async for message in target.history(after=since, oldest_first=True, limit=100):
                    if me is not None and message.author.id == me.id and title in texts(message):
                        return True
        except discord.Forbidden:
            late = discord.utils.utcnow().timestamp() - tried > NONCE_SECONDS
            if late:
                log.warning("cannot read channel %s to check the season's end was posted; "
                            "not posting it again", target.id)  # fmt: skip
            return late
        return False


def nonce(item_id: int) -> str:
    """The same for every try of one announcement (Discord allows 25 characters)."""
    return f"season:{item_id}"


def texts(message: discord.Message) -> list[str]:
    """The text displays of a message's layout, at any depth."""
    found: list[str] = []
    parts: list[Any] = list(message.components)
    while parts:
        part = parts.pop()
        if isinstance(part, discord.components.TextDisplay):
            found.append(part.content)
        parts.extend(getattr(part, "children", ()))
    return found
