"""The table as a picture: a PNG of the pool, every player's panel, the stock, the player to
act and the last move, drawn with Pillow (the cards themselves: bot.ui.cards_art).

Three steps, each a pure function:

1. ``Scene.of(table, names, lang, ...)``: the plain, immutable values the picture shows, read
   from the live table. Take it on the event loop: the table changes there.
2. ``layout(scene)``: where everything goes, as plain data (rects, texts, which seat is
   highlighted). Tests check the layout, not pixels.
3. ``draw(layout)`` and ``encode(image)``: the pixels and the PNG bytes. Safe to run in a
   thread (asyncio.to_thread): nothing they read changes.

``render`` does the last two. The same scene gives the same bytes: the PNG encoder's
settings are fixed and it writes no time. ``TableCache`` keeps the latest pictures, so several
viewers or a repost of the same table draw it once.

The golden images in tests/ui/golden are made by
``python -m bot.ui.picture --golden tests/ui/golden``; ``--samples DIR`` writes sample tables
to look at.
"""

from __future__ import annotations

import io
import math
import threading
from collections import OrderedDict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from PIL import Image, ImageDraw

from bot.engine import CAPTURE, RANK, STEAL, TRAIL, BundleView, Rules, view
from bot.i18n import t
from bot.i18n.cards import rank_label
from bot.session.models import Table

from . import cards_art as art
from .text import cards as count_cards
from .text import names_of

Rect = tuple[int, int, int, int]  # x0, y0, x1, y1 (x1, y1 excluded)
RGB = tuple[int, int, int]

WIDTH = 640  # shown scaled to the reader's width: about 300 px on a phone
MARGIN = 16
GAP = 12
CARD_GAP = 8
MIN_STEP = 48  # the narrowest overlap of pool cards that still shows a card's rank and suit

FELT = (27, 94, 58)
FELT_DARK = (20, 72, 44)
PANEL = (23, 79, 49)
PANEL_TURN = (40, 118, 74)
GOLD = (255, 202, 40)  # the player to act
CYAN = (84, 214, 236)  # the last move
INK = (18, 32, 40)  # text on the cyan marks
LIGHT = (240, 247, 240)
DIM = (178, 206, 186)
SLOT = (64, 130, 92)
# Each seat's colour: a dot before the name here, and the table message's accent colour
# (bot.ui.table), so the message's edge points at the player to act.
SEAT_RGB = ((52, 152, 219), (230, 126, 34), (155, 89, 182), (46, 204, 113))
DOT = 14  # the seat dot's diameter

COLS = 2  # panels a row
PANEL_W = (WIDTH - 2 * MARGIN - GAP) // COLS
PANEL_H = 48 + art.BIG.h + 14
# Antialiased plates and frames, their corners drawn once (supersampling them for every
# picture is slow).
PLATES = {turn: art.Rounded.make(14, PANEL_TURN if turn else PANEL) for turn in (False, True)}
TURN_FRAME = art.Rounded.make(15, GOLD, 4)
MARK = 5  # the last move's frame: this far around its card
MARK_FRAME = art.Rounded.make(art.BIG.radius + MARK, CYAN, 4)
CAPTION_PLATE = art.Rounded.make(12, FELT_DARK)
PILLS = {c: art.Rounded.make(13, c) for c in (FELT_DARK, CYAN, DIM)}  # badges, by colour
SLOT_FRAME = art.Rounded.make(art.BIG.radius, SLOT, 2)  # an empty bundle or pool
CAPTION_MARK = art.outline((16, 16), 4, CYAN, 3)


# ----- what the picture shows


@dataclass(frozen=True)
class LastMove:
    """The move just played, to mark on the picture: which seat played which card, what it did
    (capture, steal or trail), whose bundle it stole and how many cards it took."""

    seat: int
    card: str
    action: str  # CAPTURE, STEAL or TRAIL
    target_seat: int | None = None  # the victim of a steal
    n: int = 0  # cards taken: captured from the pool, or the stolen bundle's size
    own_bundle: int | None = None  # with double bundles: which of the player's bundles
    target_bundle: int | None = None  # with double bundles: which of the victim's
    sweep: bool = False  # the capture earned the sweep bonus

    @classmethod
    def of(cls, events: Sequence[Mapping[str, Any]]) -> LastMove | None:
        """The move in a move's events (the engine's ``apply``), or None if there is none."""
        for e in events:
            kind = e["type"]
            if kind == "captured":
                return cls(e["seat"], e["card"], CAPTURE, None, e["n"], e.get("own_bundle"),
                           sweep=e.get("sweep_bonus") is not None)  # fmt: skip
            if kind == "stole":
                return cls(e["seat"], e["card"], STEAL, e["from_seat"], e["n"],
                           e.get("own_bundle"), e.get("from_bundle"))  # fmt: skip
            if kind == "trailed":
                return cls(e["seat"], e["card"], TRAIL)
        return None


@dataclass(frozen=True)
class Scene:
    """Everything the picture shows, as immutable values (taken from a Table by ``of``)."""

    game_id: int
    version: int
    lang: str
    rules: Rules
    names: tuple[str, ...]  # per seat, as drawn
    turn: int | None
    players: tuple[int, ...]  # seats in play (the tied ones during a playoff)
    pool: tuple[str, ...]
    bundles: tuple[tuple[BundleView, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    away: frozenset[int] = frozenset()
    forfeited: frozenset[int] = frozenset()
    last: LastMove | None = None
    four_colour: bool = False

    @classmethod
    def of(
        cls,
        table: Table,
        names: Mapping[str, str],
        lang: str,
        *,
        last: LastMove | None = None,
        four_colour: bool = False,
    ) -> Scene:
        game = table.game
        v = view(game, 0)  # only its public parts are read
        name = names_of(lang, game.seats, names)
        drawn = []
        for seat in range(len(game.seats)):
            text = art.drawable(name(seat))
            drawn.append(text or art.drawable(t(lang, "name.player", number=seat + 1)))
        return cls(
            game_id=table.game_id,
            version=table.version,
            lang=lang,
            rules=game.rules,
            names=tuple(drawn),
            turn=None if game.over else v.turn,
            players=v.players,
            pool=v.pool,
            bundles=v.bundles,
            hand_sizes=v.hand_sizes,
            stock_size=v.stock_size,
            away=frozenset(table.away),
            forfeited=frozenset(table.forfeited),
            last=last,
            four_colour=four_colour,
        )

    @property
    def key(self) -> tuple[Any, ...]:
        """What tells two pictures apart: the game and its version, the language and the
        options, and what may change between moves (names, away and forfeited seats)."""
        return (self.game_id, self.version, self.lang, self.four_colour, self.last,
                self.names, self.away, self.forfeited)  # fmt: skip


# ----- the layout: plain data


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


def _text_width(text: str, font: str) -> float:
    return getattr(art.FONTS, font).getlength(text)


def _fit(text: str, font: str, width: float) -> str:
    """text, cut with an ellipsis to fit width."""
    if _text_width(text, font) <= width:
        return text
    while text and _text_width(text + "…", font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _fit_or(text: str, short: str, width: float, font: str = "text") -> str:
    """text if it fits width, else the shorter text (cut if it must be)."""
    return text if _text_width(text, font) <= width else _fit(short, font, width)


def _pill(x: int, y_mid: int, text: str, fill: RGB, ink: RGB, *, right: bool = False) -> Badge:
    """A badge whose left (or right) edge is at x, centred on y_mid."""
    w = max(26, round(_text_width(text, "badge")) + 14)
    x0 = x - w if right else x
    return Badge((x0, y_mid - 13, x0 + w, y_mid + 13), text, fill, ink)


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


def layout(scene: Scene) -> Layout:
    """Where everything goes, from the scene alone."""
    lang, rules = scene.lang, scene.rules
    last = scene.last

    def label(card: str) -> str:
        return rank_label(lang, RANK[card], rules)

    labels = {c: label(c) for c in scene.pool}
    texts: list[Text] = []
    badges: list[Badge] = []
    marked: list[Rect] = []
    slots: list[tuple[Rect, str]] = []

    # The pool, with the stock on its right.
    stock_w = art.SMALL.w + 2 * 6
    top = MARGIN + 26
    texts.append(Text((MARGIN + 2, MARGIN + 18), t(lang, "table.pool"), "text", LIGHT))
    stock_text = t(lang, "table.stock", cards=count_cards(lang, scene.stock_size))
    texts.append(Text((WIDTH - MARGIN, MARGIN + 18), stock_text, "text", LIGHT, "rs"))
    pool_rect = (MARGIN, top, WIDTH - MARGIN - stock_w - GAP, top + art.BIG.h)
    pool, pool_h = _pool_spots(scene, pool_rect, labels)
    pool_rect = (pool_rect[0], pool_rect[1], pool_rect[2], top + pool_h)
    if not pool:
        slots.append(((MARGIN, top, MARGIN + art.BIG.w, top + art.BIG.h), ""))
    stock = []
    sx = WIDTH - MARGIN - art.SMALL.w - 6
    for i in range(min(3, math.ceil(scene.stock_size / 8))):
        x, y = sx + 3 * i, top + 8 + 3 * i
        stock.append(CardSpot((x, y, x + art.SMALL.w, y + art.SMALL.h), None, "small"))
    if last is not None and last.action == TRAIL:
        for spot in pool:
            if spot.card == last.card:
                marked.append(spot.rect)

    # The players' panels, two a row.
    seats = len(scene.names)
    cols, panel_w, panel_h = COLS, PANEL_W, PANEL_H
    per_seat = scene.rules.bundles_per_seat
    y0 = pool_rect[3] + GAP + 6
    panels = []
    for seat in range(seats):
        row, col = divmod(seat, cols)
        in_row = min(cols, seats - row * cols)
        x = MARGIN + col * (panel_w + GAP) + (panel_w + GAP) // 2 * (cols - in_row)
        y = y0 + row * (panel_h + GAP)
        rect = (x, y, x + panel_w, y + panel_h)
        turn = scene.turn == seat
        state = None
        if seat in scene.forfeited:
            state = "forfeited"
        elif seat in scene.away:
            state = "away"
        elif seat not in scene.players:
            state = "out"
        # Name row: a triangle for the player to act, the name, a tag for their state.
        name_x = x + 14 + DOT + 8 + (26 if turn else 0)
        tag_room = 0
        if state in ("away", "forfeited"):
            tag = _pill(x + panel_w - 12, y + 27, t(lang, f"table.{state}"), DIM, FELT_DARK,
                        right=True)  # fmt: skip
            badges.append(tag)
            tag_room = tag.rect[2] - tag.rect[0] + 10
        name = _fit(scene.names[seat], "name", x + panel_w - 14 - tag_room - name_x)
        texts.append(Text((name_x, y + 36), name, "name", GOLD if turn else LIGHT))
        # Bundles (the top card, face up) and the hand (face down).
        bundles = []
        by = y + 48
        for b, bundle in enumerate(scene.bundles[seat][:per_seat]):
            bx = x + 14 + b * (art.BIG.w + CARD_GAP)
            brect = (bx, by, bx + art.BIG.w, by + art.BIG.h)
            face = CardSpot(brect, bundle.top, "big", label(bundle.top)) if bundle.top else None
            bundles.append(BundleSpot(brect, face, bundle.size))
            if face is None:
                slots.append((brect, t(lang, "table.bundle_empty")))
            else:
                badges.append(_pill(bx + 5, by + art.BIG.h - 18, str(bundle.size), FELT_DARK,
                                    LIGHT))  # fmt: skip
            mine = (b == (last.own_bundle or 0)) if last else False
            theirs = (b == (last.target_bundle or 0)) if last else False
            if last and last.action != TRAIL and last.seat == seat and mine:
                marked.append(brect)
                badges.append(_pill(brect[2] + 4, by + 6, f"+{last.n}", CYAN, INK, right=True))
            if last and last.action == STEAL and last.target_seat == seat and theirs:
                marked.append(brect)
                badges.append(_pill(brect[2] + 4, by + 6, f"−{last.n}", CYAN, INK, right=True))
        rx = x + 14 + per_seat * (art.BIG.w + CARD_GAP) + 10
        size = sum(bundle.size for bundle in scene.bundles[seat])
        lines = t(lang, "table.seat", bundles=count_cards(lang, size),
                  cards=count_cards(lang, scene.hand_sizes[seat])).split("\n")  # fmt: skip
        if len(lines) != 2:  # a catalog that lost its line break: counts only
            lines = [count_cards(lang, size), count_cards(lang, scene.hand_sizes[seat])]
        room = x + panel_w - 12 - rx
        counts = (count_cards(lang, size), count_cards(lang, scene.hand_sizes[seat]))
        numbers = (str(size), str(scene.hand_sizes[seat]))  # two bundles leave room for these
        first, second = (
            _fit_or(a, b, room) if _text_width(b, "text") <= room else _fit(n, "text", room)
            for a, b, n in zip(lines, counts, numbers, strict=True)
        )
        texts.append(Text((rx, by + 20), first, "text", LIGHT))
        texts.append(Text((rx, by + art.BIG.h - 4), second, "text", DIM))
        hand = []
        n = scene.hand_sizes[seat]
        step = min(28, (room - art.HAND.w) // max(1, n - 1)) if n > 1 else 0
        for i in range(n):
            hx, hy = rx + i * step, by + 32
            hand.append(CardSpot((hx, hy, hx + art.HAND.w, hy + art.HAND.h), None, "hand"))
        panels.append(Panel(seat, rect, name, turn, state, tuple(bundles), tuple(hand)))
    rows = math.ceil(seats / cols)
    bottom = y0 + rows * panel_h + (rows - 1) * GAP

    # The last move, in words, with its card.
    caption_rect = caption_card = None
    if last is not None:
        cy = bottom + GAP
        caption_rect = (MARGIN, cy, WIDTH - MARGIN, cy + art.MINI_CARD.h + 16)
        who = scene.names[last.seat]
        taken = count_cards(lang, last.n)
        if last.action == CAPTURE:
            key = "log.captured_sweep" if last.sweep else "log.captured"
            words = t(lang, key, name=who, cards=taken, card="\x00")
        elif last.action == STEAL:
            assert last.target_seat is not None  # a steal names its victim
            victim = scene.names[last.target_seat]
            words = t(lang, "log.stole", name=who, victim=victim, cards=taken, card="\x00")
        else:
            words = t(lang, "log.trailed", name=who, card="\x00")
        before, _, after = words.partition("\x00")
        base = cy + (caption_rect[3] - cy) // 2 + 8
        tx = MARGIN + 40
        room = WIDTH - MARGIN - 12 - tx - art.MINI_CARD.w - 12
        before = _fit(before.rstrip(), "text", room)
        texts.append(Text((tx, base), before, "text", LIGHT))
        cx = tx + round(_text_width(before, "text")) + 8
        top_y = cy + 8
        caption_card = CardSpot(
            (cx, top_y, cx + art.MINI_CARD.w, top_y + art.MINI_CARD.h), last.card, "mini",
            label(last.card),
        )  # fmt: skip
        after = _fit(after.lstrip(), "text", WIDTH - MARGIN - 12 - (cx + art.MINI_CARD.w + 8))
        if after:
            texts.append(Text((cx + art.MINI_CARD.w + 8, base), after, "text", LIGHT))
        bottom = caption_rect[3]
    height = bottom + MARGIN
    return Layout(
        width=WIDTH,
        height=height,
        deck=rules.deck,
        four_colour=scene.four_colour,
        pool_rect=pool_rect,
        pool=tuple(pool),
        stock=tuple(stock),
        panels=tuple(panels),
        turn=scene.turn,
        marked=tuple(marked),
        caption_rect=caption_rect,
        caption_card=caption_card,
        texts=tuple(texts),
        badges=tuple(badges),
        slots=tuple(slots),
    )


# ----- drawing


def _card(im: Image.Image, spot: CardSpot, deck: str, four_colour: bool) -> None:
    if spot.card is None:
        art.draw_back(im, spot.rect[:2], spot.size)
    else:
        suit = spot.card[-1]
        art.draw_face(im, spot.rect[:2], spot.size, spot.label, deck, suit, four_colour)


def draw(lay: Layout) -> Image.Image:
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
            d.text((cx, cy), word, font=art.FONTS.badge, fill=DIM, anchor="mm")
    for spot in lay.stock:
        _card(im, spot, deck, four)
    for spot in lay.pool:
        _card(im, spot, deck, four)
    for p in lay.panels:
        for b in p.bundles:
            if b.top is not None:
                _card(im, b.top, deck, four)
        for spot in p.hand:
            _card(im, spot, deck, four)
    for rect in lay.marked:
        MARK_FRAME.paste(im, (rect[0] - MARK, rect[1] - MARK, rect[2] + MARK, rect[3] + MARK))
    # Players out of the game (or of the playoff) are dimmed; the player to act is framed.
    # Players out of the game (or of the playoff) are dimmed.
    for p in lay.panels:
        if p.state in ("forfeited", "out"):
            veil = Image.new("RGB", (p.rect[2] - p.rect[0], p.rect[3] - p.rect[1]), FELT)
            im.paste(Image.blend(im.crop(p.rect), veil, 0.55), p.rect[:2])
    for p in lay.panels:
        x, y = p.rect[0] + 14, p.rect[1] + 19
        d.ellipse((x, y, x + DOT, y + DOT), fill=SEAT_RGB[p.seat % len(SEAT_RGB)])
        if p.turn:
            TURN_FRAME.paste(im, (p.rect[0] - 1, p.rect[1] - 1, p.rect[2] + 1, p.rect[3] + 1))
            x, y = p.rect[0] + 14 + DOT + 8, p.rect[1] + 16
            d.polygon([(x, y), (x + 18, y + 10), (x, y + 20)], fill=GOLD)
    if lay.caption_rect is not None:
        r = lay.caption_rect
        CAPTION_PLATE.paste(im, r)
        art.paste(im, CAPTION_MARK, (r[0] + 12, (r[1] + r[3]) // 2 - 8))
    for text in lay.texts:
        font = getattr(art.FONTS, text.font)
        d.text(text.xy, text.text, font=font, fill=text.fill, anchor=text.anchor)
    for badge in lay.badges:
        PILLS[badge.fill].paste(im, badge.rect)
        cx, cy = (badge.rect[0] + badge.rect[2]) // 2, (badge.rect[1] + badge.rect[3]) // 2
        d.text((cx, cy), badge.text, font=art.FONTS.badge, fill=badge.ink, anchor="mm")
    if lay.caption_card is not None:
        _card(im, lay.caption_card, deck, four)
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
    return encode(draw(layout(scene)))


# ----- the cache


class TableCache:
    """The latest pictures by game, version, language and options (``Scene.key``): a bounded
    LRU. Thread-safe; a picture being drawn is waited for, not drawn twice.

    On the event loop::

        scene = Scene.of(table, names, lang, last=last)
        png = await asyncio.to_thread(cache.picture, scene)
    """

    def __init__(self, size: int = 64) -> None:
        self.size = size
        self._done: OrderedDict[tuple[Any, ...], bytes] = OrderedDict()
        self._drawing: dict[tuple[Any, ...], threading.Event] = {}
        self._lock = threading.Lock()
        self.renders = 0  # pictures drawn, for tests and figures

    def picture(self, scene: Scene | FinalScene) -> bytes:
        key = scene.key
        mine = threading.Event()
        while True:
            with self._lock:
                if key in self._done:
                    self._done.move_to_end(key)
                    return self._done[key]
                waiting = self._drawing.get(key)
                if waiting is None:
                    self._drawing[key] = mine
                    break
            waiting.wait()  # another thread is drawing it: take theirs
        try:
            png = render_final(scene) if isinstance(scene, FinalScene) else render(scene)
            with self._lock:
                self.renders += 1
                self._done[key] = png
                while len(self._done) > self.size:
                    self._done.popitem(last=False)
            return png
        finally:
            with self._lock:
                del self._drawing[key]
            mine.set()

    def __len__(self) -> int:
        return len(self._done)


def _palette() -> Image.Image:
    """The picture's 256 colours, chosen once from sample tables of every deck family (both
    colour schemes, a forfeited and an away seat), so mapping a picture to them is fast (a
    palette of its own would cost more than the drawing) and the same everywhere."""
    from bot.engine import preset

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


# ----- the end screen: the final bundles


MEDAL_COLOURS = ((255, 202, 40), (199, 206, 214), (214, 138, 72))  # gold, silver, bronze
ROW_H = art.SMALL.h + 20


@dataclass(frozen=True)
class Standing:
    """One player on the end screen's picture: their place (0: first), name as drawn, final
    bundle size and each bundle's top card (None: empty)."""

    seat: int
    place: int
    name: str
    size: int
    tops: tuple[str | None, ...]
    forfeited: bool = False


@dataclass(frozen=True)
class FinalScene:
    """The final bundles, best first (taken from a finished Table by ``of``)."""

    game_id: int
    version: int
    lang: str
    rules: Rules
    standings: tuple[Standing, ...]
    four_colour: bool = False

    @classmethod
    def of(
        cls,
        table: Table,
        names: Mapping[str, str],
        lang: str,
        places: Sequence[int],
        *,
        four_colour: bool = False,
    ) -> FinalScene:
        game = table.game
        assert game.result is not None  # only a finished game has final bundles
        sizes = game.result.bundle_sizes
        name = names_of(lang, game.seats, names)
        v = view(game, 0)
        per_seat = game.rules.bundles_per_seat
        rows = []
        for seat in sorted(range(len(game.seats)), key=lambda s: (places[s], -sizes[s], s)):
            drawn = art.drawable(name(seat)) or art.drawable(
                t(lang, "name.player", number=seat + 1)
            )
            tops = tuple(b.top for b in v.bundles[seat][:per_seat])
            rows.append(Standing(seat, places[seat], drawn, sizes[seat], tops,
                                 seat in table.forfeited))  # fmt: skip
        return cls(table.game_id, table.version, lang, game.rules, tuple(rows), four_colour)

    @property
    def key(self) -> tuple[Any, ...]:
        return ("final", self.game_id, self.version, self.lang, self.four_colour, self.standings)


def draw_final(scene: FinalScene) -> Image.Image:
    """A row a player, best first: a medal with the place, the name, the top card of each
    bundle and the final count, on the table's felt."""
    rules, lang = scene.rules, scene.lang
    rows = scene.standings
    height = 2 * MARGIN + len(rows) * ROW_H + (len(rows) - 1) * GAP // 2
    im = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(im)
    best = max((r.size for r in rows), default=0) or 1
    for i, row in enumerate(rows):
        y = MARGIN + i * (ROW_H + GAP // 2)
        rect = (MARGIN, y, WIDTH - MARGIN, y + ROW_H)
        PLATES[row.place == 0].paste(im, rect)
        # The medal: a disc in the place's colour with its number (4th: the number alone).
        cx, cy = MARGIN + 40, y + ROW_H // 2
        if row.place < len(MEDAL_COLOURS) and not row.forfeited:
            d.ellipse((cx - 24, cy - 24, cx + 24, cy + 24), fill=MEDAL_COLOURS[row.place])
            d.text((cx, cy), str(row.place + 1), font=art.FONTS.name, fill=INK, anchor="mm")
        else:
            d.text((cx, cy), str(row.place + 1), font=art.FONTS.name, fill=DIM, anchor="mm")
        # The bundles' top cards.
        x = MARGIN + 84
        for top in row.tops:
            spot_rect = (x, y + 10, x + art.SMALL.w, y + 10 + art.SMALL.h)
            if top is None:
                SLOT_FRAME.paste(im, spot_rect)
            else:
                spot = CardSpot(spot_rect, top, "small", rank_label(lang, RANK[top], rules))
                _card(im, spot, rules.deck, scene.four_colour)
            x += art.SMALL.w + CARD_GAP
        # The count on the right, a bar as long as the bundle next to the name.
        count = count_cards(lang, row.size)
        right = WIDTH - MARGIN - 18
        d.text((right, cy + 10), count, font=art.FONTS.name, fill=GOLD if row.place == 0 else LIGHT,
               anchor="rs")  # fmt: skip
        name_x = x + 10
        room = right - round(_text_width(count, "name")) - 20 - name_x
        name = row.name + (" (" + t(lang, "table.forfeited") + ")" if row.forfeited else "")
        d.text((name_x, cy - 4), _fit(name, "name", room), font=art.FONTS.name,
               fill=GOLD if row.place == 0 else LIGHT, anchor="ls")  # fmt: skip
        bar = round(max(0, room) * row.size / best)
        if bar:
            d.rounded_rectangle((name_x, cy + 8, name_x + bar, cy + 18), radius=5,
                                fill=CYAN if row.place == 0 else SLOT)  # fmt: skip
    return im


def render_final(scene: FinalScene) -> bytes:
    """The end screen's picture as a PNG: its own 256 colours (it is drawn once a game)."""
    im = draw_final(scene)
    pal = im.quantize(256, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)
    out = io.BytesIO()
    pal.save(out, "PNG", optimize=False, compress_level=PNG_LEVEL)
    return out.getvalue()


# ----- sample tables: the golden images, the benchmark and a look at the picture

SAMPLE_SEATS = ("111", "222", "ai:medium:1", "444")
SAMPLE_NAMES = {"111": "Ann", "222": "Bartholomew the Magnificent", "444": "Zoë 🌵"}
# A golden image per deck: (deck, preset, players, language, seed, moves played).
GOLDEN = (
    ("french52", "standard", 4, "en", 7, 14),
    ("spanish40", "casita", 3, "es", 3, 9),
    ("spanish48", "casita", 2, "es", 5, 11),
    ("italian40", "rubamazzo", 4, "it", 2, 13),
)


def sample(
    rules: Rules | str, players: int, seed: int, moves: int
) -> tuple[Table, LastMove | None]:
    """A table `moves` random legal moves into a game dealt from `seed`, and its last move."""
    import random

    from bot.engine import apply, legal_moves, new_game, preset

    rules = preset(rules) if isinstance(rules, str) else rules
    game = new_game(rules, SAMPLE_SEATS[:players], seed=seed)
    rng = random.Random(seed)
    last = None
    for _ in range(moves):
        if game.over:
            break
        game, events = apply(game, rng.choice(legal_moves(game)))
        last = LastMove.of(events)
    return Table(1, 10, 100, SAMPLE_SEATS[0], game, version=moves), last


PALETTE = _palette()


def golden_scene(deck: str, rules: str, players: int, lang: str, seed: int, moves: int) -> Scene:
    """The scene of a golden image (one of GOLDEN)."""
    from bot.engine import preset

    table, last = sample(preset(rules).replace(deck=deck), players, seed, moves)
    return Scene.of(table, SAMPLE_NAMES, lang, last=last)


def _main(argv: Sequence[str] | None = None) -> None:
    import argparse
    from pathlib import Path

    from bot.engine import DECKS, preset

    parser = argparse.ArgumentParser(prog="python -m bot.ui.picture", description=__doc__)
    parser.add_argument("--golden", metavar="DIR", help="write the golden images to DIR")
    parser.add_argument("--samples", metavar="DIR", help="write sample tables to DIR")
    args = parser.parse_args(argv)
    if args.golden:
        out = Path(args.golden)
        out.mkdir(parents=True, exist_ok=True)
        for deck, rules, players, lang, seed, moves in GOLDEN:
            png = render(golden_scene(deck, rules, players, lang, seed, moves))
            (out / f"{deck}.png").write_bytes(png)
            print(out / f"{deck}.png", len(png), "bytes")
    if args.samples:
        out = Path(args.samples)
        out.mkdir(parents=True, exist_ok=True)
        for deck in DECKS:
            base = {"french52": "standard", "italian40": "rubamazzo"}.get(deck, "casita")
            deck_rules = preset(base).replace(deck=deck)
            for players in (2, 3, 4):
                for lang in ("en", "es", "fr", "it"):
                    table, last = sample(
                        deck_rules, players, players * 11 + len(lang), 10 + players
                    )
                    for four in (False, True) if deck == "french52" else (False,):
                        scene = Scene.of(table, SAMPLE_NAMES, lang, last=last, four_colour=four)
                        png = render(scene)
                        name = f"{deck}-{players}p-{lang}{'-4c' if four else ''}.png"
                        (out / name).write_bytes(png)
        print("samples in", out)


if __name__ == "__main__":
    _main()
