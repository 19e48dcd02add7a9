"""Drawing a seat's hand message: the presenter refreshes open hands with it and the cogs
answer clicks with it, so both show the same hand."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Mapping

from bot import work
from bot.engine import Rules
from bot.session import Table
from bot.ui import hand as hand_ui
from bot.ui import hand_picture
from bot.ui.render import Message

log = logging.getLogger(__name__)
_AHEAD: set[asyncio.Future[None]] = set()  # drawing ahead: kept until done (asyncio holds weakly)


async def drawn(
    lang: str, table: Table, seat: int, names: Mapping[str, str], note: str | None = None
) -> Message:
    """A seat's hand with its picture, drawn in a thread unless it is cached. Without the
    picture if drawing fails: the hand still lists its cards. Once it is sent, `draw_ahead`."""
    h = table.hand(seat)
    cards, rules = tuple(h.view.hand), h.view.rules
    picture = hand_picture.peek(lang, cards, rules)
    if picture is None:
        try:
            picture = await work.run(table.guild_id, hand_picture.hand_strip, lang, cards, rules)
        except Exception:
            log.exception("game %s: the hand picture failed", table.game_id)
    return hand_ui.hand(lang, h, table, names, note, picture)


def draw_ahead(lang: str, table: Table, seat: int) -> None:
    """The hands a seat's moves can leave, drawn in a thread while the player thinks. Called
    once the hand is sent: a thread drawing meanwhile would hold the GIL the answer needs."""
    h = table.hand(seat)
    if h.legal:
        cards, rules = tuple(h.view.hand), h.view.rules
        ahead = asyncio.ensure_future(work.run(table.guild_id, _ahead, lang, cards, rules))
        _AHEAD.add(ahead)
        ahead.add_done_callback(_AHEAD.discard)


def _ahead(lang: str, cards: tuple[str, ...], rules: Rules) -> None:
    """So the click that plays a card finds the hand it leaves drawn (no thread to wait for)."""
    try:
        for i in range(len(cards)):
            hand_picture.hand_strip(lang, cards[:i] + cards[i + 1 :], rules)
    except Exception:  # only a head start: the click draws it if this failed
        log.exception("hand pictures not drawn ahead")
