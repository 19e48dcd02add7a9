"""The table picture's pixels and PNG bytes: ``draw(layout)``, ``encode(image)`` and
``render(scene)`` for all three steps. Safe to run in a thread (asyncio.to_thread): nothing
they read changes. The same scene gives the same bytes: the PNG encoder's settings and its
palette (PALETTE) are fixed and it writes no time."""

from __future__ import annotations

import io

from PIL import Image, ImageDraw

from bot.engine import preset

from .cards import draw_back, draw_face
from .fonts import FONTS
from .layout import CardSpot, Layout, layout
from .samples import SAMPLE_NAMES, sample
from .scene import Scene
from .style import (
    DIM,
    DOT,
    FELT,
    GOLD,
    MARK,
    MARK_FRAME,
    PILLS,
    PLATES,
    SEAT_RGB,
    SLOT_FRAME,
    TURN_FRAME,
    WIDTH,
)


def draw_card(im: Image.Image, spot: CardSpot, deck: str, four_colour: bool) -> None:
    """A card where its spot is: face up, or its back when the spot's card is None."""
    if spot.card is None:
        draw_back(im, spot.rect[:2], spot.size)
    else:
        suit = spot.card[-1]
        draw_face(im, spot.rect[:2], spot.size, spot.label, deck, suit, four_colour)


def draw(lay: Layout) -> Image.Image:
    """The layout's pixels, in layers: plates, cards, marks, veils, frames, words, badges."""
    im = Image.new("RGB", (lay.width, lay.height), FELT)
    d = ImageDraw.Draw(im)
    deck, four = lay.deck, lay.four_colour
    # Panels first: the highlighted one lighter, with a gold frame and a pointer.
    for p in lay.panels:
        PLATES[p.turn].paste(im, p.rect)
    for rect, word in lay.slots:
        SLOT_FRAME.paste(im, rect)
        if word:
            cx, cy = (rect[0] + rect[2]) // 2, (rect[1] + rect[3]) // 2
            d.text((cx, cy), word, font=FONTS.count, fill=DIM, anchor="mm")
    for spot in lay.stock:
        draw_card(im, spot, deck, four)
    for spot in lay.pool:
        draw_card(im, spot, deck, four)
    for p in lay.panels:
        for b in p.bundles:
            if b.top is not None:
                draw_card(im, b.top, deck, four)
        for spot in p.hand:
            draw_card(im, spot, deck, four)
    for rect in lay.marked:
        MARK_FRAME.paste(im, (rect[0] - MARK, rect[1] - MARK, rect[2] + MARK, rect[3] + MARK))
    # Players out of the game (or of the playoff) are dimmed.
    for p in lay.panels:
        if p.state in ("forfeited", "out"):
            veil = Image.new("RGB", (p.rect[2] - p.rect[0], p.rect[3] - p.rect[1]), FELT)
            im.paste(Image.blend(im.crop(p.rect), veil, 0.55), p.rect[:2])
    # The seat dots, and the player to act framed, with a pointer: over the veil.
    for p in lay.panels:
        x, y = p.rect[0] + 14, p.rect[1] + 19
        d.ellipse((x, y, x + DOT, y + DOT), fill=SEAT_RGB[p.seat % len(SEAT_RGB)])
        if p.turn:
            TURN_FRAME.paste(im, (p.rect[0] - 1, p.rect[1] - 1, p.rect[2] + 1, p.rect[3] + 1))
            x, y = p.rect[0] + 14 + DOT + 8, p.rect[1] + 16
            d.polygon([(x, y), (x + 18, y + 10), (x, y + 20)], fill=GOLD)
    for text in lay.texts:
        font = getattr(FONTS, text.font)
        d.text(text.xy, text.text, font=font, fill=text.fill, anchor=text.anchor)
    for badge in lay.badges:
        PILLS[badge.fill].paste(im, badge.rect)
        cx, cy = (badge.rect[0] + badge.rect[2]) // 2, (badge.rect[1] + badge.rect[3]) // 2
        d.text((cx, cy), badge.text, font=FONTS.count, fill=badge.ink, anchor="mm")
    return im


def encode(im: Image.Image) -> bytes:
    """A small PNG: the picture mapped to a fixed palette of 256 colours (PALETTE), fixed
    encoder settings, no metadata. So the same picture always gives the same bytes."""
    pal = im.quantize(palette=PALETTE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, "PNG", optimize=False, compress_level=PNG_LEVEL)
    return out.getvalue()


PNG_LEVEL = 3  # zlib: 9 saves a fifth of the bytes and takes 30 times as long


def render(scene: Scene) -> bytes:
    """The scene as a PNG: its layout, drawn and encoded."""
    return encode(draw(layout(scene)))


def _palette() -> Image.Image:
    """The picture's 256 colours, chosen once from sample tables of every deck family (both
    colour schemes, a forfeited and an away seat), so mapping a picture to them is fast (a
    palette of its own would cost more than the drawing) and the same everywhere."""
    refs = []
    for rules, four, lang in (
        ("standard", False, "en"), ("standard", True, "fr"), ("casita", False, "es"),
        ("rubamazzo", False, "it"),
    ):  # fmt: skip
        table, last = sample(preset(rules), 4, 1, 9)
        table.forfeited, table.away = {3}, {1}
        refs.append(draw(layout(Scene.of(table, SAMPLE_NAMES, lang, last=last, four_colour=four))))
    stack = Image.new("RGB", (WIDTH, sum(r.height for r in refs)))
    y = 0
    for r in refs:
        stack.paste(r, (0, y))
        y += r.height
    return stack.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


PALETTE = _palette()
