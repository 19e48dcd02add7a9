"""Where everything of the table picture goes, as plain data (rects, texts, which seat is
highlighted): ``layout(scene)``. Tests check the layout, not pixels.

The steps add their texts, badges, marks and empty slots to one ``_Parts`` in the order they
are drawn (a later one over an earlier), so their order is the picture's."""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from bot.engine import CAPTURE, RANK, STEAL, TRAIL
from bot.i18n import t
from bot.i18n.cards import rank_label

from .. import cards_art as art
from ..text import cards as count_cards
from .scene import LastMove, Scene
from .style import (
    CARD_GAP,
    COLS,
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
    PANEL_W,
    RGB,
    WIDTH,
    Rect,
)


@dataclass(frozen=True)
class CardSpot:
    rect: Rect
    card: str | None  # None: face down
    size: str  # a size of bot.ui.cards_art.CARD_SIZES
    label: str = ""  # the rank as printed on it


@dataclass(frozen=True)
class Text:
    xy: tuple[int, int]
    text: str
    font: str  # a field of bot.ui.cards_art.Fonts
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
    caption_rect: Rect | None  # the last move in words
    caption_card: CardSpot | None
    texts: tuple[Text, ...]
    badges: tuple[Badge, ...]
    slots: tuple[tuple[Rect, str], ...] = field(default=())  # empty places, with a word


def text_width(text: str, font: str) -> float:
    width: float = getattr(art.FONTS, font).getlength(text)
    return width


def fit(text: str, font: str, width: float) -> str:
    """text, cut with an ellipsis to fit width."""
    if text_width(text, font) <= width:
        return text
    while text and text_width(text + "…", font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _fit_or(text: str, short: str, width: float, font: str = "text") -> str:
    """text if it fits width, else the shorter text (cut if it must be)."""
    return text if text_width(text, font) <= width else fit(short, font, width)


def _pill(x: int, y_mid: int, text: str, fill: RGB, ink: RGB, *, right: bool = False) -> Badge:
    """A badge whose left (or right) edge is at x, centred on y_mid."""
    w = max(26, round(text_width(text, "badge")) + 14)
    x0 = x - w if right else x
    return Badge((x0, y_mid - 13, x0 + w, y_mid + 13), text, fill, ink)


@dataclass
class _Parts:
    """What the steps add, in drawing order."""

    texts: list[Text] = field(default_factory=list)
    badges: list[Badge] = field(default_factory=list)
    marked: list[Rect] = field(default_factory=list)
    slots: list[tuple[Rect, str]] = field(default_factory=list)


Label = Callable[[str], str]  # a card's rank as printed on it


def layout(scene: Scene) -> Layout:
    """Where everything goes, from the scene alone: the pool with the stock, the players'
    panels two a row below it, and the last move in words at the bottom."""
    lang, rules = scene.lang, scene.rules

    def label(card: str) -> str:
        return rank_label(lang, RANK[card], rules)

    parts = _Parts()
    pool_rect, pool, stock = _pool_and_stock(scene, label, parts)
    seats = len(scene.names)
    y0 = pool_rect[3] + GAP + 6
    panels = tuple(_panel(scene, seat, y0, label, parts) for seat in range(seats))
    rows = math.ceil(seats / COLS)
    bottom = y0 + rows * PANEL_H + (rows - 1) * GAP
    caption_rect: Rect | None = None
    caption_card: CardSpot | None = None
    if scene.last is not None:
        caption_rect, caption_card = _caption(scene, scene.last, bottom + GAP, label, parts)
        bottom = caption_rect[3]
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
        caption_rect=caption_rect,
        caption_card=caption_card,
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
    stock_w = art.SMALL.w + 2 * 6
    top = MARGIN + 26
    parts.texts.append(Text((MARGIN + 2, MARGIN + 18), t(lang, "table.pool"), "text", LIGHT))
    stock_text = t(lang, "table.stock", cards=count_cards(lang, scene.stock_size))
    parts.texts.append(Text((WIDTH - MARGIN, MARGIN + 18), stock_text, "text", LIGHT, "rs"))
    pool_rect = (MARGIN, top, WIDTH - MARGIN - stock_w - GAP, top + art.BIG.h)
    pool, pool_h = _pool_spots(scene, pool_rect, {c: label(c) for c in scene.pool})
    pool_rect = (pool_rect[0], pool_rect[1], pool_rect[2], top + pool_h)
    if not pool:
        parts.slots.append(((MARGIN, top, MARGIN + art.BIG.w, top + art.BIG.h), ""))
    last = scene.last
    if last is not None and last.action == TRAIL:
        parts.marked.extend(spot.rect for spot in pool if spot.card == last.card)
    return pool_rect, pool, _stock_pile(scene.stock_size, top)


def _pool_spots(scene: Scene, rect: Rect, labels: Mapping[str, str]) -> tuple[list[CardSpot], int]:
    """The pool's cards, in rows; when there are many they overlap (rank and suit showing).
    Returns them and the height they take."""
    card = art.BIG
    width = rect[2] - rect[0]
    full = (width + CARD_GAP) // (card.w + CARD_GAP)
    n = len(scene.pool)
    if n <= 2 * full:
        per_row, step = full, card.w + CARD_GAP
    else:
        rows = 2
        while math.ceil(n / rows) > 1 + (width - card.w) // MIN_STEP:
            rows += 1
        per_row = math.ceil(n / rows)
        step = min(card.w + CARD_GAP, (width - card.w) // (per_row - 1))
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
    sx = WIDTH - MARGIN - art.SMALL.w - 6
    for i in range(min(3, math.ceil(stock_size / 8))):
        x, y = sx + 3 * i, top + 8 + 3 * i
        pile.append(CardSpot((x, y, x + art.SMALL.w, y + art.SMALL.h), None, "small"))
    return pile


# ----- a player's panel


def _panel(scene: Scene, seat: int, y0: int, label: Label, parts: _Parts) -> Panel:
    """A seat's panel, two a row from y0 (a last row of one centred): the name row, the
    bundles, the counts and the hand face down."""
    seats = len(scene.names)
    row, col = divmod(seat, COLS)
    in_row = min(COLS, seats - row * COLS)
    x = MARGIN + col * (PANEL_W + GAP) + (PANEL_W + GAP) // 2 * (COLS - in_row)
    y = y0 + row * (PANEL_H + GAP)
    rect = (x, y, x + PANEL_W, y + PANEL_H)
    turn = scene.turn == seat
    state = _state(scene, seat)
    name = _name_row(scene, seat, rect, turn, state, parts)
    by = y + 48  # the bundles' and the hand's top
    bundles = _bundles(scene, seat, x, by, label, parts)
    rx = x + 14 + scene.rules.bundles_per_seat * (art.BIG.w + CARD_GAP) + 10
    room = x + PANEL_W - 12 - rx
    _counts(scene, seat, rx, by, room, parts)
    hand = _hand(scene.hand_sizes[seat], rx, by, room)
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
    x, y = rect[0], rect[1]
    name_x = x + 14 + DOT + 8 + (26 if turn else 0)
    tag_room = 0
    if state in ("away", "forfeited"):
        tag = _pill(x + PANEL_W - 12, y + 27, t(scene.lang, f"table.{state}"), DIM, FELT_DARK,
                    right=True)  # fmt: skip
        parts.badges.append(tag)
        tag_room = tag.rect[2] - tag.rect[0] + 10
    name = fit(scene.names[seat], "name", x + PANEL_W - 14 - tag_room - name_x)
    parts.texts.append(Text((name_x, y + 36), name, "name", GOLD if turn else LIGHT))
    return name


def _bundles(
    scene: Scene, seat: int, x: int, by: int, label: Label, parts: _Parts
) -> tuple[BundleSpot, ...]:
    """The seat's bundles: each its top card face up with its size, or an empty slot."""
    spots = []
    for b, bundle in enumerate(scene.bundles[seat][: scene.rules.bundles_per_seat]):
        bx = x + 14 + b * (art.BIG.w + CARD_GAP)
        brect = (bx, by, bx + art.BIG.w, by + art.BIG.h)
        face = CardSpot(brect, bundle.top, "big", label(bundle.top)) if bundle.top else None
        spots.append(BundleSpot(brect, face, bundle.size))
        if face is None:
            parts.slots.append((brect, t(scene.lang, "table.bundle_empty")))
        else:
            badges = parts.badges
            badges.append(_pill(bx + 5, by + art.BIG.h - 18, str(bundle.size), FELT_DARK, LIGHT))
        if scene.last is not None:
            _mark_bundle(scene.last, seat, b, brect, parts)
    return tuple(spots)


def _mark_bundle(last: LastMove, seat: int, b: int, rect: Rect, parts: _Parts) -> None:
    """The last move's marks on bundle b of the seat: what it took (+n), what it lost (−n)."""
    if last.action != TRAIL and last.seat == seat and b == (last.own_bundle or 0):
        parts.marked.append(rect)
        parts.badges.append(_pill(rect[2] + 4, rect[1] + 6, f"+{last.n}", CYAN, INK, right=True))
    if last.action == STEAL and last.target_seat == seat and b == (last.target_bundle or 0):
        parts.marked.append(rect)
        parts.badges.append(_pill(rect[2] + 4, rect[1] + 6, f"−{last.n}", CYAN, INK, right=True))


def _counts(scene: Scene, seat: int, rx: int, by: int, room: int, parts: _Parts) -> None:
    """Two lines right of the bundles: the cards in them, the cards in hand; shortened to the
    counts, then to the numbers, when the words do not fit."""
    lang = scene.lang
    size = sum(bundle.size for bundle in scene.bundles[seat])
    held = scene.hand_sizes[seat]
    lines = t(lang, "table.seat", bundles=count_cards(lang, size),
              cards=count_cards(lang, held)).split("\n")  # fmt: skip
    if len(lines) != 2:  # a catalog that lost its line break: counts only
        lines = [count_cards(lang, size), count_cards(lang, held)]
    counts = (count_cards(lang, size), count_cards(lang, held))
    numbers = (str(size), str(held))  # two bundles leave room for these
    first, second = (
        _fit_or(a, b, room) if text_width(b, "text") <= room else fit(n, "text", room)
        for a, b, n in zip(lines, counts, numbers, strict=True)
    )
    parts.texts.append(Text((rx, by + 20), first, "text", LIGHT))
    parts.texts.append(Text((rx, by + art.BIG.h - 4), second, "text", DIM))


def _hand(n: int, rx: int, by: int, room: int) -> tuple[CardSpot, ...]:
    """n backs under the counts, overlapping to fit the room."""
    step = min(28, (room - art.HAND.w) // max(1, n - 1)) if n > 1 else 0
    spots = []
    for i in range(n):
        hx, hy = rx + i * step, by + 32
        spots.append(CardSpot((hx, hy, hx + art.HAND.w, hy + art.HAND.h), None, "hand"))
    return tuple(spots)


# ----- the last move in words


def _caption(
    scene: Scene, last: LastMove, cy: int, label: Label, parts: _Parts
) -> tuple[Rect, CardSpot]:
    """The last move as a sentence from cy down, its card drawn where the sentence names it.
    Returns the caption's plate and the card."""
    rect = (MARGIN, cy, WIDTH - MARGIN, cy + art.MINI_CARD.h + 16)
    before, _, after = _caption_words(scene, last).partition("\x00")
    base = cy + (rect[3] - cy) // 2 + 8
    tx = MARGIN + 40
    room = WIDTH - MARGIN - 12 - tx - art.MINI_CARD.w - 12
    before = fit(before.rstrip(), "text", room)
    parts.texts.append(Text((tx, base), before, "text", LIGHT))
    cx = tx + round(text_width(before, "text")) + 8
    top_y = cy + 8
    card = CardSpot(
        (cx, top_y, cx + art.MINI_CARD.w, top_y + art.MINI_CARD.h), last.card, "mini",
        label(last.card),
    )  # fmt: skip
    after = fit(after.lstrip(), "text", WIDTH - MARGIN - 12 - (cx + art.MINI_CARD.w + 8))
    if after:
        parts.texts.append(Text((cx + art.MINI_CARD.w + 8, base), after, "text", LIGHT))
    return rect, card


def _caption_words(scene: Scene, last: LastMove) -> str:
    """The move in the reader's language, a NUL where its card goes."""
    lang = scene.lang
    who = scene.names[last.seat]
    taken = count_cards(lang, last.n)
    if last.action == CAPTURE:
        key = "log.captured_sweep" if last.sweep else "log.captured"
        return t(lang, key, name=who, cards=taken, card="\x00")
    if last.action == STEAL:
        assert last.target_seat is not None  # a steal names its victim
        victim = scene.names[last.target_seat]
        return t(lang, "log.stole", name=who, victim=victim, cards=taken, card="\x00")
    return t(lang, "log.trailed", name=who, card="\x00")
