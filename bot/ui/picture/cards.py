"""Playing cards drawn in code, for the table picture (bot.ui.picture): the fonts, the suit
shapes of every deck, card faces and backs. No third-party art: every shape is a polygon or an
ellipse below.

Everything here is built once, when the module is imported, and only read afterwards: the
fonts, the suit sprites, the blank faces and the backs. So renders may run in several threads
at once (asyncio.to_thread). Pillow's FreeType calls hold the GIL, so the shared fonts are
used one call at a time.

Suits are told apart by shape first and colour second, so colour-blind players can read them:
the French suits are the usual ♠ ♥ ♦ ♣ shapes in two colours, or in four (``four_colour``: ♠
black, ♥ red, ♦ blue, ♣ green); the Spanish and Italian suits are coins, cups, swords and
batons, each with a silhouette of its own and its traditional colour (gold, red, blue, green).
"""

from __future__ import annotations

import math
import struct
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from importlib.resources import files
from io import BytesIO

from PIL import Image, ImageDraw, ImageFont

RGB = tuple[int, int, int]
Point = tuple[float, float]

SS = 4  # supersampling for the shapes: drawn 4× larger, then scaled down (antialiased edges)

# ----- fonts

FONT_PACKAGE = "font_source_sans_pro"  # Source Sans Pro (SIL OFL 1.1), from PyPI


def _font_file(style: str) -> bytes:
    return (files(FONT_PACKAGE) / "files" / f"SourceSansPro-{style}.ttf").read_bytes()


def _cmap(data: bytes) -> frozenset[int]:
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
        covered=_cmap(bold) & _cmap(semibold),
    )


FONTS = _load_fonts()


def drawable(text: str) -> str:
    """`text` without the characters the fonts cannot draw (emoji, most scripts outside
    Latin, Greek and Cyrillic), spaces tidied."""
    kept = "".join(c if ord(c) in FONTS.covered else (" " if c.isspace() else "") for c in text)
    return " ".join(kept.split())


# ----- colours

FACE = (255, 253, 246)  # a card's face
EDGE = (150, 150, 150)  # a card's border
BACK = (142, 27, 47)  # a card's back
BACK_LINE = (186, 70, 88)
BLACK = (27, 27, 27)
RED = (218, 62, 24)  # a red-orange: lighter than black to red-blind eyes too
BLUE = (29, 99, 201)
GREEN = (0, 150, 110)  # a bluish green: not the red's olive to green-blind eyes
GOLD = (242, 183, 5)
DARK_GOLD = (150, 96, 0)
CUP_RED = (198, 40, 40)
STEEL_BLUE = (30, 91, 184)
WOOD_GREEN = (46, 125, 50)

# The ink of a suit (its rank and its shape's main colour), per deck family and colour scheme.
INKS: dict[tuple[str, bool], dict[str, RGB]] = {
    ("french52", False): {"S": BLACK, "H": RED, "D": RED, "C": BLACK},
    ("french52", True): {"S": BLACK, "H": RED, "D": BLUE, "C": GREEN},
    ("spanish", False): {"O": DARK_GOLD, "C": CUP_RED, "E": STEEL_BLUE, "B": WOOD_GREEN},
    ("italian40", False): {"D": DARK_GOLD, "C": CUP_RED, "S": STEEL_BLUE, "B": WOOD_GREEN},
}


def family(deck: str) -> str:
    """Both Spanish decks share their suits."""
    return "spanish" if deck.startswith("spanish") else deck


def ink(deck: str, suit: str, four_colour: bool) -> RGB:
    fam = family(deck)
    return INKS[fam, four_colour and fam == "french52"][suit]


# ----- suit shapes, in a unit box (0..1 both ways), drawn at `s` pixels a unit


def _fit(points: Sequence[Point], box: tuple[float, float, float, float]) -> list[Point]:
    """Scale points into box (x0, y0, x1, y1) keeping their proportions, centred."""
    xs, ys = [p[0] for p in points], [p[1] for p in points]
    w, h = max(xs) - min(xs), max(ys) - min(ys)
    k = min((box[2] - box[0]) / w, (box[3] - box[1]) / h)
    ox = (box[0] + box[2]) / 2 - (min(xs) + max(xs)) / 2 * k
    oy = (box[1] + box[3]) / 2 - (min(ys) + max(ys)) / 2 * k
    return [(x * k + ox, y * k + oy) for x, y in points]


def _heart_curve(steps: int = 72) -> list[Point]:
    out = []
    for i in range(steps):
        t = 2 * math.pi * i / steps
        x = 16 * math.sin(t) ** 3
        y = -(13 * math.cos(t) - 5 * math.cos(2 * t) - 2 * math.cos(3 * t) - math.cos(4 * t))
        out.append((x, y))
    return out


HEART = _fit(_heart_curve(), (0.04, 0.08, 0.96, 0.94))
SPADE_BODY = _fit([(x, -y) for x, y in _heart_curve()], (0.06, 0.02, 0.94, 0.76))


def _scaled(points: Sequence[Point], s: float) -> list[Point]:
    return [(x * s, y * s) for x, y in points]


def _box(x0: float, y0: float, x1: float, y1: float, s: float) -> list[float]:
    return [x0 * s, y0 * s, x1 * s, y1 * s]


Painter = Callable[[ImageDraw.ImageDraw, float, RGB], None]


def _heart(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    d.polygon(_scaled(HEART, s), fill=c)


def _diamond(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    # Slightly hollow sides, like a printed diamond.
    pts: list[Point] = []
    corners = [(0.5, 0.02), (0.88, 0.5), (0.5, 0.98), (0.12, 0.5)]
    for i in range(4):
        (ax, ay), (bx, by) = corners[i], corners[(i + 1) % 4]
        for j in range(12):
            u = j / 12
            bend = 0.05 * math.sin(math.pi * u)
            x, y = ax + (bx - ax) * u, ay + (by - ay) * u
            x += (0.5 - x) * bend * 2
            y += (0.5 - y) * bend * 2
            pts.append((x, y))
    d.polygon(_scaled(pts, s), fill=c)


def _spade(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    d.polygon(_scaled(SPADE_BODY, s), fill=c)
    d.polygon(_scaled([(0.5, 0.55), (0.66, 0.98), (0.34, 0.98)], s), fill=c)


def _club(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    r = 0.215
    for cx, cy in ((0.5, 0.25), (0.27, 0.56), (0.73, 0.56)):
        d.ellipse(_box(cx - r, cy - r, cx + r, cy + r, s), fill=c)
    d.ellipse(_box(0.38, 0.38, 0.62, 0.62, s), fill=c)
    d.polygon(_scaled([(0.5, 0.5), (0.66, 0.98), (0.34, 0.98)], s), fill=c)


def _coin(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    """Oros / denari: a gold coin with a rim and a rosette."""
    d.ellipse(_box(0.04, 0.04, 0.96, 0.96, s), fill=c)
    d.ellipse(_box(0.12, 0.12, 0.88, 0.88, s), fill=GOLD)
    d.ellipse(_box(0.25, 0.25, 0.75, 0.75, s), outline=c, width=max(1, round(0.06 * s)))
    petals = []
    for i in range(16):
        a = math.pi * i / 8
        r = 0.17 if i % 2 == 0 else 0.07
        petals.append((0.5 + r * math.cos(a), 0.5 + r * math.sin(a)))
    d.polygon(_scaled(petals, s), fill=c)


def _cup(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    """Copas / coppe: a goblet with a gold rim."""
    bowl = [(0.5 + 0.36 * math.cos(a), 0.16 + 0.42 * math.sin(a)) for a in _steps(0, math.pi, 24)]
    d.polygon(_scaled([(0.14, 0.16), *bowl, (0.86, 0.16)], s), fill=c)
    d.ellipse(_box(0.12, 0.07, 0.88, 0.25, s), fill=GOLD, outline=c, width=max(1, round(0.04 * s)))
    d.rectangle(_box(0.44, 0.5, 0.56, 0.82, s), fill=c)
    d.ellipse(_box(0.38, 0.6, 0.62, 0.7, s), fill=c)
    d.polygon(_scaled([(0.44, 0.8), (0.56, 0.8), (0.78, 0.95), (0.22, 0.95)], s), fill=c)
    d.ellipse(_box(0.22, 0.9, 0.78, 0.99, s), fill=c)


def _sword(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    """Espadas / spade: an upright sword, blue blade and gold hilt."""
    blade = [(0.5, 0.0), (0.62, 0.14), (0.6, 0.64), (0.4, 0.64), (0.38, 0.14)]
    d.polygon(_scaled(blade, s), fill=c)
    d.line(
        _scaled([(0.5, 0.1), (0.5, 0.6)], s), fill=(150, 190, 245), width=max(1, round(0.04 * s))
    )
    d.rounded_rectangle(_box(0.12, 0.62, 0.88, 0.74, s), radius=0.05 * s, fill=DARK_GOLD)
    d.rectangle(_box(0.43, 0.72, 0.57, 0.88, s), fill=c)
    d.ellipse(_box(0.37, 0.84, 0.63, 0.99, s), fill=DARK_GOLD)


def _baton(d: ImageDraw.ImageDraw, s: float, c: RGB) -> None:
    """Bastos / bastoni: a knotty club, leaning."""
    tilt = math.radians(24)

    def rot(p: Point) -> Point:
        x, y = p[0] - 0.5, p[1] - 0.5
        return (
            0.5 + x * math.cos(tilt) - y * math.sin(tilt),
            0.5 + x * math.sin(tilt) + y * math.cos(tilt),
        )

    top = [
        (0.5 + 0.19 * math.cos(a), 0.22 + 0.19 * math.sin(a))
        for a in _steps(math.pi, 2 * math.pi, 16)
    ]
    body = [*top, (0.66, 0.55), (0.58, 0.98), (0.42, 0.98), (0.34, 0.55)]
    d.polygon(_scaled([rot(p) for p in body], s), fill=c)
    for x, y, r in ((0.31, 0.36, 0.08), (0.67, 0.5, 0.075), (0.37, 0.72, 0.07)):
        cx, cy = rot((x, y))
        d.ellipse(_box(cx - r, cy - r, cx + r, cy + r, s), fill=c)
    light = (120, 190, 110)
    for x, y in ((0.5, 0.3), (0.5, 0.62)):
        (ax, ay), (bx, by) = rot((x - 0.09, y)), rot((x + 0.09, y))
        d.line([(ax * s, ay * s), (bx * s, by * s)], fill=light, width=max(1, round(0.035 * s)))


def _steps(a: float, b: float, n: int) -> list[float]:
    return [a + (b - a) * i / n for i in range(n + 1)]


PAINTERS: dict[str, dict[str, Painter]] = {
    "french52": {"S": _spade, "H": _heart, "D": _diamond, "C": _club},
    "spanish": {"O": _coin, "C": _cup, "E": _sword, "B": _baton},
    "italian40": {"D": _coin, "C": _cup, "S": _sword, "B": _baton},
}


def _sprite(painter: Painter, px: int, colour: RGB) -> Image.Image:
    big = Image.new("RGBA", (px * SS, px * SS), (0, 0, 0, 0))
    painter(ImageDraw.Draw(big), px * SS, colour)
    return big.resize((px, px), Image.Resampling.BOX)


# Suit sizes in pixels: the big pip on a card, the index under the rank, and smaller ones.
PIP, INDEX, PIP_SMALL, INDEX_SMALL, MINI = 46, 22, 30, 16, 16
SIZES = (PIP, INDEX, PIP_SMALL, INDEX_SMALL, MINI)


def _suits() -> dict[tuple[str, str, bool, int], Image.Image]:
    out = {}
    for fam, painters in PAINTERS.items():
        schemes = (False, True) if fam == "french52" else (False,)
        for four in schemes:
            for suit, painter in painters.items():
                colour = INKS[fam, four][suit]
                for px in set(SIZES):
                    out[fam, suit, four, px] = _sprite(painter, px, colour)
    return out


SUITS = _suits()


def suit_sprite(deck: str, suit: str, four_colour: bool, px: int) -> Image.Image:
    fam = family(deck)
    return SUITS[fam, suit, four_colour and fam == "french52", px]


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
