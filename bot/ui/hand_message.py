"""A player's hand: an ephemeral Components V2 message in the language of the player who
holds it, the screen a move is chosen on. On their turn a picture of what they choose from
(the pool, the stock, the opponents' bundles, from their seat), the moves since their last,
and one button per move, so a move is one click; each button names its card, so the cards are
not drawn again. It fits a phone's screen on its own. Pure functions of session values, like
bot.ui.render.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence
from typing import Any

import discord

from bot.engine import RANK, TRAIL, Move, active, legal_moves
from bot.i18n import t, tn
from bot.i18n.cards import label, labels
from bot.session.models import Hand, Table

from . import ids
from .picture.hand import FILE
from .render import GREY, Message, bundles_text, command, timestamp
from .table import seat_dot
from .text import Name, cards, describe, in_text, move_label, names_of
from .widgets import button

GREEN = discord.Colour.from_rgb(46, 160, 67)  # the accent of a hand whose turn it is
MAX_COMPONENTS = 40  # Discord's limit for a whole message, nested ones included
ROW = 5  # buttons in an action row
FORBIDDEN = "🚫"  # after a move the rules forbid (forced play), and in its legend
Item = discord.ui.Item[Any]


@dataclasses.dataclass(frozen=True)
class Shown:
    """A move as the hand shows it: allowed now (enabled) or not."""

    move: Move
    allowed: bool


def shown_moves(h: Hand, t_: Table) -> list[Shown]:
    """The moves of the seat to act, each card's in the engine's order. Under forced play also
    the moves the rules forbid (shown greyed, so a player sees why a card cannot trail)."""
    if not h.legal or h.seat in t_.forfeited:
        return []
    game = t_.game
    if game.rules.play != "forced":
        return [Shown(m, True) for m in h.legal]
    free = active(game).copy()
    free.rules = free.rules.replace(play="free")
    legal = set(h.legal)
    return [Shown(m, m in legal) for m in legal_moves(free)]


def _you(lang: str, name: Name, me: int) -> Name:
    """Seat names with the viewer's own marked "(you)"."""

    def marked(seat: int) -> str:
        return t(lang, "hand.you", name=name(seat)) if seat == me else name(seat)

    return marked


def _status(lang: str, h: Hand, t_: Table, name: Name) -> str:
    v = h.view
    if v.result is not None:
        return t(lang, "hand.over")
    if h.seat in t_.forfeited:
        return t(lang, "hand.forfeited")
    if v.turn == h.seat:
        if t_.deadline is not None:
            return t(lang, "hand.turn_timed", when=timestamp(t_.deadline))
        return t(lang, "hand.turn")
    if h.seat not in v.players:
        return t(lang, "hand.sit_out")
    assert v.turn is not None
    return t(lang, "hand.their_turn", name=name(v.turn))


def _rows(groups: Sequence[Sequence[Item]]) -> list[discord.ui.ActionRow[Any]]:
    """Each group (a card's moves) on rows of its own, five at most a row."""
    rows = []
    for group in groups:
        for i in range(0, len(group), ROW):
            rows.append(discord.ui.ActionRow(*group[i : i + ROW]))
    return rows


def _count(rows: Sequence[discord.ui.ActionRow[Any]]) -> int:
    return sum(1 + len(r.children) for r in rows)


def since(lang: str, h: Hand, t_: Table, name: Name) -> list[str]:
    """The latest moves in words, oldest first, one a seat at most: on the viewer's turn those
    made since their last move; while they wait, their last move and those after it. A steal
    of the viewer's bundle is marked ❗ and bold."""
    mine = h.view.turn == h.seat
    picked: list[str] = []
    seen: set[int] = set()
    for seat, events in reversed(t_.recent):
        if seat in seen or (mine and seat == h.seat):
            break
        seen.add(seat)
        said = describe(lang, events, h.view.rules, name)
        if said:
            line = f"{seat_dot(seat)} {said[0]}"
            robbed = any(e["type"] == "stole" and e["from_seat"] == h.seat for e in events)
            picked.append(f"❗ **{line}**" if robbed else line)
        if seat == h.seat:
            break
    return picked[::-1]


def sight(lang: str, h: Hand, t_: Table, names: Mapping[str, str]) -> str:
    """What the hand's picture shows, in plain words (its alt text): the player's cards, the
    pool and the stock, each opponent's bundles."""
    v, rules = h.view, h.view.rules
    name = names_of(lang, v.seats, names)
    stock = t(lang, "table.stock", cards=cards(lang, v.stock_size))
    lines = [
        t(lang, "hand.cards", cards=labels(lang, v.hand, rules)),
        f"{t(lang, 'table.pool')}: {labels(lang, v.pool, rules)} · {stock}",
    ]
    n = len(v.seats)
    for i in range(1, n):
        seat = (h.seat + i) % n
        lines.append(f"{name(seat)}: {bundles_text(lang, v.bundles[seat], rules)}")
    return "\n".join(lines)


def hand(
    lang: str,
    h: Hand,
    t_: Table,
    names: Mapping[str, str],
    note: str | None = None,
    picture: bytes | None = None,
) -> Message:
    """The hand: on the player's turn what they need to choose (`picture`: the pool and the
    opponents' bundles from their seat, bot.ui.picture.hand, drawn by the caller off the event
    loop), the moves since their last one and a button per move; while they wait, whose turn
    it is, what was just played and their cards as greyed buttons. Their cards show once: as
    the buttons."""
    v = h.view
    name = _you(lang, names_of(lang, v.seats, names), h.seat)  # plain: for the buttons
    said = in_text(name)
    head = [f"### 🃏 {t(lang, 'hand.title')}", _status(lang, h, t_, said)]
    if note:
        head.insert(1, f"⚠️ {note}")
    moves = shown_moves(h, t_)
    yours = v.turn == h.seat and bool(moves)
    if not v.hand and v.result is None:  # between deals: one line, not an empty picture
        head.append(f"-# {t(lang, 'hand.empty')}")
    items: list[Item] = [discord.ui.TextDisplay("\n".join(head))]
    shown = picture is not None and yours
    if shown:
        media = discord.MediaGalleryItem(
            f"attachment://{FILE}", description=sight(lang, h, t_, names)[:1024]
        )
        items.append(discord.ui.MediaGallery(media))
    latest = since(lang, h, t_, said)
    if latest:
        items.append(discord.ui.TextDisplay("\n".join(f"-# {line}" for line in latest)))
    rows, legend = _move_rows(lang, h, t_, moves, name)
    if moves and t_.hints_offered:
        hint = button(ids.hint(h.game_id, h.version), t(lang, "hand.button.hint"), emoji="💡")
        rows.append(discord.ui.ActionRow(hint))
    items.extend(rows)
    if legend:
        items.append(discord.ui.TextDisplay("-# " + "\n-# ".join(legend)))
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.Container(*items, accent_colour=GREEN if yours else GREY))
    return Message(view=layout, images=((FILE, picture),) if shown and picture else ())


def _move_rows(
    lang: str, h: Hand, t_: Table, moves: Sequence[Shown], name: Name
) -> tuple[list[discord.ui.ActionRow[Any]], list[str]]:
    """The move buttons, a card's moves on rows of their own, and the legend under them.
    Not the player's turn: a greyed button per card. Too many moves for the message's 40
    components (many steals with double bundles): a menu for each card with several."""
    v, rules = h.view, h.view.rules
    g, version = h.game_id, h.version
    if not moves:
        greyed: list[Item] = [
            button(ids.card(g, version, c), label(lang, c, rules), disabled=True) for c in v.hand
        ]
        return _rows([greyed] if greyed else []), []

    def move_button(s: Shown) -> Item:
        style = discord.ButtonStyle.secondary
        if s.allowed and s.move.action != TRAIL:
            style = discord.ButtonStyle.success
        words = move_label(lang, s.move, rules, v.pool, v.bundles, name)
        if not s.allowed:  # said in words too: a greyed button is faint on some themes
            words = words[:77] + " " + FORBIDDEN
        return button(ids.move(g, version, s.move), words, style, disabled=not s.allowed)

    by_card: dict[str, list[Shown]] = {}
    for s in moves:
        by_card.setdefault(s.move.card, []).append(s)
    legend = []
    if not all(s.allowed for s in moves):
        legend.append(t(lang, "hand.legend.forced"))
    rows = _rows([[move_button(s) for s in group] for group in by_card.values()])
    # The fixed parts: container, head, picture, legend, a hint row (and two spare).
    room = MAX_COMPONENTS - 8
    if _count(rows) <= room:
        return rows, legend
    packed = _rows([[move_button(s) for s in moves]])
    if _count(packed) <= room:
        return packed, legend
    # Still too many: each card with several moves gets a menu of its allowed moves.
    picks: list[discord.ui.ActionRow[Any]] = []
    for card, group in by_card.items():
        allowed = [s for s in group if s.allowed]
        if len(allowed) == 1:
            picks.append(discord.ui.ActionRow(move_button(allowed[0])))
            continue
        words = label(lang, card, rules)
        menu: discord.ui.Select[Any] = discord.ui.Select(
            custom_id=ids.pick(g, version, card),
            placeholder=t(lang, "hand.pick", card=words),
            options=[
                discord.SelectOption(
                    label=move_label(lang, s.move, rules, v.pool, v.bundles, name),
                    value=ids.choice(s.move),
                )
                for s in allowed[:25]
            ],
        )
        picks.append(discord.ui.ActionRow(menu))
    return picks, [*legend, t(lang, "hand.legend.pick")]


def moved(lang: str) -> Message:
    """What an older hand message becomes when its player opens a newer one."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay(t(lang, "hand.moved")))
    return Message(view=layout)


def closed(lang: str) -> Message:
    """An open hand once its game was cancelled (or ended by an admin): no buttons."""
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(discord.ui.TextDisplay(t(lang, "reply.game_gone", new=command(lang, "new"))))
    return Message(view=layout)


MEDALS = ("🥇", "🥈", "🥉", "4.")


def ended(lang: str, t_: Table, seat: int, names: Mapping[str, str]) -> Message:
    """An open hand once its game is over: one line, the player's own place, no buttons. The
    result itself is the end screen's (said once, there)."""
    game = t_.game
    result = game.result
    assert result is not None
    name = in_text(_you(lang, names_of(lang, game.seats, names), seat))
    standing = t_.standing  # worked out once by the session as the game ended
    assert standing is not None
    medal = MEDALS[min(standing.places[seat], 3)]
    place = t(
        lang,
        "hand.place",
        medal=medal,
        name=name(seat),
        cards=cards(lang, result.bundle_sizes[seat]),
    )
    layout = discord.ui.LayoutView(timeout=None)
    layout.add_item(
        discord.ui.Container(
            discord.ui.TextDisplay(f"🏁 {t(lang, 'hand.over')} {place}"), accent_colour=GREY
        )
    )
    return Message(view=layout)


def hint(lang: str, h: Hand, move: Move, names: Mapping[str, str]) -> str:
    """The medium AI's suggestion and, in one line, why."""
    v, rules = h.view, h.view.rules
    name = names_of(lang, v.seats, names)
    what = move_label(lang, move, rules, v.pool, v.bundles, name)  # the button to click
    if move.action == TRAIL:
        why = t(lang, "hint.why.trail")
    elif move.target_seat is not None:
        size = v.bundles[move.target_seat][move.target_bundle or 0].size
        why = tn(lang, "hint.why.steal", size, name=in_text(name)(move.target_seat))
    else:
        taken = sum(1 for c in v.pool if RANK[c] == RANK[move.card])
        why = tn(lang, "hint.why.capture", taken)
    return t(lang, "hint.text", move=what, why=why)
