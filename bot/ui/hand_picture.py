"""A hand as a picture: the player's cards side by side, drawn by bot.ui.cards_art.

Each card is drawn once (per deck, card and rank label), mapped to its deck's fixed palette of
255 colours, and kept: a hand's picture is its cards pasted side by side in palette mode and a
PNG of a quarter of the bytes RGBA would take, in about 0.2 ms. Pure and cached: the same deck,
cards and labels give the same bytes. Draw it off the event loop:
``peek(...) or await asyncio.to_thread(hand_strip, ...)``.
"""

from __future__ import annotations

import io
import threading
from collections import OrderedDict
from collections.abc import Sequence
from functools import cache

from PIL import Image

from bot.engine import DECKS, RANK, Rules
from bot.i18n.cards import rank_label

from . import cards_art as art

GAP = 10  # between two cards
PAD = 4  # around the row, so the cards' rounded edges are not cut
FILE = "hand.png"
KEEP = 1024  # hand pictures kept (about 5 KB each)
PNG_LEVEL = 1  # zlib: higher levels save little on these pictures and take longer
CLEAR = 255  # the palette index of the transparent ground (the cards use the others)
BACKDROP = (88, 90, 98)  # what a card's antialiased corner blends into: mid-grey, any theme

Key = tuple[str, tuple[str, ...], tuple[str, ...]]
_done: OrderedDict[Key, bytes] = OrderedDict()
_lock = threading.Lock()


def _face(deck: str, card: str, label: str) -> Image.Image:
    """One card, RGBA, on a transparent ground."""
    size = art.BIG
    im = Image.new("RGBA", (size.w, size.h), (0, 0, 0, 0))
    art.draw_face(im, (0, 0), "big", label, deck, card[-1], False)
    return im


@cache
def _palette(deck: str) -> Image.Image:
    """255 colours for every card of the deck, chosen once (index 255 stays free: CLEAR)."""
    cards = DECKS[deck].cards
    size = art.BIG
    sheet = Image.new("RGB", (size.w * len(cards), size.h), BACKDROP)
    for i, card in enumerate(cards):
        face = _face(deck, card, str(RANK[card]))
        sheet.paste(face, (i * size.w, 0), face)
    return sheet.quantize(255, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


@cache
def _tile(deck: str, card: str, label: str) -> Image.Image:
    """One card in its deck's palette, its transparent corners CLEAR."""
    face = _face(deck, card, label)
    flat = Image.new("RGB", face.size, BACKDROP)
    flat.paste(face, (0, 0), face)
    tile = flat.quantize(palette=_palette(deck), dither=Image.Dither.NONE)
    clear = face.getchannel("A").point(lambda a: 255 if a < 128 else 0)
    tile.paste(CLEAR, (0, 0, *face.size), clear)
    return tile


def draw(deck: str, cards: tuple[str, ...], labels: tuple[str, ...]) -> bytes:
    """The cards as a PNG on a transparent ground (it sits on the reader's theme).
    `labels`: each card's rank as printed on it (bot.i18n.cards.rank_label)."""
    size = art.BIG
    n = max(1, len(cards))
    im = Image.new("P", (2 * PAD + n * size.w + (n - 1) * GAP, 2 * PAD + size.h), CLEAR)
    palette = [*(_palette(deck).getpalette() or []), *[0] * 768][: 3 * 256]
    im.putpalette(palette)
    for i, (card, label) in enumerate(zip(cards, labels, strict=True)):
        im.paste(_tile(deck, card, label), (PAD + i * (size.w + GAP), PAD))
    out = io.BytesIO()
    im.save(out, "PNG", optimize=False, compress_level=PNG_LEVEL, transparency=CLEAR)
    return out.getvalue()


def _key(lang: str, cards: Sequence[str], rules: Rules) -> Key:
    labels = tuple(rank_label(lang, RANK[c], rules) for c in cards)
    return rules.deck, tuple(cards), labels


def peek(lang: str, cards: Sequence[str], rules: Rules) -> bytes | None:
    """The hand's picture if it was drawn already (no thread needed), else None."""
    key = _key(lang, cards, rules)
    with _lock:
        png = _done.get(key)
        if png is not None:
            _done.move_to_end(key)
        return png


def hand_strip(lang: str, cards: Sequence[str], rules: Rules) -> bytes:
    """A hand's picture in the reader's language (their rank letters), drawn or from the cache.
    Thread-safe: two threads may draw the same hand at once, and keep the same bytes."""
    key = _key(lang, cards, rules)
    png = peek(lang, cards, rules)
    if png is None:
        png = draw(*key)
        with _lock:
            _done[key] = png
            while len(_done) > KEEP:
                _done.popitem(last=False)
    return png
