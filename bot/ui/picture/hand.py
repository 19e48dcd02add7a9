"""The hand's picture: what a player needs to choose a move, seen from their seat. The pool
with the stock beside it, then each opponent (in turn order from the player's left) with
their bundles' top cards and sizes. The player's own cards are not drawn: they are the hand's
buttons.

Compact: small cards on a short strip, so the hand, its picture and its buttons fit a phone's
screen together. Pure and cached by content (``Seat``): the same pool, bundles and names give
the same bytes, drawn once. Draw it off the event loop:
``peek(seat) or await asyncio.to_thread(picture, seat)``.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass

from PIL import Image, ImageDraw

from bot.engine import RANK
from bot.i18n import t
from bot.i18n.cards import rank_label
from bot.session.models import Table

from ..text import names_of
from .cards import SMALL, Rounded, draw_back
from .draw import draw_card, encode
from .fonts import FONTS, drawable
from .layout import CardSpot, fit
from .style import (
    DIM,
    DOT,
    FELT,
    FELT_DARK,
    LIGHT,
    PANEL,
    PILL_H,
    PILLS,
    SEAT_RGB,
    SLOT_FRAME,
)

FILE = "hand.png"
WIDTH = 480  # as the table's picture: shown as wide, so its words are as tall
MARGIN = 12
GAP = 10
CARD = SMALL
MIN_STEP = 34  # the narrowest overlap of small cards that still shows a rank and suit
NAME_H = 34  # an opponent's name row
KEEP = 256  # pictures kept (a few KB each)
PLATE = Rounded.make(12, PANEL)


@dataclass(frozen=True)
class Other:
    """An opponent as drawn: seat (its colour), name, and each bundle's top card (None:
    empty), its label and size; out: forfeited or sitting out a playoff (dimmed)."""

    seat: int
    name: str
    bundles: tuple[tuple[str | None, str, int], ...]
    out: bool = False


@dataclass(frozen=True)
class Seat:
    """Everything the picture shows, as plain values: its cache key."""

    deck: str
    pool: tuple[tuple[str, str], ...]  # (card, its rank as printed)
    stock: int
    others: tuple[Other, ...]

    @classmethod
    def of(cls, lang: str, table: Table, seat: int, names: Mapping[str, str]) -> Seat:
        """What seat `seat` sees of the table, in the reader's language (rank letters)."""
        v = table.hand(seat).view
        rules = v.rules

        def label(card: str) -> str:
            return rank_label(lang, RANK[card], rules)

        name = names_of(lang, v.seats, names)
        n = len(v.seats)
        others = []
        for i in range(1, n):
            s = (seat + i) % n
            drawn = drawable(name(s)) or drawable(t(lang, "name.player", number=s + 1))
            tops = tuple(
                (b.top, label(b.top) if b.top else "", b.size)
                for b in v.bundles[s][: rules.bundles_per_seat]
            )
            out = s in table.forfeited or s not in v.players
            others.append(Other(s, drawn, tops, out))
        return cls(rules.deck, tuple((c, label(c)) for c in v.pool), v.stock_size, tuple(others))


def _pool_step(n: int, room: int) -> tuple[int, int]:
    """(cards a row, step between them): one row if they fit overlapping, else more."""
    rows = 1
    while math.ceil(n / rows) > 1 + (room - CARD.w) // MIN_STEP:
        rows += 1
    per_row = max(1, math.ceil(n / rows))
    step = CARD.w + 6
    if per_row > 1:
        step = min(step, (room - CARD.w) // (per_row - 1))
    return per_row, step


def _badge(im: Image.Image, d: ImageDraw.ImageDraw, x: int, y: int, text: str) -> None:
    """A count in a pill whose left edge is x, its top y."""
    w = max(PILL_H, round(FONTS.count.getlength(text)) + 14)
    PILLS[FELT_DARK].paste(im, (x, y, x + w, y + PILL_H))
    d.text((x + w // 2, y + PILL_H // 2), text, font=FONTS.count, fill=LIGHT, anchor="mm")


def draw(seat: Seat) -> bytes:
    """The picture's PNG: the pool and the stock on one strip, the opponents under it."""
    stock_w = CARD.w + 8
    room = WIDTH - 2 * MARGIN - stock_w - GAP
    per_row, step = _pool_step(len(seat.pool), room)
    pool_rows = max(1, math.ceil(len(seat.pool) / per_row))
    pool_h = pool_rows * CARD.h + (pool_rows - 1) * 6
    n = max(1, len(seat.others))
    bundles = max((len(o.bundles) for o in seat.others), default=1)
    cell_min = 14 + bundles * (CARD.w + 8) + 6
    cols = max(1, min(n, (WIDTH - 2 * MARGIN + GAP) // (cell_min + GAP)))
    cell_w = (WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols
    cell_h = NAME_H + CARD.h + 10
    rows = math.ceil(n / cols) if seat.others else 0
    top = MARGIN + pool_h + GAP
    height = top + rows * cell_h + max(0, rows - 1) * GAP + MARGIN
    im = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(im)
    if not seat.pool:
        SLOT_FRAME.paste(im, (MARGIN, MARGIN, MARGIN + CARD.w, MARGIN + CARD.h))
    for i, (card, label) in enumerate(seat.pool):
        row, col = divmod(i, per_row)
        x, y = MARGIN + col * step, MARGIN + row * (CARD.h + 6)
        draw_card(im, CardSpot((x, y, x + CARD.w, y + CARD.h), card, "small", label), seat.deck,
                  False)  # fmt: skip
    sx = WIDTH - MARGIN - CARD.w
    if seat.stock:
        draw_back(im, (sx, MARGIN), "small")
        _badge(im, d, sx + 4, MARGIN + CARD.h - PILL_H - 4, str(seat.stock))
    else:
        SLOT_FRAME.paste(im, (sx, MARGIN, sx + CARD.w, MARGIN + CARD.h))
        d.text((sx + CARD.w // 2, MARGIN + CARD.h // 2), "0", font=FONTS.count, fill=DIM,
               anchor="mm")  # fmt: skip
    for i, other in enumerate(seat.others):
        row, col = divmod(i, cols)
        x, y = MARGIN + col * (cell_w + GAP), top + row * (cell_h + GAP)
        rect = (x, y, x + cell_w, y + cell_h)
        PLATE.paste(im, rect)
        d.ellipse((x + 10, y + 11, x + 10 + DOT, y + 11 + DOT), fill=SEAT_RGB[other.seat % 4])
        name = fit(other.name, "words", cell_w - 10 - DOT - 6 - 8)
        d.text((x + 10 + DOT + 6, y + 27), name, font=FONTS.words, fill=LIGHT, anchor="ls")
        for b, (top_card, label, size) in enumerate(other.bundles):
            bx, by = x + 10 + b * (CARD.w + 8), y + NAME_H
            brect = (bx, by, bx + CARD.w, by + CARD.h)
            if top_card is None:
                SLOT_FRAME.paste(im, brect)
                d.text((bx + CARD.w // 2, by + CARD.h // 2), "0", font=FONTS.count,
                       fill=DIM, anchor="mm")  # fmt: skip
                continue
            draw_card(im, CardSpot(brect, top_card, "small", label), seat.deck, False)
            _badge(im, d, bx + 4, by + CARD.h - PILL_H - 4, str(size))
        if other.out:  # forfeited, or out of the playoff: dimmed
            veil = Image.new("RGB", (rect[2] - rect[0], rect[3] - rect[1]), FELT)
            im.paste(Image.blend(im.crop(rect), veil, 0.55), rect[:2])
    return encode(im)


_done: OrderedDict[Seat, bytes] = OrderedDict()
_lock = threading.Lock()


def peek(seat: Seat) -> bytes | None:
    """The picture if it was drawn already (no thread needed), else None."""
    with _lock:
        png = _done.get(seat)
        if png is not None:
            _done.move_to_end(seat)
        return png


def picture(seat: Seat) -> bytes:
    """The picture, drawn or from the cache. Thread-safe: two threads may draw the same one at
    once, and keep the same bytes."""
    png = peek(seat)
    if png is None:
        png = draw(seat)
        with _lock:
            _done[seat] = png
            while len(_done) > KEEP:
                _done.popitem(last=False)
    return png
