"""The latest table and end-screen pictures, kept so several viewers or a repost of the same
table draw it once."""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from .draw import render
from .end_screen import FinalScene, render_final
from .scene import Scene


class TableCache:
    """The latest pictures by game, version, language and options (``Scene.key``): a bounded
    LRU. Thread-safe; a picture being drawn is waited for, not drawn twice.

    On the event loop::

        scene = Scene.of(table, names, lang, last=last)
        png = await asyncio.to_thread(cache.picture, scene)
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._done: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._drawing: dict[tuple[Any, ...], threading.Event] = {}
        self._lock = threading.Lock()
        self.renders = 0  # pictures drawn, for tests and figures

    def picture(self, scene: Scene | FinalScene) -> bytes:
        key = scene.key
        mine = threading.Event()
        while True:
            with self._lock:
                if key in self._done:
                    self._done.move_to_end(key)
                    return self._done[key]
                waiting = self._drawing.get(key)
                if waiting is None:
                    self._drawing[key] = mine
                    break
            waiting.wait()  # another thread is drawing it: take theirs
        try:
            png = render_final(scene) if isinstance(scene, FinalScene) else render(scene)
            with self._lock:
                self.renders += 1
                self._done[key] = png
                while len(self._done) > self.size:
                    self._done.popitem(last=False)
            return png
        finally:
            with self._lock:
                del self._drawing[key]
            mine.set()

    def __len__(self) -> int:
        return len(self._done)
