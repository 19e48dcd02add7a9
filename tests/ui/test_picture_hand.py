"""The hand's picture is the table from the player's seat: the pool, the stock and each
opponent's bundles, never the player's own cards (those are the buttons); cached by content."""

from __future__ import annotations

import io

from PIL import Image

from bot.engine import new_game, preset
from bot.session import Table
from bot.ui import hand_message as hand_ui
from bot.ui.picture import hand as hand_picture

NAMES = {"1": "ann", "2": "bob", "3": "cat", "4": "dan"}


def table(players: int = 3) -> Table:
    game = new_game(preset("standard"), list(NAMES)[:players], seed=5)
    game.bundles[1][0] = ["5S", "12C"]  # bob: 2 cards, the queen on top
    return Table(1, 10, 100, "1", game, version=7)


def test_the_picture_shows_the_pool_stock_and_opponents_not_your_cards():
    t = table()
    me = t.turn
    seen = hand_picture.Seat.of("en", t, me, NAMES)
    game = t.game
    assert [card for card, _ in seen.pool] == game.pool
    assert seen.stock == len(game.stock)
    order = [(me + 1) % 3, (me + 2) % 3]  # from the player's left, the player left out
    assert [o.seat for o in seen.others] == order
    bob = next(o for o in seen.others if o.seat == 1) if me != 1 else None
    if bob is not None:
        assert bob.bundles == (("12C", "Q", 2),)
    shown = {card for card, _ in seen.pool} | {b[0] for o in seen.others for b in o.bundles}
    assert not shown & set(game.hands[me])


def test_the_picture_is_short_and_cached_by_content():
    t = table(4)
    seen = hand_picture.Seat.of("en", t, t.turn, NAMES)
    png = hand_picture.picture(seen)
    im = Image.open(io.BytesIO(png))
    assert im.width == hand_picture.WIDTH and im.height <= 260  # about 125 px on a phone
    assert hand_picture.peek(hand_picture.Seat.of("en", t, t.turn, NAMES)) is png  # no redraw


def test_the_hand_on_your_turn_says_in_words_what_its_picture_shows():
    t = table()
    h = t.hand(t.turn)
    message = hand_ui.hand("en", h, t, NAMES, picture=b"png")
    tree = message.view.to_components()[0]["components"]
    gallery = next(c for c in tree if c["type"] == 12)
    alt = gallery["items"][0]["description"]
    assert alt.startswith("Your cards: ")
    assert "Pool: " in alt and "Stock: " in alt
    assert sum(1 for n in ("ann", "bob", "cat") if f"\n{n}: " in alt) == 2  # the opponents
    waiting = t.hand((t.turn + 1) % 3)
    assert not hand_ui.hand("en", waiting, t, NAMES, picture=b"png").images  # no picture
