"""A tournament's standings as a picture: a title, the column labels, then a row a player
(rank or medal, name, points, opponents' points, cards taken). Its message: bot.ui.tournament.

Drawn to be read on a phone like the table picture: WIDTH px wide, shown about SHOWN px wide
on a 360-px phone, every word in a font of at least MIN_FONT px so it is shown at least
READABLE px tall. A name too long for its column takes the row's whole width, on up to
NAME_LINES lines, with the numbers on a line of their own below it; emoji in names are drawn
(picture.emoji). `StandingsScene` holds the plain values (take it on the event loop);
`render_standings` draws and encodes it, safe in a thread; the same scene gives the same bytes.
"""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from . import emoji
from .draw import PNG_LEVEL
from .end_screen import MEDAL_COLOURS
from .fonts import FONTS
from .layout import READABLE, SHOWN, fit, text_width
from .style import DIM, FELT, GOLD, INK, LIGHT, MARGIN, PLATES, WIDTH

ROW_H = 44
ROW_GAP = 4
TITLE_H = 44
LABELS_H = 34
SKIP_H = 30  # the "…" between the top rows and the reader's own row further down
COLUMN_GAP = 14
RANK_W = 52  # the rank's column: a medal disc or the number
MEDAL = 34  # the medal disc's diameter
NAME_LINES = 2  # lines a long name may take (Discord's 32 characters fit in two)
NAME_LINE_H = 34  # px: a line of a long name
NAME_X = MARGIN + RANK_W + 14
NAME_RIGHT = WIDTH - MARGIN - 14  # a long name's lines end here
FONTS_USED = ("name", "count", "words")  # every font the picture draws with
MIN_FONT = READABLE * WIDTH / SHOWN  # px: the smallest font a word may be drawn in


@dataclass(frozen=True)
class Line:
    """One row as drawn: its texts ready (numbers formatted, the name drawable)."""

    rank: int
    name: str
    points: str
    opponents: str
    cards: str
    medal: bool = False  # a gold, silver or bronze disc (the final standings' top three)
    you: bool = False  # the reader's own row: a lighter plate
    dropped: bool = False  # dimmed
    after_gap: bool = False  # rows were left out above it: a "…" first
    said: str = ""  # the name in words (the description): all of it, emoji and any script


@dataclass(frozen=True)
class StandingsScene:
    title: str
    labels: tuple[str, str, str]  # points, opponents' points, cards
    lines: tuple[Line, ...]
    left_word: str = ""  # added to a dropped player's name: "(left)"

    @property
    def key(self) -> tuple[object, ...]:
        return ("standings", self.title, self.labels, self.lines, self.left_word)


def name_lines(scene: StandingsScene, line: Line, room: float) -> list[str]:
    """The row's name as drawn: [the name] if it fits in its column (`room` px); else its
    lines across the row, at most NAME_LINES, and the numbers go below them ("" last)."""
    name = line.name + (f" ({scene.left_word})" if line.dropped and scene.left_word else "")
    font = FONTS.name
    if emoji.width(name, font) <= room:
        return [name]
    return [*emoji.wrap(name, font, NAME_RIGHT - NAME_X, NAME_LINES), ""]


def _name_room(scene: StandingsScene) -> float:
    return _columns(scene)[0][0] - COLUMN_GAP - NAME_X


def row_height(lines: list[str]) -> int:
    """One line: ROW_H. A long name: its lines, then the numbers' line."""
    return ROW_H if len(lines) == 1 else ROW_H + NAME_LINE_H * (len(lines) - 1) - 6


def height(scene: StandingsScene) -> int:
    room = _name_room(scene)
    rows = sum(row_height(name_lines(scene, line, room)) + ROW_GAP for line in scene.lines)
    gaps = sum(1 for line in scene.lines if line.after_gap)
    return 2 * MARGIN + TITLE_H + LABELS_H + rows + gaps * SKIP_H


def _columns(scene: StandingsScene) -> list[tuple[int, int]]:
    """Each number column's (left, right) x: as wide as its widest text, right-aligned."""
    right = WIDTH - MARGIN - 14
    out: list[tuple[int, int]] = []
    for i in (2, 1, 0):  # cards, opponents, points: from the right edge in
        texts = [getattr(line, ("points", "opponents", "cards")[i]) for line in scene.lines]
        width = max(
            [text_width(scene.labels[i], "words"), *(text_width(x, "count") for x in texts)]
        )
        out.append((round(right - width), right))
        right = round(right - width - COLUMN_GAP)
    return out[::-1]


def draw_standings(scene: StandingsScene) -> Image.Image:
    im = Image.new("RGB", (WIDTH, height(scene)), FELT)
    d = ImageDraw.Draw(im)
    columns = _columns(scene)
    title = fit(scene.title, "name", WIDTH - 2 * MARGIN)
    d.text((MARGIN, MARGIN + TITLE_H // 2), title, font=FONTS.name, fill=LIGHT, anchor="lm")
    y = MARGIN + TITLE_H + LABELS_H // 2
    for label, (_, right) in zip(scene.labels, columns, strict=True):
        d.text((right, y), label, font=FONTS.words, fill=DIM, anchor="rm")
    room = _name_room(scene)
    y = MARGIN + TITLE_H + LABELS_H
    for line in scene.lines:
        if line.after_gap:
            d.text((WIDTH // 2, y + SKIP_H // 2), "…", font=FONTS.name, fill=DIM, anchor="mm")
            y += SKIP_H
        names = name_lines(scene, line, room)
        tall = row_height(names)
        PLATES[line.you].paste(im, (MARGIN, y, WIDTH - MARGIN, y + tall))
        # One line: all at the row's middle. A long name: its lines on top, the rank and the
        # numbers on the row's last line.
        cy = y + tall - ROW_H // 2
        cx = MARGIN + 8 + RANK_W // 2
        top = line.medal and line.rank <= len(MEDAL_COLOURS)
        ink = DIM if line.dropped else (GOLD if top and line.rank == 1 else LIGHT)
        rank_y = y + ROW_H // 2 if len(names) > 1 else cy
        if top:
            r = MEDAL // 2
            d.ellipse((cx - r, rank_y - r, cx + r, rank_y + r), fill=MEDAL_COLOURS[line.rank - 1])
            d.text((cx, rank_y), str(line.rank), font=FONTS.count, fill=INK, anchor="mm")
        else:
            d.text((cx, rank_y), str(line.rank), font=FONTS.count, fill=DIM, anchor="mm")
        name_y = cy if len(names) == 1 else y + ROW_H // 2
        for i, text in enumerate(n for n in names if n):
            emoji.draw(d, (NAME_X, name_y + i * NAME_LINE_H), text, FONTS.name, ink)
        values = (line.points, line.opponents, line.cards)
        for i, (value, (_, right)) in enumerate(zip(values, columns, strict=True)):
            fill = ink if i == 0 else (DIM if line.dropped else LIGHT)
            d.text((right, cy), value, font=FONTS.count, fill=fill, anchor="rm")
        y += tall + ROW_GAP
    return im


def render_standings(scene: StandingsScene) -> bytes:
    """The standings as a PNG with its own 256 colours (drawn once a round)."""
    im = draw_standings(scene)
    pal = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, "PNG", optimize=False, compress_level=PNG_LEVEL)
    return out.getvalue()
