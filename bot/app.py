"""The composition root: the one place where storage, the session layer and the presenter are
built and wired. The bot (bot/client.py), the playground (through the bot), the benchmarks and
the tests all call `build`, so none of them can drift from the real wiring."""

from __future__ import annotations

import os
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import event

from bot import metrics
from bot.adapter.edge import Edge
from bot.adapter.ephemera import Ephemera
from bot.adapter.presenter import Discord, Presenter
from bot.adapter.registry import Registry
from bot.adapter.services import Services
from bot.adapter.tournament import TournamentDesk
from bot.domain import ratings as stats
from bot.domain import server_settings as settings
from bot.domain.options import DEFAULTS, Options
from bot.domain.seats import is_ai
from bot.metrics import Instruments
from bot.session import Sessions
from bot.session import events as ev
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
    ephemera: Ephemera  # answers that go when untrue
    desk: TournamentDesk  # tournaments' threads and announcements (bot/adapter/tournament.py)
    edge: Edge  # what every handler shares (bot/adapter/edge.py)
    buttons: Registry  # the features' handlers, by family
    settings: dict[str, settings.Setting]
    options: Options = DEFAULTS  # the bot-wide defaults it was built with
    shard_lock: ShardLock | None = None  # this process's shards, claimed on PostgreSQL

    @property
    def services(self) -> Services:
        """What the features are built with (the client hands it to each feature's setup)."""
        return Services(
            self.sessions, self.presenter, self.ephemera, self.desk, self.edge, self.buttons,
            self.settings,
        )  # fmt: skip

    @property
    def cooldowns(self) -> bool:
        return self.options.cooldowns

    async def close(self) -> None:
        """Presenter and timers first, then storage: nothing may write to a closed database.
        The shards are let go of last, once nothing of this process plays their games."""
        await self.presenter.close()
        await self.desk.close()
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
    instruments: Instruments | None = None,
) -> App:
    """Open the database (a SQLite file, or a sqlite:/// or postgresql:// URL) and wire the
    session layer to a presenter that reaches `discord`.
    `shards`: this process plays only the games of guilds on them (None: every guild).
    `claim_shards` (a process, not a test's second bot on one database): on PostgreSQL, refuse
    to start if another process runs any of them (bot/storage/lock.py).
    `instruments`: what the parts report to (default: the bot's metrics, bot/metrics.py).
    Every part is given what it uses as it is made: nothing is replaced or set afterwards
    (but the tournaments' threads and announcements, below)."""
    instruments = instruments or metrics.Recorded()
    shard_lock = None
    if claim_shards and shards is not None and not parse(database).sqlite:
        from bot.storage.lock import hold_shards

        shard_lock = await hold_shards(os.fspath(database), shards.count, shards.ids)
    specs = settings.make_settings(options)
    try:
        storage = await Storage.open(
            database,
            setting_defaults=settings.defaults(specs),
            start_rating=(stats.START_MU, stats.START_SIGMA),
            # Finished games are dated by the same clock as the deadlines and Discord's
            # timestamps (in the playground, SimCord's): history never says "in 48 weeks".
            clock=clock,
        )
    except BaseException:
        if shard_lock is not None:
            await shard_lock.release()
        raise
    # A tournament's tables play in threads the desk makes; it posts the rounds. It reads
    # the tournaments back through the Sessions it is made for: Sessions makes it.
    desk: TournamentDesk | None = None

    def tournament_desk(made: Sessions) -> TournamentDesk:
        nonlocal desk
        desk = TournamentDesk(discord, made)
        return desk

    try:
        sessions = Sessions(
            storage,
            clock=clock,
            options=options,
            owns=shards.holds if shards is not None else None,
            instruments=instruments,
            tournament_desk=tournament_desk,
        )
        presenter = Presenter(discord, sessions, gap=options.edit_gap, instruments=instruments)
        ephemera = Ephemera()
        edge = Edge(sessions, presenter, cooldowns=options.cooldowns, instruments=instruments)
        buttons = Registry(sessions.live, edge.answer, cooldowns=options.cooldowns)

        async def notify(event: Event) -> None:
            await ephemera.on_event(event)  # only schedules deletions: it never raises
            await presenter.on_event(event)

        sessions.listen(counted(notify))
        counted_errors(storage)
    except BaseException:
        await storage.close()
        if shard_lock is not None:
            await shard_lock.release()
        raise
    assert desk is not None  # Sessions made it
    return App(
        storage, sessions, presenter, ephemera, desk, edge, buttons, specs, options, shard_lock
    )


# ----- metrics (bot/metrics.py): the session's events counted on their way


def counted(sink: ev.Listener) -> ev.Listener:
    """The session's events, counted (moves) and marked (a table to show) on their way."""

    # Each label's child once: labels() takes a lock and checks its values (~3 us a move).
    moves = {by: metrics.MOVES.labels(by) for by in ("ai", "timer", "player")}

    async def notify(event: Any) -> None:
        if isinstance(event, ev.Moved):
            seat = event.table.seats[event.seat]
            moves["ai" if is_ai(seat) else "timer" if event.auto else "player"].inc()
        game_id = event.table.game_id if hasattr(event, "table") else event.game_id
        metrics.TABLES.changed(game_id)
        await sink(event)

    return notify


def counted_errors(storage: Storage) -> None:
    """Database errors, by type: SQLAlchemy's own hook, made for listeners."""

    @event.listens_for(storage.engine.sync_engine, "handle_error")
    def failed(context: Any) -> None:
        metrics.DB_ERRORS.labels(type(context.original_exception).__name__).inc()
