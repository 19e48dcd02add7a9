"""The table as a picture: a PNG of the pool, every player's panel, the stock, the player to
act and the last move, drawn with Pillow (the cards themselves: cards, suits and fonts).

Three steps, each a pure function, a module each:

1. ``Scene.of(table, names, lang, ...)`` (scene): the plain, immutable values the picture
   shows, read from the live table. Take it on the event loop: the table changes there.
2. ``layout(scene)`` (layout): where everything goes, as plain data (rects, texts, which seat
   is highlighted). Tests check the layout, not pixels.
3. ``draw(layout)`` and ``encode(image)`` (draw): the pixels and the PNG bytes. Safe to run
   in a thread (asyncio.to_thread): nothing they read changes.

``render(scene)`` does steps 2 and 3. The same scene gives the same bytes: the PNG encoder's
settings are fixed and it writes no time. ``TableCache`` (cache) keeps the latest pictures,
so several viewers or a repost of the same table draw it once. The end screen's picture of
the final bundles: end_screen. Sizes and colours: style. Sample tables: samples.

The golden images in tests/ui/golden are made by
``python -m bot.ui.picture --golden tests/ui/golden``; ``--samples DIR`` writes sample tables
to look at.
"""

from .cache import TableCache
from .draw import draw, encode, render
from .end_screen import FinalScene, Standing, draw_final, render_final
from .layout import CardSpot, Layout, layout
from .samples import GOLDEN, SAMPLE_NAMES, SAMPLE_SEATS, golden_scene, sample
from .scene import LastMove, Scene
from .style import WIDTH

__all__ = [
    "GOLDEN",
    "SAMPLE_NAMES",
    "SAMPLE_SEATS",
    "WIDTH",
    "CardSpot",
    "FinalScene",
    "LastMove",
    "Layout",
    "Scene",
    "Standing",
    "TableCache",
    "draw",
    "draw_final",
    "encode",
    "golden_scene",
    "layout",
    "render",
    "render_final",
    "sample",
]
