"""Which handler answers each button family: the features register theirs when they are set
up, so the families (bot/adapter/buttons.py) import no cog. The registry makes the families
with its own dispatch, and is made with what that dispatch needs: the live games (a click
naming another server's is refused), whether cooldowns count, and how a click is answered
(Edge.answer). The families whose clicks draw, compute or post have a per-member cooldown
here, as the commands have theirs (interactions.per_member)."""

from __future__ import annotations

import logging
import time
from collections.abc import Awaitable, Callable, Iterable
from typing import Any, Protocol

import discord
from discord import app_commands
from discord.ext.commands import CooldownMapping

from bot.i18n import t
from bot.ui import ids

from .buttons import Family, SelectFamily, families
from .interactions import guild_of, tell
from .language import user_lang

log = logging.getLogger(__name__)
Handler = Callable[[discord.Interaction, ids.Action], Awaitable[None]]
Answer = Callable[[discord.Interaction, Awaitable[None]], Awaitable[None]]


class Live(Protocol):
    """A running lobby or game, as far as the registry reads it."""

    @property
    def guild_id(self) -> int: ...


# The families of finished games: their handlers read the game from storage and answer
# another server's game, running or finished, as one that does not exist (docs/privacy.md).
# "That button belongs to a game in another server" would tell of a game there.
FINISHED_GAMES = frozenset({"replay", "record", "rematch"})
# The families whose ids name a live game (or lobby): every template with a `game` group, so a
# new family is covered as soon as its template names one.
NAMES_A_GAME = frozenset(kind for kind, template in ids.TEMPLATES.items()
                         if "game" in template.groupindex) - FINISHED_GAMES  # fmt: skip

# Clicks per seconds, per member and server (docs/playing.md lists them). A move is limited by
# the turn itself; these draw a picture, run the AI, read a history or post.
LIMITS: dict[str, tuple[int, float]] = {
    "board": (5, 10),  # the leaderboard's pages: a query and an edit of the public board
    "replay": (10, 10),  # the replay's steps: a picture each
    "rules": (5, 10),  # the rules pages: pictures
    "hint": (3, 10),  # the AI, once a turn (a second click shows the same hint)
    "record": (3, 10),  # a game's record as a file
    "table": (5, 10),  # My hand, Rules
    "card": (5, 10),  # a hand redrawn
    "back": (5, 10),
}


def _member(interaction: discord.Interaction) -> tuple[int | None, int]:
    return guild_of(interaction), interaction.user.id


class Limits(CooldownMapping[discord.Interaction]):
    """discord.py's per-member buckets. discord.py drops the idle ones by scanning every
    member's bucket at each click; here at most once a window, so a click's cost stays flat
    however many members clicked lately (a bucket kept longer refills as if it were new)."""

    _swept = 0.0

    def _verify_cache_integrity(self, current: Any = None) -> None:
        current = current or time.time()
        if current - self._swept >= self._cooldown.per:  # type: ignore[union-attr]
            self._swept = current
            super()._verify_cache_integrity(current)


class Registry:
    def __init__(
        self,
        live: Callable[[int], Live | None],
        answer: Answer,
        *,
        cooldowns: bool = True,
    ) -> None:
        self._live = live  # a running lobby or game by id (Sessions.live)
        self._answer = answer  # the click's work on the 3-second budget (Edge.answer)
        self._cooldowns = cooldowns
        self._handlers: dict[str, Handler] = {}
        self._limits = {
            kind: Limits.from_cooldown(rate, per, _member) for kind, (rate, per) in LIMITS.items()
        }
        # The families the client adds (discord.py routes clicks to them): made here, with
        # this registry's dispatch.
        self.families: tuple[type[Family] | type[SelectFamily], ...] = families(self.dispatch)

    def register(self, handlers: dict[str, Handler]) -> list[str]:
        """A feature's handlers, by family; the families, for `unregister` to take back."""
        for kind in handlers:
            if kind not in ids.TEMPLATES:
                raise KeyError(f"no button family {kind!r}")
        self._handlers.update(handlers)
        return list(handlers)

    def unregister(self, kinds: Iterable[str]) -> None:
        for kind in kinds:
            self._handlers.pop(kind, None)

    async def dispatch(self, interaction: discord.Interaction, action: ids.Action) -> None:
        """A click's work, on the 3-second budget, with errors told to the member."""
        handler = self._handlers.get(action.kind)
        if handler is None:  # its cog is not loaded: nothing here can answer it
            log.warning("no handler for %s buttons", action.kind)
            return
        if self.elsewhere(interaction, action):
            await self._answer(interaction, _not_here(interaction))
            return
        await self._answer(interaction, self._limited(interaction, action, handler))

    async def _limited(
        self, interaction: discord.Interaction, action: ids.Action, handler: Handler
    ) -> None:
        """The handler, unless the member clicks this family faster than its LIMITS: then
        they are told when to try again (interactions.fail), and nothing is worked out."""
        limits = self._limits.get(action.kind)
        if limits is not None and self._cooldowns:
            retry = limits.update_rate_limit(interaction)
            if retry:
                bucket = limits.get_bucket(interaction)
                assert bucket is not None
                raise app_commands.CommandOnCooldown(bucket, retry)
        await handler(interaction, action)

    def elsewhere(self, interaction: discord.Interaction, action: ids.Action) -> bool:
        """Whether a click names a running lobby or game of another server: a custom_id is
        the client's, so a seated player could craft one and press it anywhere. Checked here,
        once, for every family that names a live game; finished games are checked by their
        handlers (FINISHED_GAMES), which read them from storage."""
        if action.kind not in NAMES_A_GAME or not action.game_id:
            return False
        live = self._live(action.game_id)
        return live is not None and live.guild_id != guild_of(interaction)


async def _not_here(interaction: discord.Interaction) -> None:
    await tell(interaction, t(user_lang(interaction), "reply.other_server"))
