"""A player's stats as a small picture (Pillow): games, wins, win rate, the rating with its
trend over the last games, the biggest steal and the favourite capture rank.

`StatsCard` holds the plain values (take it on the event loop); `render_card` draws it and is
safe in a thread (asyncio.to_thread). The same card always gives the same bytes. The look is
the table picture's (bot.ui.picture): its felt, panels, fonts and palette.
"""

from __future__ import annotations

from dataclasses import dataclass

from PIL import Image, ImageDraw, ImageFont

from bot.engine import Rules
from bot.i18n import t, tn
from bot.i18n.cards import rank_name

from .picture import encode
from .picture.cards import Rounded
from .picture.fonts import FONTS, drawable
from .picture.style import DIM, FELT, GOLD, LIGHT, PANEL
from .picture.suits import GREEN, RED

# Shown about 235 px wide on a 360-px phone (scripts/heights.py): at 420 px its smallest
# words (24 px) are shown 13 px tall, and nothing is smaller than 11 px there.
WIDTH = 420
MARGIN, GAP = 14, 12
HEADER = 52
ROW_H = 40  # a figure's line
TREND_H = 110
TILE = Rounded.make(14, PANEL)
UP, DOWN = GREEN, RED
LINE = (130, 190, 150)  # the trend line, lighter than the panel


@dataclass(frozen=True)
class StatsCard:
    lang: str
    name: str
    games: int
    wins: int
    rating: int
    trend: tuple[int, ...]  # displayed ratings: before the last games, then after each
    rank: int | None
    players: int  # on the board
    biggest_steal: int
    favourite: tuple[str, int, int] | None  # (deck, rank, captures)
    cards: int = 0  # in all the counted games' bundles: said in words, not drawn
    steals: int = 0


def _fit(text: str, font: ImageFont.FreeTypeFont, width: float) -> str:
    """`text`, cut with an ellipsis to fit `width` pixels."""
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def number(lang: str, value: int) -> str:
    from babel.numbers import format_decimal

    # Narrow no-break spaces (French thousands) are not in the font: a plain space reads the same.
    return format_decimal(value, locale=lang).replace("\u202f", " ").replace("\xa0", " ")


def words(card: StatsCard) -> dict[str, str]:
    """The card's texts in its language (also its alt text)."""
    lang = card.lang
    rate = round(100 * card.wins / card.games) if card.games else 0
    biggest = (
        tn(lang, "count.cards", card.biggest_steal)
        if card.biggest_steal
        else t(lang, "stats.none_yet")
    )
    rank_words = captures = ""
    if card.favourite is None:
        favourite = t(lang, "stats.none_yet")
    else:
        deck, rank, n = card.favourite
        rank_words = rank_name(lang, rank, Rules(deck=deck), 2)
        captures = tn(lang, "stats_card.captures", n)
        favourite = t(lang, "stats_card.favourite_value", rank=rank_words, captures=captures)
    change = card.trend[-1] - card.trend[0] if len(card.trend) > 1 else 0
    sign = "+" if change > 0 else ("−" if change < 0 else "±")
    place = (
        t(lang, "stats.rank_of", rank=card.rank, count=card.players)
        if card.rank is not None
        else t(lang, "stats.unranked")
    )
    return {
        "games": str(card.games),
        "wins": str(card.wins),
        "win_rate": t(lang, "board.percent", n=rate),
        "rating": number(lang, card.rating),
        "change": f"{sign}{abs(change)}",
        "over": tn(lang, "stats_card.over", max(1, len(card.trend) - 1)),
        "biggest_steal": biggest,
        "favourite": favourite,
        "favourite_rank": rank_words or favourite,
        "captures": captures,
        "rank": place,
    }


ALT_LIMIT = 256  # Discord's limit on a media item's description


SEPARATOR = " — "  # one line: a description is plain text, like a label


def alt_text(card: StatsCard) -> str:
    """Every figure of the card, and the two it does not draw (cards, steals), as "label:
    value" items: the picture's description, for screen readers and anyone who wants the
    numbers. The name is shortened if the whole would pass Discord's limit."""
    lang, w = card.lang, words(card)
    trend = t(lang, "stats_card.trend", change=w["change"], over=w["over"])
    items = [
        ("stats.games", w["games"]), ("stats.wins", w["wins"]), ("stats.win_rate", w["win_rate"]),
        ("stats.rating", w["rating"]), ("stats_card.trend_label", trend), ("stats.rank", w["rank"]),
        ("stats.cards", number(lang, card.cards)), ("stats.steals", number(lang, card.steals)),
        ("stats.biggest_steal", w["biggest_steal"]), ("stats_card.favourite", w["favourite"]),
    ]  # fmt: skip
    body = " · ".join(t(lang, "stats_card.alt_item", name=t(lang, k), value=v) for k, v in items)
    room = ALT_LIMIT - len(body) - len(SEPARATOR)
    name = card.name if len(card.name) <= room else card.name[: max(0, room - 1)] + "…"
    return f"{name}{SEPARATOR}{body}"[:ALT_LIMIT]


def _row(d: ImageDraw.ImageDraw, y: int, label: str, value: str, note: str = "") -> None:
    """A figure on one line: its label on the left, its value (and a small note) on the
    right, the label shortened if they would meet."""
    right = WIDTH - MARGIN - 16
    if note:
        d.text((right, y), note, font=FONTS.text, fill=DIM, anchor="rs")
        right -= round(FONTS.text.getlength(note)) + 10
    d.text((right, y), value, font=FONTS.name, fill=LIGHT, anchor="rs")
    room = right - round(FONTS.name.getlength(value)) - 16 - (MARGIN + 16)
    d.text((MARGIN + 16, y), _fit(label, FONTS.text, room), font=FONTS.text, fill=DIM,
           anchor="ls")  # fmt: skip


def _trend(d: ImageDraw.ImageDraw, box: tuple[int, int, int, int], trend: tuple[int, ...]) -> None:
    """The rating over the last games as a line, the latest point marked."""
    x0, y0, x1, y1 = box
    if len(trend) < 2:
        return
    low, high = min(trend), max(trend)
    span = max(high - low, 40)  # a flat line stays in the middle, small changes stay small
    mid = (low + high) / 2
    step = (x1 - x0) / (len(trend) - 1)
    points = [
        (x0 + i * step, (y0 + y1) / 2 - (r - mid) / span * (y1 - y0)) for i, r in enumerate(trend)
    ]
    d.line(points, fill=LINE, width=4, joint="curve")
    for x, y in points[:-1]:
        d.ellipse((x - 4, y - 4, x + 4, y + 4), fill=LINE)
    x, y = points[-1]
    colour = UP if trend[-1] >= trend[0] else DOWN
    d.ellipse((x - 8, y - 8, x + 8, y + 8), fill=GOLD, outline=colour, width=3)


def draw(card: StatsCard) -> Image.Image:
    """The name and rank, then one figure a line on a panel, the rating's line under it:
    narrow, so its words are shown at least READABLE px tall on a phone."""
    lang, w = card.lang, words(card)
    figures = [
        (t(lang, "stats.games"), w["games"], ""),
        (t(lang, "stats.wins"), w["wins"], ""),
        (t(lang, "stats.win_rate"), w["win_rate"], ""),
        (t(lang, "stats.rating"), w["rating"], ""),
        (t(lang, "stats.biggest_steal"), w["biggest_steal"] if card.biggest_steal else "—", ""),
        (t(lang, "stats_card.favourite"), w["favourite_rank"] if card.favourite else "—",
         w["captures"]),
    ]  # fmt: skip
    panel_h = 12 + len(figures) * ROW_H + TREND_H
    height = MARGIN + HEADER + panel_h + MARGIN
    im = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(im)
    inner = WIDTH - 2 * MARGIN
    # The name, and the rank on the board in gold.
    rank_w = FONTS.name.getlength(w["rank"])
    name = _fit(drawable(card.name) or "?", FONTS.name, inner - rank_w - 16)
    y = MARGIN + HEADER // 2
    d.text((MARGIN, y), name, font=FONTS.name, fill=LIGHT, anchor="lm")
    d.text((WIDTH - MARGIN, y), w["rank"], font=FONTS.name, fill=GOLD, anchor="rm")
    y = MARGIN + HEADER
    TILE.paste(im, (MARGIN, y, WIDTH - MARGIN, y + panel_h))
    for i, (label, value, note) in enumerate(figures):
        _row(d, y + 12 + (i + 1) * ROW_H - 12, label, value, note)
    # What the rating did over the last games, and its line.
    y += 12 + len(figures) * ROW_H
    change = card.trend[-1] - card.trend[0] if len(card.trend) > 1 else 0
    colour = UP if change > 0 else (DOWN if change < 0 else DIM)
    base = y + 30
    d.text((MARGIN + 16, base), w["change"], font=FONTS.name, fill=colour, anchor="ls")
    x = MARGIN + 16 + round(FONTS.name.getlength(w["change"])) + 10
    over = _fit(w["over"], FONTS.text, WIDTH - MARGIN - 16 - x)
    d.text((x, base), over, font=FONTS.text, fill=DIM, anchor="ls")
    _trend(d, (MARGIN + 28, base + 16, WIDTH - MARGIN - 28, y + TREND_H - 16), card.trend)
    return im


def render_card(card: StatsCard) -> bytes:
    """The card as a PNG. Pure: the same card gives the same bytes."""
    return encode(draw(card))
