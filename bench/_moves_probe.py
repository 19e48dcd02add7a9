"""bench/moves.py's timing: clicks handed to the bot's button families as discord.py hands
them, with their time, the moves they played, and the database writes they asked for."""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import logging
import sys
import time
from collections import defaultdict
from typing import Any

import discord

from .standin import REFUSED, Bot, Interaction

# Set per click by Probe.on_button; Probe.play marks it when a move was played. A dict, so the
# mark made in the task the cog plays the move in (it gets a copy of the context) is seen here.
PLAYED: contextvars.ContextVar[dict[str, bool]] = contextvars.ContextVar("played")


class Probe(logging.Handler):
    """Clicks buttons as discord.py does (the family's item built from the custom_id, then its
    callback) and wraps Sessions.play and two presenter methods, on the instances (the bot's
    code is unchanged). Keeps the timings, and what went wrong: errors logged, and clicks the
    bot answered with a refusal or an error (an ephemeral answer that is not a hand)."""

    def __init__(self, bot: Bot) -> None:
        super().__init__(logging.ERROR)
        logging.getLogger().addHandler(self)
        assert bot.app is not None
        self.problems = REFUSED
        self.phase: str | None = None  # where samples go; None: not recording
        self.samples: dict[tuple[str, str], list[float]] = defaultdict(list)
        self.first_entry = self.last_return = 0.0
        self.presenter = bot.app.presenter
        self.families = bot.app.buttons.families  # the registry's: they dispatch
        sessions = bot.app.sessions
        self._play = sessions.play
        worker = self.presenter.worker  # the presenter's part that sends the tables
        self._send_table, self._flush = worker._send_table, worker._flush
        sessions.play = self.play
        worker._send_table = self.timed_send_table  # type: ignore[method-assign]
        worker._flush = self.timed_flush  # type: ignore[method-assign]
        # Write transactions, per phase and by the code that asked for them.
        self.writes: dict[str, dict[str, int]] = defaultdict(lambda: defaultdict(int))
        self.deals: dict[str, int] = defaultdict(int)  # moves that dealt new hands, per phase
        self.ends: dict[str, int] = defaultdict(int)  # moves that ended a game, per phase
        connection = sessions.storage.connection
        for name in ("transaction", "driver_transaction", "driver", "on_loop"):
            if name != "transaction" and connection.writer is None:
                continue  # PostgreSQL: only transaction()
            counted = self.counted_now if name == "on_loop" else self.counted
            setattr(connection, name, counted(getattr(connection, name)))

    def emit(self, record: logging.LogRecord) -> None:
        self.problems.append(record.getMessage())

    def record(self, kind: str, seconds: float) -> None:
        if self.phase is not None:
            self.samples[(self.phase, kind)].append(seconds)

    async def on_button(self, interaction: Interaction, custom_id: str) -> None:
        item = None
        for family in self.families:  # built before the clock starts, as discord.py does
            match = family.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None:
                button = discord.ui.Button(custom_id=custom_id)  # type: ignore[var-annotated]
                item = family.of(button, match)  # type: ignore[arg-type]
                break
        started = time.perf_counter()
        self.first_entry = self.first_entry or started
        mark = {"played": False}
        token = PLAYED.set(mark)
        try:
            if item is None:
                await interaction.response.edit_message(content="ok")
                kind = "trivial"
            else:
                await item.callback(interaction)  # type: ignore[arg-type]  # the stand-in's
                kind = "move" if mark["played"] else "other"
        finally:
            PLAYED.reset(token)
        self.last_return = time.perf_counter()
        self.record(kind, self.last_return - started)

    async def play(self, *args: Any, **kwargs: Any) -> Any:
        played = await self._play(*args, **kwargs)
        mark = PLAYED.get(None)
        if mark is not None:
            mark["played"] = True
        if self.phase is not None:
            self.deals[self.phase] += any(e["type"] == "hands_dealt" for e in played.events)
            self.ends[self.phase] += played.ended
        return played

    def counted(self, opened: Any) -> Any:
        """A write transaction of storage's connection (transaction, or on SQLite the
        driver's own), counted for the phase with the bot's function that asked for it."""

        @contextlib.asynccontextmanager
        async def counting() -> Any:
            if self.phase is not None:
                self.writes[self.phase][asker()] += 1
            async with opened() as db:
                yield db

        return counting

    def counted_now(self, opened: Any) -> Any:
        """`counted` for the loop's connection, used right away (Connection.on_loop)."""

        def counting() -> Any:
            if self.phase is not None:
                self.writes[self.phase][asker()] += 1
            return opened()

        return counting

    async def timed_send_table(self, ch: Any) -> None:
        started = time.perf_counter()
        await self._send_table(ch)
        self.record("table_update", time.perf_counter() - started)

    async def timed_flush(self, ch: Any) -> None:
        started = time.perf_counter()
        await self._flush(ch)
        self.record("presenter_flush", time.perf_counter() - started)

    async def presenter_idle(self) -> None:
        while workers := [
            ch.worker
            for ch in self.presenter.channels.values()
            if ch.worker is not None and not ch.worker.done()
        ]:
            await asyncio.wait(workers)
        while edits := set(self.presenter.hands.edits):  # tokens stored, older hands deleted
            await asyncio.wait(edits)


def asker() -> str:
    """The first function outside storage (and the libraries) on the stack: who writes."""
    frame: Any = sys._getframe(1)
    while frame is not None:
        path = frame.f_code.co_filename
        if "/bot/" in path and "/bot/storage/" not in path and not path.endswith("/bot/app.py"):
            return f"{path.rpartition('/bot/')[2]}:{frame.f_code.co_name}"
        frame = frame.f_back
    return "?"
