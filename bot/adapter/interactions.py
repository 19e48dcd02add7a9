"""What every handler shares: answering within Discord's 3 seconds, and replies that work
whether or not the interaction was answered (or deferred) already. What needs the bot's parts
(errors told, names remembered) is the Edge's (bot/adapter/edge.py)."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from typing import Any, TypeVar

import discord
from discord import app_commands

from bot.i18n import t
from bot.ui.text import next_steps

from .buttons import dynamic
from .language import user_lang

log = logging.getLogger(__name__)
T = TypeVar("T")

# Seconds a handler may take before we defer: Discord drops an interaction not answered in 3,
# counted from when it was created; we count from entering the handler, leaving a margin.
ACK_BUDGET = 2.0
# interaction.extras keys: the defer's completion; the watch task; set once a reply or the
# defer has started to answer (so the two never both answer); set when the watch defers.
_DEFERRING, _WATCH, _ANSWERING, _LATE = "deferring", "watch", "answering", "late"
_COOLDOWNS = "cooldowns"  # the bot's per_member buckets (None: off), told at the watch
_PRIVATE = "made_private"  # a public answer came back ephemeral (made_private)


class Cooldowns:
    """One bot's per-member buckets of the commands' cooldowns (`per_member`), by command,
    server and member. Held by the bot's Edge, not by the command: two bots in one process
    (the tests) count apart. The idle buckets are dropped at most once a minute."""

    SWEEP = 60.0

    def __init__(self) -> None:
        self._buckets: dict[tuple[str, int | None, int], app_commands.Cooldown] = {}
        self._swept = 0.0

    def retry_after(
        self, interaction: discord.Interaction, rate: int, seconds: float
    ) -> tuple[app_commands.Cooldown, float] | None:
        """None if the member may go on; else the bucket and the seconds until they may."""
        current = interaction.created_at.timestamp()
        if current - self._swept >= self.SWEEP:
            self._swept = current
            self._buckets = {k: b for k, b in self._buckets.items() if b._last + b.per > current}
        name = interaction.command.qualified_name if interaction.command else ""
        key = (name, interaction.guild_id, interaction.user.id)
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = app_commands.Cooldown(rate, seconds)
        retry = bucket.update_rate_limit(current)
        return None if retry is None else (bucket, retry)


_ANSWERABLE = (discord.InteractionType.application_command, discord.InteractionType.component)


def guild_of(interaction: discord.Interaction) -> int:
    """The key a place's settings, names, games and board are kept under: the server's id;
    outside a server (the DM with the bot, a group DM), the channel's, as `Place.board_id`.
    A channel's id is never a server's, so the two never share a board."""
    return interaction.guild_id or interaction.channel_id or 0


def watch(
    interaction: discord.Interaction,
    *,
    public: bool = False,
    cooldowns: Cooldowns | None = None,
    started: Callable[[asyncio.Task[Any], discord.Interaction], None] | None = None,
) -> None:
    """Start the 3-second budget at the handler's entry: if nothing has answered the
    interaction within ACK_BUDGET (a slow database), defer it, and the handler's replies go
    out as follow-ups. `public`: a command whose answer everyone sees (a deferred command
    shows "thinking" to the same people). `cooldowns`: the bot's per_member buckets (None:
    off). `started` is told of the task that answers. Every command (cog interaction_check)
    and every button family (Edge.answer) calls this first (through Edge.watch)."""
    interaction.extras[_COOLDOWNS] = cooldowns
    if _DEFERRING in interaction.extras or interaction.type not in _ANSWERABLE:
        return  # watched already, or an autocomplete (answered by discord.py itself)
    task = asyncio.current_task()
    if task is not None and started is not None:
        started(task, interaction)
    interaction.extras[_DEFERRING] = asyncio.Event()
    # A timer, not a task: most clicks are answered well within it, and a task per click
    # would cost the event loop a task and two of its turns for nothing.
    loop = asyncio.get_running_loop()
    interaction.extras[_WATCH] = loop.call_later(ACK_BUDGET, _late, interaction, public)


_DEFERS: set[asyncio.Task[None]] = set()  # defers under way (asyncio holds tasks weakly)


def _late(interaction: discord.Interaction, public: bool) -> None:
    """ACK_BUDGET is up: defer, unless an answer has started."""
    if interaction.extras.get(_ANSWERING) or interaction.response.is_done():
        return
    interaction.extras[_ANSWERING] = interaction.extras[_LATE] = True
    task = asyncio.ensure_future(_defer(interaction, public))
    _DEFERS.add(task)
    task.add_done_callback(_DEFERS.discard)


async def _defer(interaction: discord.Interaction, public: bool) -> None:
    deferring: asyncio.Event = interaction.extras[_DEFERRING]
    try:
        if interaction.type is discord.InteractionType.component:
            await interaction.response.defer()  # the clicked message stays as it is
        else:
            await interaction.response.defer(ephemeral=not public, thinking=True)
    except discord.HTTPException:
        log.warning("could not defer %s", describe(interaction), exc_info=True)
    finally:
        deferring.set()


async def _answered(interaction: discord.Interaction) -> bool:
    """Whether the interaction has its first answer already, else claims it: a defer under
    way is waited for, and the watch will not defer once this returns False."""
    if interaction.extras.get(_LATE):
        await interaction.extras[_DEFERRING].wait()
    elif not interaction.extras.get(_ANSWERING):
        interaction.extras[_ANSWERING] = True
        watching = interaction.extras.get(_WATCH)
        if watching is not None:
            watching.cancel()  # answered in time: nothing left to defer
    return interaction.response.is_done()


async def reply(
    interaction: discord.Interaction, *, ephemeral: bool = True, **fields: Any
) -> discord.Message | None:
    """A new message in answer (ephemeral by default). Only the fields that are set are sent.
    The message, when it was sent as a follow-up (the only case a caller needs it from)."""
    fields = dynamic({k: v for k, v in fields.items() if v is not None})
    if await _answered(interaction):
        sent = await interaction.followup.send(ephemeral=ephemeral, wait=True, **fields)
        interaction.extras[_PRIVATE] = sent.flags.ephemeral and not ephemeral
        return sent
    answered = await interaction.response.send_message(ephemeral=ephemeral, **fields)
    interaction.extras[_PRIVATE] = answered.is_ephemeral() and not ephemeral
    return None


def made_private(interaction: discord.Interaction) -> bool:
    """Whether the last public answer came back ephemeral: Discord does that to an app the
    server did not add when the server turned "Use External Apps" off (the callback's
    `response_message_ephemeral`, or the follow-up's flags after a defer)."""
    return bool(interaction.extras.get(_PRIVATE))


async def post(interaction: discord.Interaction, **fields: Any) -> int:
    """A public answer; its message id (the lobby or table message to keep up to date)."""
    sent = await reply(interaction, ephemeral=False, **fields)
    if sent is None:
        sent = await interaction.original_response()
    return sent.id


async def update(interaction: discord.Interaction, **fields: Any) -> None:
    """Edit the message whose button was clicked."""
    fields = dynamic(fields)
    if await _answered(interaction):
        await interaction.edit_original_response(**fields)
    else:
        await interaction.response.edit_message(**fields)


async def thinking(interaction: discord.Interaction) -> None:
    """Defer now, privately, for work that takes a while (an export); replies follow up."""
    if not await _answered(interaction):
        await interaction.response.defer(ephemeral=True, thinking=True)


async def tell(interaction: discord.Interaction, text: str, **extra: Any) -> None:
    """An ephemeral answer, whether or not the interaction was answered already."""
    await reply(interaction, content=text, **extra)


async def say(interaction: discord.Interaction, key: str, **values: Any) -> None:
    """`tell` the catalog message `key`, in the language of the member who acted; it may name
    the usual next steps (ui.text.next_steps) besides `values`."""
    lang = user_lang(interaction)
    await tell(interaction, t(lang, key, **{**next_steps(lang), **values}))


def per_member(rate: int, seconds: float) -> Callable[[T], T]:
    """A cooldown: `rate` uses per `seconds` for each member in each server. A member who goes
    faster is told when to try again (`Edge.fail`). Off where the app says so (the tests,
    except those about cooldowns: they click faster than anyone): the cog's interaction_check
    watches the interaction (Edge.watch), which says so before the command's checks run."""

    def counted(interaction: discord.Interaction) -> bool:
        cooldowns: Cooldowns | None = interaction.extras.get(_COOLDOWNS)  # told at the watch
        if cooldowns is None:
            return True
        late = cooldowns.retry_after(interaction, rate, seconds)
        if late is not None:
            raise app_commands.CommandOnCooldown(*late)
        return True

    return app_commands.check(counted)


def describe(interaction: discord.Interaction) -> str:
    what = interaction.command.qualified_name if interaction.command else "a button"
    return f"{what} (guild {interaction.guild_id}, channel {interaction.channel_id})"
