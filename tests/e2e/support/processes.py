"""A second bot process in a test: its own thread, event loop and SimCord environment (a
simulated Discord of its own, holding its own shards' guilds), sharing only the database with
the test's bot. SimCord allows one environment per event loop, and keeps each loop's clock.

Everything of that process runs on its loop: `await other.run(fn, *args)` runs `fn` there (a
coroutine function or a plain one, for SimCord's builders) and hands back its result.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import threading
from collections.abc import Callable
from typing import Any

from simcord.env import Env


class Process:
    def __init__(self, bot: Any, **options: Any) -> None:
        self.bot = bot
        self.env = Env(bot, **options)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()

    async def run(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        async def there() -> Any:
            with self.env.time_context():  # this process's clock, not the test's
                result = fn(*args, **kwargs)
                return await result if inspect.isawaitable(result) else result

        # A fresh context: nothing of the test's SimCord scope leaks into this loop's tasks.
        future = contextvars.Context().run(asyncio.run_coroutine_threadsafe, there(), self.loop)
        return await asyncio.wrap_future(future)

    async def start(self) -> Process:
        await self.run(self.env.start)
        return self

    async def stop(self) -> None:
        """The process ends: SimCord lets go of the bot, and the bot closes its database."""
        if self.loop.is_closed():  # stopped already
            return
        try:
            await self.run(self.env.shutdown)
        finally:
            if self.bot.app is not None:
                await self.run(self.bot.app.close)
            self.loop.call_soon_threadsafe(self.loop.stop)
            await asyncio.to_thread(self.thread.join, 10)
            self.loop.close()
