"""A game's table message, or its end screen, with its picture: drawn in a thread of its own
and cached per game version, for every viewer."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable, Sequence
from concurrent.futures import ThreadPoolExecutor

from bot.session import Sessions, Table
from bot.ui import render
from bot.ui import table as tables
from bot.ui.end_screen import final
from bot.ui.highlights import Highlights, Tally, highlights
from bot.ui.picture import FinalScene, LastMove, Scene, TableCache

from .channel import Channel


class Drawing:
    def __init__(
        self, sessions: Sessions, on_render: Callable[[float], None] = lambda seconds: None
    ) -> None:
        self.sessions = sessions
        self.on_render = on_render  # a table message drawn, timed (bot/metrics.py Instruments)
        self.pictures = TableCache()  # drawn once per game version, for every viewer
        # Pictures are drawn in one thread of their own: a burst of games drawing at once
        # queues there instead of taking the event loop's turn (the GIL) from the clicks.
        self.painter = ThreadPoolExecutor(max_workers=1, thread_name_prefix="picture")

    async def table_message(
        self,
        table: Table,
        moves: Sequence[str] = (),
        last: LastMove | None = None,
        *,
        image: bool = True,
        tally: Tally | None = None,
    ) -> render.Message:
        """A game's table, or its end screen once it is over, in its public language, with its
        picture (drawn in a thread, once per game version) unless `image` is False. The end
        screen's highlights are `tally`'s if it saw every move, else the game replayed."""
        lang = render.public_lang(table)
        names = self.sessions.names_in(table.guild_id)
        if table.game.over:
            assert table.standing is not None  # the session sets it as the game ends
            png = None
            if image:
                scene = FinalScene.of(table, names, lang, table.standing.places)
                png = await self._draw(scene)
            return final(lang, table, names, await self._highlights(table, tally), png)
        png = None
        if image:
            png = await self._draw(Scene.of(table, names, lang, last=last))
            if table.game.over:  # it ended while the picture was drawn: its end screen
                return await self.table_message(table, moves, last, image=image, tally=tally)
        return tables.table(lang, table, names, moves, png)

    async def of(self, ch: Channel, *, image: bool = True) -> render.Message:
        """What a channel's table message shows now: its closing, or its table."""
        started = time.perf_counter()
        try:
            if ch.closing is not None:
                return ch.closing
            assert ch.table is not None
            return await self.table_message(ch.table, ch.log, ch.last, image=image, tally=ch.tally)
        finally:
            self.on_render(time.perf_counter() - started)

    @staticmethod
    async def _highlights(table: Table, tally: Tally | None) -> Highlights:
        if tally is not None and tally.moves == table.version:
            return tally.result()
        return await asyncio.to_thread(highlights, table.game)  # no moves seen: played again

    async def _draw(self, scene: Scene | FinalScene) -> bytes:
        """The picture of a scene, from the cache or drawn in the painter's thread."""
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(self.painter, self.pictures.picture, scene)

    def close(self) -> None:
        self.painter.shutdown(wait=False)
