"""The end screen's picture: the final bundles, a row a player, best first
(``FinalScene.of`` a finished table, then ``render_final``). Its message: bot.ui.end_screen."""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from PIL import Image, ImageDraw

from bot.engine import RANK, Rules, view
from bot.i18n import t
from bot.i18n.cards import rank_label
from bot.session.models import Table

from ..text import cards as count_cards
from ..text import names_of
from .cards import SMALL
from .draw import PNG_LEVEL, draw_card
from .fonts import FONTS, drawable
from .layout import CardSpot, text_width
from .style import (
    CARD_GAP,
    CYAN,
    DIM,
    FELT,
    GAP,
    GOLD,
    INK,
    LIGHT,
    MARGIN,
    PLATES,
    SLOT,
    SLOT_FRAME,
    WIDTH,
)

MEDAL_COLOURS = ((255, 202, 40), (199, 206, 214), (214, 138, 72))  # gold, silver, bronze
ROW_H = SMALL.h + 20


@dataclass(frozen=True)
class Standing:
    """One player on the end screen's picture: their place (0: first), name as drawn, final
    bundle size and each bundle's top card (None: empty)."""

    seat: int
    place: int
    name: str
    size: int
    tops: tuple[str | None, ...]
    forfeited: bool = False


@dataclass(frozen=True)
class FinalScene:
    """The final bundles, best first (taken from a finished Table by ``of``)."""

    game_id: int
    version: int
    lang: str
    rules: Rules
    standings: tuple[Standing, ...]
    four_colour: bool = False

    @classmethod
    def of(
        cls,
        table: Table,
        names: Mapping[str, str],
        lang: str,
        places: Sequence[int],
        *,
        four_colour: bool = False,
    ) -> FinalScene:
        game = table.game
        assert game.result is not None  # only a finished game has final bundles
        sizes = game.result.bundle_sizes
        name = names_of(lang, game.seats, names)
        v = view(game, 0)
        per_seat = game.rules.bundles_per_seat
        rows = []
        for seat in sorted(range(len(game.seats)), key=lambda s: (places[s], -sizes[s], s)):
            drawn = drawable(name(seat)) or drawable(t(lang, "name.player", number=seat + 1))
            tops = tuple(b.top for b in v.bundles[seat][:per_seat])
            rows.append(Standing(seat, places[seat], drawn, sizes[seat], tops,
                                 seat in table.forfeited))  # fmt: skip
        return cls(table.game_id, table.version, lang, game.rules, tuple(rows), four_colour)

    @property
    def key(self) -> tuple[Any, ...]:
        return ("final", self.game_id, self.version, self.lang, self.four_colour, self.standings)


def wrap(text: str, font: str, width: float) -> list[str]:
    """text on as many lines of `width` as it needs, broken between words where it can (a
    word too long for a line is broken inside): a name is never cut."""
    lines: list[str] = []
    line = ""
    for word in text.split(" "):
        tried = f"{line} {word}" if line else word
        if text_width(tried, font) <= width:
            line = tried
            continue
        if line:
            lines.append(line)
        line = word
        while text_width(line, font) > width and len(line) > 1:
            cut = len(line)
            while cut > 1 and text_width(line[:cut], font) > width:
                cut -= 1
            lines.append(line[:cut])
            line = line[cut:]
    return [*lines, line] if line or not lines else lines


LINE_H = 30  # a name's line


def _row_height(name_lines: int) -> int:
    """A row: its name's lines above the count, at least as tall as its cards."""
    return max(ROW_H, 24 + name_lines * LINE_H + 34)


def _name_room(bundles: int) -> int:
    """How wide a name may be: from after a row's `bundles` cards to the right edge."""
    return WIDTH - MARGIN - 18 - (MARGIN + 84 + bundles * (SMALL.w + CARD_GAP) + 10)


def draw_final(scene: FinalScene) -> Image.Image:
    """A row a player, best first: a medal with the place, the top card of each bundle, the
    name in full (on two lines if it must) and, under it, the final count with a bar as long
    as the bundle, on the table's felt."""
    rules, lang = scene.rules, scene.lang
    rows = scene.standings
    names = []
    for row in rows:
        name = row.name + (" (" + t(lang, "table.forfeited") + ")" if row.forfeited else "")
        names.append(wrap(name, "name", _name_room(len(row.tops))))
    heights = [_row_height(len(lines)) for lines in names]
    height = 2 * MARGIN + sum(heights) + (len(rows) - 1) * GAP // 2
    im = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(im)
    best = max((r.size for r in rows), default=0) or 1
    y = MARGIN
    for row, lines, row_h in zip(rows, names, heights, strict=True):
        rect = (MARGIN, y, WIDTH - MARGIN, y + row_h)
        PLATES[row.place == 0].paste(im, rect)
        # The medal: a disc in the place's colour with its number (4th: the number alone).
        cx, cy = MARGIN + 40, y + row_h // 2
        if row.place < len(MEDAL_COLOURS) and not row.forfeited:
            d.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), fill=MEDAL_COLOURS[row.place])
            d.text((cx, cy), str(row.place + 1), font=FONTS.name, fill=INK, anchor="mm")
        else:
            d.text((cx, cy), str(row.place + 1), font=FONTS.name, fill=DIM, anchor="mm")
        # The bundles' top cards.
        x = MARGIN + 84
        top_y = y + (row_h - SMALL.h) // 2
        for top in row.tops:
            spot_rect = (x, top_y, x + SMALL.w, top_y + SMALL.h)
            if top is None:
                SLOT_FRAME.paste(im, spot_rect)
            else:
                spot = CardSpot(spot_rect, top, "small", rank_label(lang, RANK[top], rules))
                draw_card(im, spot, rules.deck, scene.four_colour)
            x += SMALL.w + CARD_GAP
        # The name in full, then the count on the right with the bar before it.
        colour = GOLD if row.place == 0 else LIGHT
        name_x = x + 10
        for i, line in enumerate(lines):
            d.text((name_x, y + 34 + i * LINE_H), line, font=FONTS.name, fill=colour,
                   anchor="ls")  # fmt: skip
        count = count_cards(lang, row.size)
        right = WIDTH - MARGIN - 18
        base = y + row_h - 16
        d.text((right, base), count, font=FONTS.name, fill=colour, anchor="rs")
        room = right - round(text_width(count, "name")) - 16 - name_x
        bar = round(max(0, room) * row.size / best)
        if bar:
            d.rounded_rectangle((name_x, base - 16, name_x + bar, base - 6), radius=5,
                                fill=CYAN if row.place == 0 else SLOT)  # fmt: skip
        y += row_h + GAP // 2
    return im


def render_final(scene: FinalScene) -> bytes:
    """The end screen's picture as a PNG: its own 256 colours (it is drawn once a game)."""
    im = draw_final(scene)
    pal = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, "PNG", optimize=False, compress_level=PNG_LEVEL)
    return out.getvalue()
