"""Drawing a seat's hand message: the presenter refreshes open hands with it and the cogs
answer clicks with it, so both show the same hand."""

from __future__ import annotations

import logging
from collections.abc import Mapping

from bot.session import Table
from bot.ui import hand_message as hand_ui
from bot.ui.picture import hand as hand_picture
from bot.ui.render import Message

log = logging.getLogger(__name__)


async def drawn(
    lang: str, table: Table, seat: int, names: Mapping[str, str], note: str | None = None
) -> Message:
    """A seat's hand, with its picture (the table from its seat) on its turn, drawn unless it
    is cached. Without the picture if drawing fails: its description says
    the same in words. A waiting hand has no picture, so most refreshes draw nothing."""
    h = table.hand(seat)
    picture = None
    if h.view.turn == seat and h.legal:
        sight = hand_picture.Seat.of(lang, table, seat, names)
        picture = hand_picture.peek(sight)
        if picture is None:
            # Drawn here, not in a thread: about 2 ms once a turn (then cached), and the hand
            # that became its player's turn follows the table at once instead of after a
            # thread's queue (the playground's page showed the turn before the moves).
            try:
                picture = hand_picture.picture(sight)
            except Exception:
                log.exception("game %s: the hand picture failed", table.game_id)
    return hand_ui.hand(lang, h, table, names, note, picture)
