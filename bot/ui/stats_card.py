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

from . import cards_art as art
from .picture import encode
from .picture.style import DIM, FELT, GOLD, LIGHT, PANEL

WIDTH = 800
MARGIN, GAP = 16, 12
HEADER = 56
TILE_H = 104
TREND_H = 128
TILE = art.Rounded.make(14, PANEL)
UP, DOWN = art.GREEN, art.RED
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


def _tile(im: Image.Image, d: ImageDraw.ImageDraw, box: tuple[int, int, int, int],
          label: str, value: str, note: str = "") -> None:  # fmt: skip
    """A panel with a label, a big value and, right of the value, a small note."""
    TILE.paste(im, box)
    x0, y0, x1, _ = box
    width = x1 - x0 - 32
    d.text((x0 + 16, y0 + 14), _fit(label, art.FONTS.text, width), font=art.FONTS.text, fill=DIM)
    shown = _fit(
        value, art.FONTS.rank, width - (art.FONTS.badge.getlength(note) + 12 if note else 0)
    )
    d.text((x0 + 16, y0 + 46), shown, font=art.FONTS.rank, fill=LIGHT)
    if note:
        x = x0 + 16 + art.FONTS.rank.getlength(shown) + 12
        d.text((x, y0 + 84), _fit(note, art.FONTS.badge, x1 - 16 - x), font=art.FONTS.badge,
               fill=DIM, anchor="ls")  # fmt: skip


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
    lang, w = card.lang, words(card)
    height = MARGIN + HEADER + 2 * (TILE_H + GAP) + TREND_H + GAP + MARGIN - GAP
    im = Image.new("RGB", (WIDTH, height), FELT)
    d = ImageDraw.Draw(im)
    inner = WIDTH - 2 * MARGIN
    # The name, and the rank on the board in gold.
    rank_w = art.FONTS.name.getlength(w["rank"])
    name = _fit(art.drawable(card.name) or "?", art.FONTS.name, inner - rank_w - 24)
    y = MARGIN + HEADER // 2
    d.text((MARGIN, y), name, font=art.FONTS.name, fill=LIGHT, anchor="lm")
    d.text((WIDTH - MARGIN, y), w["rank"], font=art.FONTS.name, fill=GOLD, anchor="rm")
    # Games, wins, win rate.
    y = MARGIN + HEADER
    third = (inner - 2 * GAP) // 3
    for i, key in enumerate(("games", "wins", "win_rate")):
        x = MARGIN + i * (third + GAP)
        _tile(im, d, (x, y, x + third, y + TILE_H), t(lang, f"stats.{key}"), w[key])
    # The rating, what it did over the last games, and the line.
    y += TILE_H + GAP
    box = (MARGIN, y, WIDTH - MARGIN, y + TREND_H)
    TILE.paste(im, box)
    d.text((MARGIN + 16, y + 14), t(lang, "stats.rating"), font=art.FONTS.text, fill=DIM)
    d.text((MARGIN + 16, y + 46), w["rating"], font=art.FONTS.rank, fill=LIGHT)
    change = card.trend[-1] - card.trend[0] if len(card.trend) > 1 else 0
    colour = UP if change > 0 else (DOWN if change < 0 else DIM)
    pill = f"{w['change']} · {w['over']}"
    d.text((MARGIN + 16, y + TREND_H - 16), pill, font=art.FONTS.badge, fill=LIGHT, anchor="ls")
    d.text(
        (MARGIN + 16, y + TREND_H - 16), w["change"], font=art.FONTS.badge, fill=colour, anchor="ls"
    )
    _trend(d, (MARGIN + 300, y + 22, WIDTH - MARGIN - 28, y + TREND_H - 22), card.trend)
    # The biggest steal and the favourite capture.
    y += TREND_H + GAP
    half = (inner - GAP) // 2
    none = "—"  # "none yet" in big letters would not fit: the alt text says it in words
    _tile(im, d, (MARGIN, y, MARGIN + half, y + TILE_H), t(lang, "stats.biggest_steal"),
          w["biggest_steal"] if card.biggest_steal else none)  # fmt: skip
    x = MARGIN + half + GAP
    _tile(im, d, (x, y, WIDTH - MARGIN, y + TILE_H), t(lang, "stats_card.favourite"),
          w["favourite_rank"] if card.favourite else none, w["captures"])  # fmt: skip
    return im


def render_card(card: StatsCard) -> bytes:
    """The card as a PNG. Pure: the same card gives the same bytes."""
    return encode(draw(card))
