"""The suits of every deck, drawn in code (no third-party art: every shape is a polygon or an
ellipse below), as sprites at the sizes the cards use, built once when the module is imported.

Suits are told apart by shape first and colour second, so colour-blind players can read them:
the French suits are the usual ♠ ♥ ♦ ♣ shapes in two colours, or in four (``four_colour``: ♠
black, ♥ red, ♦ blue, ♣ green); the Spanish and Italian suits are coins, cups, swords and
batons, each with a silhouette of its own and its traditional colour (gold, red, blue, green).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from PIL import Image, ImageDraw

RGB = tuple[int, int, int]
Point = tuple[float, float]

SS = 4  # supersampling for the shapes: drawn 4× larger, then scaled down (antialiased edges)

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
