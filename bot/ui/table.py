"""The live table as one Components V2 card: its accent colour says whose turn it is, the
picture (bot.ui.picture) shows the table, and the words under it say only what the picture
cannot: whose turn it is with its countdown, and the last move. So a turn fits a phone's
screen. The picture's description (its alt text) says all it shows (the pool, each seat, the
last moves), so screen readers lose nothing; a table whose picture failed to upload shows
those facts as text instead, so it is still readable.

Pure functions: the picture's PNG bytes are given (the presenter draws them in a thread).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import discord

from bot.domain.seats import is_ai
from bot.engine import Rules, View, view
from bot.i18n import t
from bot.i18n.cards import labels
from bot.i18n.rules import rules_footer
from bot.session.models import Table

from . import ids
from .names import shown
from .picture.style import SEAT_RGB
from .render import (
    Item,
    Message,
    bundles_text,
    card_view,
    picture,
    table_title,
    text,
    timestamp,
    who,
)
from .text import cards, names_of
from .widgets import button, row

TABLE_PNG = "table.png"
LOG_LINES = 4  # moves shown under the picture
# One colour a seat: the card's accent and the dot before the seat's name, so the colour
# tells whose turn it is at a glance, on any theme.
SEAT_COLOURS = tuple(discord.Colour.from_rgb(*rgb) for rgb in SEAT_RGB)  # as the picture's dots
SEAT_DOTS = ("🔵", "🟠", "🟣", "🟢")
GOLD = discord.Colour.from_rgb(241, 196, 15)  # a game over


def seat_dot(seat: int) -> str:
    return SEAT_DOTS[seat % len(SEAT_DOTS)]


def turn_line(lang: str, t_: Table, names: Mapping[str, str]) -> str:
    """Whose turn it is, and when it is played for them (an AI: it is thinking)."""
    seat = t_.turn
    assert seat is not None  # a game not over has a player to move (its end is bot.ui.end_screen)
    line = f"{seat_dot(seat)} " + t(lang, "table.turn", name=who(lang, t_.seats[seat], names))
    if is_ai(t_.seats[seat]):
        line += " · " + t(lang, "table.thinking")
    elif t_.deadline is not None:
        line += " · " + t(lang, "table.autoplay", when=timestamp(t_.deadline))
    return line


def facts(lang: str, t_: Table, names: Mapping[str, str]) -> list[str]:
    """The pool and every seat in words, as small text."""
    game = t_.game
    v = view(game, 0)  # only the public parts are read here
    rules = game.rules
    name = names_of(lang, game.seats, names)
    stock = t(lang, "table.stock", cards=cards(lang, v.stock_size))
    lines = [f"-# {t(lang, 'table.pool')}: {labels(lang, v.pool, rules)} · {stock}"]
    for seat in range(len(game.seats)):
        mark = seat_mark(lang, t_, seat)
        marks = f" {mark[0]} {mark[1]}" if mark else ""
        turn = "▶️ " if v.turn == seat else ""
        counts = seat_counts(lang, v, rules, seat)
        lines.append(f"-# {seat_dot(seat)} {turn}**{shown(name(seat))}**{marks} · {counts}")
    return lines


def seat_mark(lang: str, t_: Table, seat: int) -> tuple[str, str] | None:
    """(emoji, word) for a seat that forfeited or is away; None for one that plays."""
    if seat in t_.forfeited:
        return "🏳️", t(lang, "table.forfeited")
    if seat in t_.away:
        return "💤", t(lang, "table.away")
    return None


def seat_counts(lang: str, v: View, rules: Rules, seat: int) -> str:
    """A seat's bundle and hand, on one line."""
    return t(
        lang, "table.seat",
        bundles=bundles_text(lang, v.bundles[seat], rules),
        cards=cards(lang, v.hand_sizes[seat]),
    ).replace("\n", " · ")  # fmt: skip


def description(lang: str, t_: Table, names: Mapping[str, str], log: Sequence[str]) -> str:
    """What the picture shows, in plain words (no markdown: alt text is read as it is): whose
    turn, the pool and stock, each seat, the last moves. One fact a line."""
    game = t_.game
    v = view(game, 0)  # only the public parts are read here
    rules = game.rules
    name = names_of(lang, game.seats, names)
    assert v.turn is not None
    lines = [
        f"{t(lang, 'table.title')} · {t(lang, 'table.turn', name=name(v.turn))}",
        f"{t(lang, 'table.pool')}: {labels(lang, v.pool, rules)} · "
        + t(lang, "table.stock", cards=cards(lang, v.stock_size)),
    ]
    for seat in range(len(game.seats)):
        mark = seat_mark(lang, t_, seat)
        marks = f" · {mark[1]}" if mark else ""
        lines.append(f"{name(seat)}{marks} · {seat_counts(lang, v, rules, seat)}")
    if log:
        lines.append(f"{t(lang, 'table.last_moves')}:")
        lines.extend(log[-LOG_LINES:])
    return "\n".join(lines)


def table(
    lang: str,
    t_: Table,
    names: Mapping[str, str],
    log: Sequence[str],
    image: bytes | None = None,
) -> Message:
    """The live table; `image` is its picture (bot.ui.picture.render), None for the text alone."""
    v = view(t_.game, 0)
    assert v.turn is not None
    items: list[Item] = [
        text(f"### {table_title(lang, t_, v.playoff)}", turn_line(lang, t_, names))
    ]
    if image is not None:  # the picture says the rest; its description says it in words
        items.append(picture(TABLE_PNG, description(lang, t_, names, log)))
        if log:
            items.append(text(f"-# {log[-1]}"))
    else:  # no picture: its facts in words
        items.append(text(*facts(lang, t_, names)))
        if log:
            moves = [f"-# {line}" for line in log[-LOG_LINES:]]
            items.append(text(f"**{t(lang, 'table.last_moves')}**", *moves))
        items.append(discord.ui.Separator())
    g = t_.game_id
    items.append(
        row(
            button(
                ids.table("hand", g),
                t(lang, "table.button.hand"),
                discord.ButtonStyle.primary,
                emoji="🃏",
            ),
            button(ids.table("rules", g), t(lang, "table.button.rules"), emoji="📖"),
        )
    )
    items.append(text(f"-# {rules_footer(lang, t_.game.rules)}"))
    colour = SEAT_COLOURS[v.turn % len(SEAT_COLOURS)]
    images = ((TABLE_PNG, image),) if image is not None else ()
    return Message(view=card_view(colour, *items), images=images)
