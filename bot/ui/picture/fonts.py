"""The fonts the pictures draw with (Source Sans Pro, from PyPI), at the sizes they use, and
which characters they can draw: read from the font files' own tables (cmap), so a name is
drawn without the empty boxes of missing glyphs.

Loaded once, when the module is imported, and only read afterwards, so renders may run in
several threads at once (asyncio.to_thread). Pillow's FreeType calls hold the GIL, so the
shared fonts are used one call at a time.
"""

from __future__ import annotations

import struct
from dataclasses import dataclass
from importlib.resources import files
from io import BytesIO

from PIL import ImageFont

FONT_PACKAGE = "font_source_sans_pro"  # Source Sans Pro (SIL OFL 1.1), from PyPI


def _font_file(style: str) -> bytes:
    return (files(FONT_PACKAGE) / "files" / f"SourceSansPro-{style}.ttf").read_bytes()


def cmap(data: bytes) -> frozenset[int]:
    """The code points a TrueType font has glyphs for (its cmap, format 12 or 4), so names
    can be drawn without the empty boxes of missing glyphs."""
    (tables,) = struct.unpack_from(">H", data, 4)
    offset = None
    for i in range(tables):
        tag, _sum, start, _length = struct.unpack_from(">4sIII", data, 12 + 16 * i)
        if tag == b"cmap":
            offset = start
    assert offset is not None, "a TrueType font has a cmap"
    _version, count = struct.unpack_from(">HH", data, offset)
    subtables = {}
    for i in range(count):
        platform, encoding, sub = struct.unpack_from(">HHI", data, offset + 4 + 8 * i)
        subtables[platform, encoding] = offset + sub
    points: set[int] = set()
    if (3, 10) in subtables:  # format 12: groups of code points, the whole of Unicode
        at = subtables[3, 10]
        (groups,) = struct.unpack_from(">I", data, at + 12)
        for g in range(groups):
            first, last, _glyph = struct.unpack_from(">III", data, at + 16 + 12 * g)
            points.update(range(first, last + 1))
        return frozenset(points)
    at = subtables[3, 1]  # format 4: segments of the Basic Multilingual Plane
    (segx2,) = struct.unpack_from(">H", data, at + 6)
    n = segx2 // 2
    ends = struct.unpack_from(f">{n}H", data, at + 14)
    starts = struct.unpack_from(f">{n}H", data, at + 16 + segx2)
    deltas = struct.unpack_from(f">{n}h", data, at + 16 + 2 * segx2)
    range_at = at + 16 + 3 * segx2
    ranges = struct.unpack_from(f">{n}H", data, range_at)
    for i in range(n):
        for c in range(starts[i], ends[i] + 1):
            if c == 0xFFFF:
                continue
            if ranges[i] == 0:
                glyph = (c + deltas[i]) & 0xFFFF
            else:
                where = range_at + 2 * i + ranges[i] + 2 * (c - starts[i])
                (glyph,) = struct.unpack_from(">H", data, where)
                glyph = (glyph + deltas[i]) & 0xFFFF if glyph else 0
            if glyph:
                points.add(c)
    return frozenset(points)


@dataclass(frozen=True)
class Fonts:
    """The typefaces at the sizes the picture uses, loaded once."""

    rank: ImageFont.FreeTypeFont  # a card's rank
    rank_small: ImageFont.FreeTypeFont  # a small card's rank
    rank_mini: ImageFont.FreeTypeFont  # the card inside the caption
    name: ImageFont.FreeTypeFont  # a player's name
    text: ImageFont.FreeTypeFont  # counts and labels
    badge: ImageFont.FreeTypeFont  # the count on a bundle (the stats card)
    words: ImageFont.FreeTypeFont  # the table picture's words: 12 px tall shown on a phone
    count: ImageFont.FreeTypeFont  # the table picture's badges (a bundle's size, +3, away)
    covered: frozenset[int]  # code points the fonts can draw


def _load_fonts() -> Fonts:
    bold, semibold = _font_file("Bold"), _font_file("Semibold")
    basic = ImageFont.Layout.BASIC  # the same glyph placement everywhere (raqm or not)

    def font(data: bytes, size: int) -> ImageFont.FreeTypeFont:
        return ImageFont.truetype(BytesIO(data), size, layout_engine=basic)

    return Fonts(
        rank=font(bold, 44),
        rank_small=font(bold, 30),
        rank_mini=font(bold, 24),
        name=font(bold, 28),
        text=font(semibold, 24),
        badge=font(bold, 20),
        words=font(semibold, 26),
        count=font(bold, 26),
        covered=cmap(bold) & cmap(semibold),
    )


FONTS = _load_fonts()


def drawable(text: str) -> str:
    """`text` without the characters the fonts cannot draw (emoji, most scripts outside
    Latin, Greek and Cyrillic), spaces tidied."""
    kept = "".join(c if ord(c) in FONTS.covered else (" " if c.isspace() else "") for c in text)
    return " ".join(kept.split())
