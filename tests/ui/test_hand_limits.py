"""The hand within Discord's limits in the worst case: four players with the longest names,
every option on (double bundles and wild jacks make the most steals), four jacks in hand, a
crowded pool, in every language: at most 40 components and 4,000 characters of text, and a
message SimCord's validator (Discord's rules) accepts."""

from __future__ import annotations

import pytest
from simcord.components import COMPONENTS_V2_FLAG, validate_message_state, walk_components

from bot.domain.table_setup import TableSetup
from bot.engine import Rules, new_game
from bot.i18n import LANGUAGES
from bot.session import Table
from bot.ui import hand_message as hand_ui

SEATS = ("1", "2", "3", "4")
LONGEST = {s: f"{'Ŵ' * 28} {s}{s}{s}" for s in SEATS}  # 32 characters, Discord's longest name


def worst(play: str) -> Table:
    rules = Rules(
        play=play, double_bundles=True, wild_jacks=True, sweep_bonus=True, refill_pool=False
    )
    game = new_game(rules, SEATS, seed=1)
    turn = game.turn
    assert turn is not None
    deck = [c for c in rules.card_deck.cards if not c.startswith("11")]
    game.hands = [list(deck[i * 4 : i * 4 + 4]) for i in range(4)]
    game.hands[turn] = ["11S", "11H", "11D", "11C"]  # wild jacks: each steals any bundle
    game.bundles = [
        [deck[16 + 4 * s : 18 + 4 * s], deck[18 + 4 * s : 20 + 4 * s]] for s in range(4)
    ]
    game.pool = deck[32:48]
    game.stock = deck[48:]
    others = [s for s in range(4) if s != turn]
    return Table(
        1, 10, 100, "1", game, version=123456, deadline=2e9, away={others[0]},
        forfeited={others[1]}, setup=TableSetup(hints="on"),
    )  # fmt: skip


@pytest.mark.parametrize("lang", LANGUAGES)
@pytest.mark.parametrize("play", ["free", "forced"])
def test_the_worst_hand_fits_in_one_message(lang, play):
    table = worst(play)
    for seat in range(4):
        hand = table.hand(seat)
        note = "x" * 300  # a long note above it (an error's words)
        message = hand_ui.hand(lang, hand, table, LONGEST, note=note, picture=b"png")
        tree = message.view.to_components()
        shown = list(walk_components(tree))
        assert len(shown) <= 40, (seat, len(shown))
        text = sum(len(c["content"]) for c in shown if c["type"] == 10)
        assert text <= 4000
        validate_message_state(tree, flags=COMPONENTS_V2_FLAG, content=None, embeds=[])
        if seat == table.turn:
            offered = [c for c in shown if c["type"] in (2, 3)]
            assert offered, "the player to act has moves to choose from"


def test_the_worst_hand_offers_every_allowed_move():
    """Too many for buttons: each jack gets a menu of its 12 steals and its trail."""
    table = worst("free")
    hand = table.hand(table.turn)
    tree = hand_ui.hand("en", hand, table, LONGEST).view.to_components()
    menus = [c for c in walk_components(tree) if c["type"] == 3]
    offered = {(m["custom_id"].rsplit(":", 1)[1], o["value"]) for m in menus for o in m["options"]}
    assert len(offered) == len(hand.legal) == 4 * 13
