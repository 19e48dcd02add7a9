"""Playing cards drawn in code, for the pictures (bot.ui.picture): card sizes, blank faces and
backs, a face with its rank and suits, and antialiased rounded plates and frames. The fonts:
fonts; the suit shapes: suits.

Everything here is built once, when the module is imported, and only read afterwards, so
renders may run in several threads at once (asyncio.to_thread).
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from .fonts import FONTS
from .suits import INDEX, INDEX_SMALL, MINI, PIP, PIP_SMALL, RGB, SS, ink, suit_sprite

FACE = (255, 253, 246)  # a card's face
EDGE = (150, 150, 150)  # a card's border
BACK = (142, 27, 47)  # a card's back
BACK_LINE = (186, 70, 88)


# ----- card blanks and backs


@dataclass(frozen=True)
class CardSize:
    w: int
    h: int
    radius: int
    rank: ImageFont.FreeTypeFont
    index: int  # suit size under the rank
    pip: int  # suit size in the middle (0: none)


BIG = CardSize(84, 118, 9, FONTS.rank, INDEX, PIP)
SMALL = CardSize(58, 82, 7, FONTS.rank_small, INDEX_SMALL, PIP_SMALL)
HAND = CardSize(40, 56, 5, FONTS.rank_small, 0, 0)  # backs only
MINI_CARD = CardSize(34, 46, 5, FONTS.rank_mini, MINI, 0)
CARD_SIZES = {"big": BIG, "small": SMALL, "hand": HAND, "mini": MINI_CARD}


def _rounded(size: CardSize, fill: RGB, edge: RGB, edge_px: float) -> Image.Image:
    w, h = size.w * SS, size.h * SS
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(im)
    d.rounded_rectangle(
        [0, 0, w - 1, h - 1], radius=size.radius * SS, fill=fill, outline=edge,
        width=round(edge_px * SS),
    )  # fmt: skip
    return im


def _blank(size: CardSize) -> Image.Image:
    return _rounded(size, FACE, EDGE, 1.5).resize((size.w, size.h), Image.Resampling.BOX)


def _back(size: CardSize) -> Image.Image:
    im = _rounded(size, BACK, (250, 246, 238), max(2.0, size.w / 24))
    w, h = im.size
    inset = round(max(4, size.w / 9) * SS)
    lattice = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    d = ImageDraw.Draw(lattice)
    step = max(6, size.w // 6) * SS
    line = max(1, round(SS * 1.2))
    for k in range(-h, w + h, step):
        d.line([(k, 0), (k + h, h)], fill=BACK_LINE, width=line)
        d.line([(k, h), (k + h, 0)], fill=BACK_LINE, width=line)
    mask = Image.new("L", (w, h), 0)
    ImageDraw.Draw(mask).rounded_rectangle(
        [inset, inset, w - 1 - inset, h - 1 - inset], radius=size.radius * SS // 2, fill=255
    )
    im.paste(lattice, (0, 0), Image.composite(lattice, Image.new("RGBA", (w, h)), mask))
    ImageDraw.Draw(im).rounded_rectangle(
        [inset, inset, w - 1 - inset, h - 1 - inset], radius=size.radius * SS // 2,
        outline=(214, 150, 160), width=SS,
    )  # fmt: skip
    return im.resize((size.w, size.h), Image.Resampling.BOX)


BLANKS = {name: _blank(size) for name, size in CARD_SIZES.items()}
BACKS = {name: _back(size) for name, size in CARD_SIZES.items()}


def outline(size: tuple[int, int], radius: int, colour: RGB, width: float) -> Image.Image:
    """An antialiased rounded frame of this size, to paste (build it once: it is slow)."""
    w, h = size[0] * SS, size[1] * SS
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle(
        [0, 0, w - 1, h - 1], radius=radius * SS, outline=colour, width=round(width * SS)
    )
    return im.resize(size, Image.Resampling.BOX)


def plate(size: tuple[int, int], radius: int, colour: RGB) -> Image.Image:
    """An antialiased filled rounded rectangle of this size, to paste."""
    w, h = size[0] * SS, size[1] * SS
    im = Image.new("RGBA", (w, h), (0, 0, 0, 0))
    ImageDraw.Draw(im).rounded_rectangle([0, 0, w - 1, h - 1], radius=radius * SS, fill=colour)
    return im.resize(size, Image.Resampling.BOX)


@dataclass(frozen=True)
class Rounded:
    """A rounded rectangle, filled or framed, of any size: four antialiased corners drawn once,
    and straight parts filled when pasted. Much faster than pasting a whole sprite."""

    corners: tuple[Image.Image, Image.Image, Image.Image, Image.Image]  # tl, tr, bl, br
    radius: int
    colour: RGB
    width: int  # 0: filled

    @classmethod
    def make(cls, radius: int, colour: RGB, width: int = 0) -> Rounded:
        whole = (
            outline((2 * radius, 2 * radius), radius, colour, width)
            if width
            else plate((2 * radius, 2 * radius), radius, colour)
        )
        r = radius
        boxes = ((0, 0, r, r), (r, 0, 2 * r, r), (0, r, r, 2 * r), (r, r, 2 * r, 2 * r))
        tl, tr, bl, br = (whole.crop(b) for b in boxes)
        return cls((tl, tr, bl, br), radius, colour, width)

    def paste(self, im: Image.Image, rect: tuple[int, int, int, int]) -> None:
        """Into rect (x0, y0, x1, y1), x1 and y1 excluded."""
        x0, y0, x1, y1 = rect
        r, w, c = self.radius, self.width, self.colour
        if w:
            bars = [(x0 + r, y0, x1 - r, y0 + w), (x0 + r, y1 - w, x1 - r, y1),
                    (x0, y0 + r, x0 + w, y1 - r), (x1 - w, y0 + r, x1, y1 - r)]  # fmt: skip
        else:
            bars = [(x0 + r, y0, x1 - r, y1), (x0, y0 + r, x1, y1 - r)]
        for bx0, by0, bx1, by1 in bars:
            if bx1 > bx0 and by1 > by0:
                im.paste(c, (bx0, by0, bx1, by1))
        tl, tr, bl, br = self.corners
        for corner, xy in ((tl, (x0, y0)), (tr, (x1 - r, y0)), (bl, (x0, y1 - r)),
                           (br, (x1 - r, y1 - r))):  # fmt: skip
            im.paste(corner, xy, corner)


def _rank_labels() -> frozenset[str]:
    """Every rank label of every deck in every language."""
    from bot.engine import DECKS, Rules
    from bot.i18n import LANGUAGES
    from bot.i18n.cards import rank_label

    return frozenset(
        rank_label(lang, r, Rules(deck=deck))
        for deck in DECKS
        for lang in LANGUAGES
        for r in DECKS[deck].ranks
    )


Glyph = tuple[Image.Image, tuple[int, int]]  # a mask, and its offset from the baseline's start


def _glyph(font: ImageFont.FreeTypeFont, text: str) -> Glyph:
    x0, y0, x1, y1 = (int(v) for v in font.getbbox(text, anchor="ls"))
    mask = Image.new("L", (x1 - x0, y1 - y0), 0)
    ImageDraw.Draw(mask).text((-x0, -y0), text, font=font, fill=255, anchor="ls")
    return mask, (x0, y0)


# Ranks as drawn masks, per card size: painting a mask is much faster than drawing text.
GLYPHS: dict[tuple[str, str], Glyph] = {
    (name, text): _glyph(size.rank, text)
    for name, size in CARD_SIZES.items()
    if name != "hand"
    for text in _rank_labels()
}


def _rank(im: Image.Image, xy: tuple[int, int], size_name: str, text: str, colour: RGB) -> None:
    """A rank with its baseline starting at xy."""
    glyph = GLYPHS.get((size_name, text)) or _glyph(CARD_SIZES[size_name].rank, text)
    mask, (ox, oy) = glyph
    im.paste(colour, (xy[0] + ox, xy[1] + oy), mask)


def draw_face(
    im: Image.Image, xy: tuple[int, int], size_name: str, label: str, deck: str, suit: str,
    four_colour: bool,
) -> None:  # fmt: skip
    """A card's face at xy: the rank top left with its suit under it, and a big suit."""
    size = CARD_SIZES[size_name]
    x, y = xy
    blank = BLANKS[size_name]
    im.paste(blank, (x, y), blank)
    colour = ink(deck, suit, four_colour)
    font = size.rank
    cap = CAPS[size_name]
    pad = max(3, size.w // 14)
    if size.pip:  # the index: rank, and its suit under it
        _rank(im, (x + pad, y + pad + cap), size_name, label, colour)
        small = suit_sprite(deck, suit, four_colour, size.index)
        ix = x + pad + max(0, (font.getlength(label[:1]) - size.index) / 2)
        im.paste(small, (round(ix), y + pad + cap + 6), small)
        pip = suit_sprite(deck, suit, four_colour, size.pip)
        im.paste(pip, (x + size.w - size.pip - pad, y + size.h - size.pip - pad), pip)
    else:  # a mini card: the rank, the suit under it, both centred
        w = round(font.getlength(label))
        _rank(im, (x + (size.w - w) // 2, y + 3 + cap), size_name, label, colour)
        small = suit_sprite(deck, suit, four_colour, size.index)
        im.paste(small, (x + (size.w - size.index) // 2, y + size.h - size.index - 4), small)


# The cap height of each card size's rank font.
CAPS = {name: -int(size.rank.getbbox("H", anchor="ls")[1]) for name, size in CARD_SIZES.items()}


def draw_back(im: Image.Image, xy: tuple[int, int], size_name: str) -> None:
    back = BACKS[size_name]
    im.paste(back, xy, back)


def paste(im: Image.Image, sprite: Image.Image, xy: tuple[int, int]) -> None:
    im.paste(sprite, xy, sprite)
