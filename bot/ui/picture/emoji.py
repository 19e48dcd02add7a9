"""Names with emoji on a picture: the picture's font for what it has glyphs for, Noto Emoji
(monochrome, drawn in the text's colour) for the emoji it lacks; anything neither has is left
out (no empty boxes). Measuring, cutting, wrapping and drawing go run by run.

The fonts are loaded once and only read afterwards, like bot.ui.picture.fonts', so pictures may
be drawn in several threads at once.
"""

from __future__ import annotations

from functools import cache
from importlib.resources import files
from io import BytesIO

from PIL import ImageDraw, ImageFont

from .fonts import FONTS, cmap

EMOJI_PACKAGE = "manimgx_fonts"  # Noto Emoji (SIL OFL 1.1), from PyPI
EMOJI_FILE = "NotoEmoji[wght].ttf"
EMOJI_WEIGHT = 700  # bold, as the names beside it

_DATA = (files(EMOJI_PACKAGE) / EMOJI_FILE).read_bytes()
EMOJI_COVERED = cmap(_DATA)

Run = tuple[str, bool]  # (text, drawn with the emoji font)


@cache
def emoji_font(size: int) -> ImageFont.FreeTypeFont:
    font = ImageFont.truetype(BytesIO(_DATA), size, layout_engine=ImageFont.Layout.BASIC)
    font.set_variation_by_axes([EMOJI_WEIGHT])
    return font


def drawable(text: str) -> str:
    """`text` with only what the picture's font or the emoji font can draw, spaces tidied."""
    kept = "".join(
        c if _main(c) or ord(c) in EMOJI_COVERED else (" " if c.isspace() else "") for c in text
    )
    return " ".join(kept.split())


def _main(c: str) -> bool:
    return ord(c) in FONTS.covered


def runs(text: str) -> list[Run]:
    """The text cut where it changes font."""
    out: list[Run] = []
    for c in text:
        emoji = not _main(c)
        if out and out[-1][1] == emoji:
            out[-1] = (out[-1][0] + c, emoji)
        else:
            out.append((c, emoji))
    return out


def width(text: str, font: ImageFont.FreeTypeFont) -> float:
    other = emoji_font(int(font.size))
    return sum((other if emoji else font).getlength(run) for run, emoji in runs(text))


def fit(text: str, font: ImageFont.FreeTypeFont, room: float) -> str:
    """text, cut with an ellipsis to fit `room` px."""
    if width(text, font) <= room:
        return text
    while text and width(text + "…", font) > room:
        text = text[:-1]
    return text.rstrip() + "…"


def wrap(text: str, font: ImageFont.FreeTypeFont, room: float, lines: int) -> list[str]:
    """text in at most `lines` lines of `room` px: broken at a space where one fits, else
    anywhere; the last line cut with an ellipsis if the text goes on."""
    out: list[str] = []
    rest = text
    while rest and len(out) < lines - 1 and width(rest, font) > room:
        cut = len(rest)
        while cut > 1 and width(rest[:cut], font) > room:
            cut -= 1
        space = rest.rfind(" ", 0, cut + 1)
        if space > 0:
            cut = space
        out.append(rest[:cut].rstrip())
        rest = rest[cut:].lstrip()
    if rest:
        out.append(fit(rest, font, room))
    return out


def draw(
    d: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
) -> None:
    """text from its left edge at x, centred on y (anchor "lm"), run by run."""
    x, y = xy
    other = emoji_font(int(font.size))
    for run, emoji in runs(text):
        used = other if emoji else font
        d.text((x, y), run, font=used, fill=fill, anchor="lm")
        x += used.getlength(run)
