"""A hand as a picture: the player's cards side by side, drawn by bot.ui.cards_art.

Pure and cached: the same deck, cards and rank labels give the same bytes, and a hand is
drawn once however often it is shown (a hand rarely changes while the others play). Call it
off the event loop: ``await asyncio.to_thread(strip, deck, cards, labels)``.
"""

from __future__ import annotations

import io
from collections.abc import Sequence
from functools import lru_cache

from PIL import Image

from bot.engine import RANK, Rules
from bot.i18n.cards import rank_label

from . import cards_art as art

GAP = 10  # between two cards
PAD = 4  # around the row, so the cards' rounded edges are not cut
FILE = "hand.png"


@lru_cache(maxsize=512)
def strip(deck: str, cards: tuple[str, ...], labels: tuple[str, ...]) -> bytes:
    """The cards as a PNG on a transparent ground (it sits on the reader's theme).
    `labels`: each card's rank as printed on it (bot.i18n.cards.rank_label)."""
    size = art.BIG
    n = max(1, len(cards))
    im = Image.new("RGBA", (2 * PAD + n * size.w + (n - 1) * GAP, 2 * PAD + size.h), (0, 0, 0, 0))
    for i, (card, label) in enumerate(zip(cards, labels, strict=True)):
        xy = (PAD + i * (size.w + GAP), PAD)
        art.draw_face(im, xy, "big", label, deck, card[-1], False)
    out = io.BytesIO()
    im.save(out, "PNG", optimize=False, compress_level=6)
    return out.getvalue()


def hand_strip(lang: str, cards: Sequence[str], rules: Rules) -> bytes:
    """A hand's picture in the reader's language (their rank letters)."""
    labels = tuple(rank_label(lang, RANK[c], rules) for c in cards)
    return strip(rules.deck, tuple(cards), labels)
