"""The composition root: the one place where storage, the session layer and the presenter are
built and wired. The bot (bot/client.py), the playground (through the bot), the benchmarks and
the tests all call `build`, so none of them can drift from the real wiring."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from bot.adapter.ephemera import Ephemera
from bot.adapter.presenter import Discord, Presenter
from bot.adapter.registry import Registry
from bot.domain import ratings as stats
from bot.domain import server_settings as settings
from bot.domain.options import DEFAULTS, Options
from bot.session import Sessions
from bot.session.events import Event
from bot.shards import Shards
from bot.storage import Storage, parse

if TYPE_CHECKING:
    from bot.storage.lock import ShardLock


@dataclass
class App:
    storage: Storage
    sessions: Sessions
    presenter: Presenter
    settings: dict[str, settings.Setting]
    options: Options = DEFAULTS  # the bot-wide defaults it was built with
    shard_lock: ShardLock | None = None  # this process's shards, claimed on PostgreSQL
    buttons: Registry = field(default_factory=Registry)  # the cogs' handlers, by family
    ephemera: Ephemera = field(default_factory=Ephemera)  # answers that go when untrue

    @property
    def cooldowns(self) -> bool:
        return self.options.cooldowns

    async def close(self) -> None:
        """Presenter and timers first, then storage: nothing may write to a closed database.
        The shards are let go of last, once nothing of this process plays their games."""
        await self.presenter.close()
        await self.ephemera.close()
        await self.sessions.close()
        await self.storage.close()
        if self.shard_lock is not None:
            await self.shard_lock.release()


async def build(
    database: str | os.PathLike[str],
    discord: Discord,
    options: Options = DEFAULTS,
    *,
    clock: Callable[[], float] = time.time,
    shards: Shards | None = None,
    claim_shards: bool = False,
) -> App:
    """Open the database (a SQLite file, or a sqlite:/// or postgresql:// URL) and wire the
    session layer to a presenter that reaches `discord`.
    `shards`: this process plays only the games of guilds on them (None: every guild).
    `claim_shards` (a process, not a test's second bot on one database): on PostgreSQL, refuse
    to start if another process runs any of them (bot/storage/lock.py)."""
    shard_lock = None
    if claim_shards and shards is not None and not parse(database).sqlite:
        from bot.storage.lock import hold_shards

        shard_lock = await hold_shards(os.fspath(database), shards.ids)
    specs = settings.make_settings(options)
    try:
        storage = await Storage.open(
            database,
            setting_defaults=settings.defaults(specs),
            start_rating=(stats.START_MU, stats.START_SIGMA),
        )
    except BaseException:
        if shard_lock is not None:
            await shard_lock.release()
        raise
    # Finished games are dated by the same clock as the deadlines and Discord's timestamps (in
    # the playground, SimCord's): history then never says "in 48 weeks".
    storage.clock = clock
    try:
        sessions = Sessions(
            storage,
            clock=clock,
            options=options,
            owns=shards.holds if shards is not None else None,
        )
        presenter = Presenter(discord, sessions, gap=options.edit_gap)
        ephemera = Ephemera()

        async def notify(event: Event) -> None:
            await ephemera.on_event(event)  # only schedules deletions: it never raises
            await presenter.on_event(event)

        sessions.listen(notify)
    except BaseException:
        await storage.close()
        if shard_lock is not None:
            await shard_lock.release()
        raise
    return App(storage, sessions, presenter, specs, options, shard_lock, ephemera=ephemera)
