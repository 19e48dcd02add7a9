"""Where everything of the table picture goes, as plain data (rects, texts, which seat is
highlighted): ``layout(scene)``. Tests check the layout, not pixels.

It is drawn to be read on a phone: every word is at least READABLE px tall as shown at
SHOWN px wide, and it says what the table message's words do not (the last move is said
in words under it, so here it is only marked).

The steps add their texts, badges, marks and empty slots to one ``_Parts`` in the order they
are drawn (a later one over an earlier), so their order is the picture's."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.engine import RANK, STEAL, TRAIL
from bot.i18n import t
from bot.i18n.cards import rank_label

from ..text import cards as count_cards
from .cards import BIG, HAND, SMALL
from .fonts import FONTS
from .scene import LastMove, Scene
from .style import (
    CARD_GAP,
    CYAN,
    DIM,
    DOT,
    FELT_DARK,
    GAP,
    GOLD,
    INK,
    LIGHT,
    MARGIN,
    MIN_STEP,
    PANEL_H,
    PILL_H,
    RGB,
    TOP,
    WIDTH,
    Rect,
)

SHOWN = 235  # px: the picture's width in a message on a 360-px phone (scripts/heights.py)
READABLE = 12  # px: the smallest a word may be shown there (Discord's small print)


def shown_px(font_px: float) -> float:
    """How tall a font of font_px is shown on a phone."""
    return font_px * SHOWN / WIDTH


@dataclass(frozen=True)
class CardSpot:
    rect: Rect
    card: str | None  # None: face down
    size: str  # a size of bot.ui.picture.cards.CARD_SIZES
    label: str = ""  # the rank as printed on it


@dataclass(frozen=True)
class Text:
    xy: tuple[int, int]
    text: str
    font: str  # a field of bot.ui.picture.fonts.Fonts
    fill: RGB
    anchor: str = "ls"  # left, baseline (Pillow's text anchors)


@dataclass(frozen=True)
class Badge:
    """A count in a pill: a bundle's size, or what the last move took (+3) or lost (−5)."""

    rect: Rect
    text: str
    fill: RGB
    ink: RGB


@dataclass(frozen=True)
class BundleSpot:
    rect: Rect
    top: CardSpot | None  # None: an empty bundle
    size: int


@dataclass(frozen=True)
class Panel:
    seat: int
    rect: Rect
    name: str
    turn: bool  # the player to act: highlighted
    state: str | None  # "away", "forfeited" or "out" (sitting out a playoff)
    bundles: tuple[BundleSpot, ...]
    hand: tuple[CardSpot, ...]  # face down


@dataclass(frozen=True)
class Layout:
    width: int
    height: int
    deck: str
    four_colour: bool
    pool_rect: Rect
    pool: tuple[CardSpot, ...]
    stock: tuple[CardSpot, ...]  # a pile of backs: empty when the stock is
    panels: tuple[Panel, ...]
    turn: int | None
    marked: tuple[Rect, ...]  # the last move's marks: its card, and a robbed bundle
    texts: tuple[Text, ...]
    badges: tuple[Badge, ...]
    slots: tuple[tuple[Rect, str], ...] = field(default=())  # empty places, with a word


def text_width(text: str, font: str) -> float:
    width: float = getattr(FONTS, font).getlength(text)
    return width


def fit(text: str, font: str, width: float) -> str:
    """text, cut with an ellipsis to fit width."""
    if text_width(text, font) <= width:
        return text
    while text and text_width(text + "…", font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _fit_or(text: str, short: str, width: float, font: str = "words") -> str:
    """text if it fits width, else the shorter text (cut if it must be)."""
    return text if text_width(text, font) <= width else fit(short, font, width)


def _pill(x: int, y_mid: int, text: str, fill: RGB, ink: RGB, *, right: bool = False) -> Badge:
    """A badge whose left (or right) edge is at x, centred on y_mid."""
    w = max(PILL_H, round(text_width(text, "count")) + 14)
    x0 = x - w if right else x
    half = PILL_H // 2
    return Badge((x0, y_mid - half, x0 + w, y_mid + half), text, fill, ink)


@dataclass
class _Parts:
    """What the steps add, in drawing order."""

    texts: list[Text] = field(default_factory=list)
    badges: list[Badge] = field(default_factory=list)
    marked: list[Rect] = field(default_factory=list)
    slots: list[tuple[Rect, str]] = field(default_factory=list)


Label = Callable[[str], str]  # a card's rank as printed on it


def columns(scene: Scene) -> int:
    """Panels a row: two, or one when each seat has two bundles (they need the width)."""
    return 2 if scene.rules.bundles_per_seat == 1 else 1


def panel_width(scene: Scene) -> int:
    cols = columns(scene)
    return (WIDTH - 2 * MARGIN - (cols - 1) * GAP) // cols


def layout(scene: Scene) -> Layout:
    """Where everything goes, from the scene alone: the pool with the stock, then the
    players' panels, two a row (one with double bundles)."""
    lang, rules = scene.lang, scene.rules

    def label(card: str) -> str:
        return rank_label(lang, RANK[card], rules)

    parts = _Parts()
    pool_rect, pool, stock = _pool_and_stock(scene, label, parts)
    seats = len(scene.names)
    y0 = pool_rect[3] + GAP + 6
    panels = tuple(_panel(scene, seat, y0, label, parts) for seat in range(seats))
    rows = math.ceil(seats / columns(scene))
    bottom = y0 + rows * PANEL_H + (rows - 1) * GAP
    return Layout(
        width=WIDTH,
        height=bottom + MARGIN,
        deck=rules.deck,
        four_colour=scene.four_colour,
        pool_rect=pool_rect,
        pool=tuple(pool),
        stock=tuple(stock),
        panels=panels,
        turn=scene.turn,
        marked=tuple(parts.marked),
        texts=tuple(parts.texts),
        badges=tuple(parts.badges),
        slots=tuple(parts.slots),
    )


# ----- the pool and the stock


def _pool_and_stock(
    scene: Scene, label: Label, parts: _Parts
) -> tuple[Rect, list[CardSpot], list[CardSpot]]:
    """The pool's title and cards, the stock's count and pile on its right; a trailed card is
    marked. Returns the pool's rect (as tall as its rows), its cards and the stock's."""
    lang = scene.lang
    stock_w = SMALL.w + 2 * 6
    top = MARGIN + 30
    pool_word = t(lang, "table.pool")
    parts.texts.append(Text((MARGIN + 2, MARGIN + 20), pool_word, "words", LIGHT))
    stock_text = t(lang, "table.stock", cards=count_cards(lang, scene.stock_size))
    room = WIDTH - 2 * MARGIN - text_width(pool_word, "words") - 16
    stock_text = _fit_or(stock_text, count_cards(lang, scene.stock_size), room)
    parts.texts.append(Text((WIDTH - MARGIN, MARGIN + 20), stock_text, "words", LIGHT, "rs"))
    pool_rect = (MARGIN, top, WIDTH - MARGIN - stock_w - GAP, top + BIG.h)
    pool, pool_h = _pool_spots(scene, pool_rect, {c: label(c) for c in scene.pool})
    pool_rect = (pool_rect[0], pool_rect[1], pool_rect[2], top + pool_h)
    if not pool:
        parts.slots.append(((MARGIN, top, MARGIN + BIG.w, top + BIG.h), ""))
    last = scene.last
    if last is not None and last.action == TRAIL:
        parts.marked.extend(spot.rect for spot in pool if spot.card == last.card)
    return pool_rect, pool, _stock_pile(scene.stock_size, top)


def _pool_spots(scene: Scene, rect: Rect, labels: Mapping[str, str]) -> tuple[list[CardSpot], int]:
    """The pool's cards, in as few rows as they fit overlapping (rank and suit showing), so
    the picture stays short. Returns them and the height they take."""
    card = BIG
    width = rect[2] - rect[0]
    n = len(scene.pool)
    rows = 1
    while math.ceil(n / rows) > 1 + (width - card.w) // MIN_STEP:
        rows += 1
    per_row = max(1, math.ceil(n / rows))
    step = card.w + CARD_GAP
    if per_row > 1:
        step = min(step, (width - card.w) // (per_row - 1))
    spots = []
    for i, c in enumerate(scene.pool):
        row, col = divmod(i, per_row)
        x = rect[0] + col * step
        y = rect[1] + row * (card.h + CARD_GAP)
        spots.append(CardSpot((x, y, x + card.w, y + card.h), c, "big", labels[c]))
    rows_used = max(1, math.ceil(n / per_row))
    return spots, rows_used * card.h + (rows_used - 1) * CARD_GAP


def _stock_pile(stock_size: int, top: int) -> list[CardSpot]:
    """Up to three backs, one for every 8 cards left (none when the stock is empty)."""
    pile = []
    sx = WIDTH - MARGIN - SMALL.w - 6
    for i in range(min(3, math.ceil(stock_size / 8))):
        x, y = sx + 3 * i, top + 8 + 3 * i
        pile.append(CardSpot((x, y, x + SMALL.w, y + SMALL.h), None, "small"))
    return pile


# ----- a player's panel


def _panel(scene: Scene, seat: int, y0: int, label: Label, parts: _Parts) -> Panel:
    """A seat's panel, two a row from y0 (a last row of one centred; one a row with double
    bundles): the name row, the bundles, the hand face down and its count."""
    seats = len(scene.names)
    cols, width = columns(scene), panel_width(scene)
    row, col = divmod(seat, cols)
    in_row = min(cols, seats - row * cols)
    x = MARGIN + col * (width + GAP) + (width + GAP) // 2 * (cols - in_row)
    y = y0 + row * (PANEL_H + GAP)
    rect = (x, y, x + width, y + PANEL_H)
    turn = scene.turn == seat
    state = _state(scene, seat)
    name = _name_row(scene, seat, rect, turn, state, parts)
    by = y + 48  # the bundles' and the hand's top
    bundles = _bundles(scene, seat, x, by, label, parts)
    rx = x + 14 + scene.rules.bundles_per_seat * (TOP.w + CARD_GAP) + 4
    room = x + width - 12 - rx
    _counts(scene, seat, rx, by, room, parts)
    # The last move's +n or −n sits right of its card's top: the backs start after it.
    marks = [b.rect[2] for b in parts.badges if b.rect[0] >= rx - 8 and by <= b.rect[1] < by + 20
             and b.rect[0] < x + width]  # fmt: skip
    shift = max(marks, default=rx) - rx + (6 if marks else 0)
    hand = _hand(scene.hand_sizes[seat], rx + shift, by, room - shift)
    return Panel(seat, rect, name, turn, state, bundles, hand)


def _state(scene: Scene, seat: int) -> str | None:
    if seat in scene.forfeited:
        return "forfeited"
    if seat in scene.away:
        return "away"
    if seat not in scene.players:
        return "out"
    return None


def _name_row(
    scene: Scene, seat: int, rect: Rect, turn: bool, state: str | None, parts: _Parts
) -> str:
    """The name (after the triangle draw puts before the player to act) and a tag for an
    away or forfeited seat. Returns the name as it fits."""
    x, y, right = rect[0], rect[1], rect[2]
    name_x = x + 14 + DOT + 8 + (26 if turn else 0)
    tag_room = 0
    if state in ("away", "forfeited"):
        tag = _pill(right - 12, y + 27, t(scene.lang, f"table.{state}"), DIM, FELT_DARK,
                    right=True)  # fmt: skip
        parts.badges.append(tag)
        tag_room = tag.rect[2] - tag.rect[0] + 10
    name = fit(scene.names[seat], "name", right - 14 - tag_room - name_x)
    parts.texts.append(Text((name_x, y + 36), name, "name", GOLD if turn else LIGHT))
    return name


def _bundles(
    scene: Scene, seat: int, x: int, by: int, label: Label, parts: _Parts
) -> tuple[BundleSpot, ...]:
    """The seat's bundles: each its top card face up with its size, or an empty slot with a
    0 (the word would not fit a small card)."""
    spots = []
    for b, bundle in enumerate(scene.bundles[seat][: scene.rules.bundles_per_seat]):
        bx = x + 14 + b * (TOP.w + CARD_GAP)
        brect = (bx, by, bx + TOP.w, by + TOP.h)
        face = CardSpot(brect, bundle.top, "small", label(bundle.top)) if bundle.top else None
        spots.append(BundleSpot(brect, face, bundle.size))
        if face is None:
            parts.slots.append((brect, "0"))
        else:
            badges = parts.badges
            badges.append(_pill(bx + 4, by + TOP.h - 18, str(bundle.size), FELT_DARK, LIGHT))
        if scene.last is not None:
            rightmost = b == scene.rules.bundles_per_seat - 1
            _mark_bundle(scene.last, seat, b, brect, parts, rightmost)
    return tuple(spots)


def _mark_bundle(
    last: LastMove, seat: int, b: int, rect: Rect, parts: _Parts, rightmost: bool
) -> None:
    """The last move's marks on bundle b of the seat: what it took (+n), what it lost (−n)."""

    def mark(word: str) -> Badge:
        if rightmost:  # right of the card's top, so its rank stays in sight
            return _pill(rect[2] + 8, rect[1] + PILL_H // 2, word, CYAN, INK)
        return _pill(rect[2] + 4, rect[1] + 6, word, CYAN, INK, right=True)  # another card right

    if last.action != TRAIL and last.seat == seat and b == (last.own_bundle or 0):
        parts.marked.append(rect)
        parts.badges.append(mark(f"+{last.n}"))
    if last.action == STEAL and last.target_seat == seat and b == (last.target_bundle or 0):
        parts.marked.append(rect)
        parts.badges.append(mark(f"−{last.n}"))


def _counts(scene: Scene, seat: int, rx: int, by: int, room: int, parts: _Parts) -> None:
    """The cards in hand, under its backs: "Hand: 4 cards", shortened to "4 cards", then to
    "4", when the words do not fit. (A bundle's size is on its top card.)"""
    lang = scene.lang
    held = scene.hand_sizes[seat]
    lines = t(lang, "table.seat", bundles="", cards=count_cards(lang, held)).split("\n")
    said = lines[-1] if len(lines) == 2 else count_cards(lang, held)
    counted = count_cards(lang, held)
    shown = _fit_or(said, counted, room) if text_width(counted, "words") <= room else str(held)
    parts.texts.append(Text((rx, by + TOP.h - 2), shown, "words", DIM))


def _hand(n: int, rx: int, by: int, room: int) -> tuple[CardSpot, ...]:
    """n backs above their count, overlapping to fit the room."""
    step = min(28, (room - HAND.w) // max(1, n - 1)) if n > 1 else 0
    spots = []
    for i in range(n):
        hx, hy = rx + i * step, by
        spots.append(CardSpot((hx, hy, hx + HAND.w, hy + HAND.h), None, "hand"))
    return tuple(spots)
