"""Words and layouts users see, from engine values (no Discord connection needed)."""

from bot.engine import PRESETS, Move, Rules, legal_moves, new_game, view
from bot.i18n.cards import label, labels
from bot.i18n.rules import rules_footer, rules_lines
from bot.session import Table
from bot.ui import render
from bot.ui.text import choice_label, describe, names_of

NAMES = {"1": "Ann", "2": "Bob", "3": "Cat"}


def test_card_labels_per_deck():
    assert label("en", "13H", PRESETS["standard"]) == "K♥"
    assert label("en", "1S", PRESETS["standard"]) == "A♠"
    assert label("en", "10O", PRESETS["casita"]) == "J🪙"  # the sota
    assert label("en", "12E", PRESETS["casita"]) == "K⚔️"
    assert label("en", "8D", PRESETS["rubamazzo"]) == "J🪙"  # the fante
    assert labels("en", [], PRESETS["standard"]) == "—"


def test_every_preset_has_a_summary_and_footer():
    for name, rules in PRESETS.items():
        lines = rules_lines("en", rules)
        assert len(lines) >= 7 and all(line.endswith(".") for line in lines)
        assert rules_footer("en", rules).startswith(name.capitalize())
    assert "No stealing." in rules_lines("en", PRESETS["friendly"])
    assert "You must capture or steal when you can." in rules_lines("en", PRESETS["classic"])
    custom = Rules(wild_jacks=True, sweep_bonus=True, double_bundles=True)
    assert rules_footer("en", custom).startswith("Custom")
    assert any("Wild Jacks" in line for line in rules_lines("en", custom))


def test_choice_labels():
    rules = PRESETS["standard"]
    name = names_of("en", ("1", "2"), NAMES)
    bundles = (
        (view_bundle(None, 0),),
        (view_bundle("13S", 12),),
    )
    pool = ("13D", "13C", "4H")
    assert choice_label("en", Move("13H", "capture"), rules, pool, bundles, name) == "Capture 2 × K"
    assert choice_label("en", Move("13H", "steal", 1), rules, pool, bundles, name) == (
        "Steal Bob's 12 cards"
    )
    assert choice_label("en", Move("13H", "trail"), rules, pool, bundles, name) == "Trail K♥"


def test_double_bundle_choices_name_both_bundles():
    rules = Rules(double_bundles=True)
    name = names_of("en", ("1", "2"), NAMES)
    bundles = (
        (view_bundle(None, 0), view_bundle(None, 0)),
        (view_bundle("2S", 1), view_bundle("13S", 5)),
    )
    move = Move("13H", "steal", 1, 1, 0)
    assert choice_label("en", move, rules, (), bundles, name) == (
        "Steal Bob's bundle 2 (5 cards) → your bundle 1"
    )
    assert choice_label(
        "en", Move("2H", "capture", None, None, 1), rules, ("2D",), bundles, name
    ) == ("Capture 1 × 2 → your bundle 2")


def test_describe_moves_in_words():
    rules = PRESETS["standard"]
    name = names_of("en", ("1", "2"), NAMES)
    events = [
        {"type": "played", "seat": 0, "card": "13H", "auto": False},
        {"type": "stole", "seat": 0, "card": "13H", "from_seat": 1, "n": 12},
        {"type": "hands_dealt", "sizes": [4, 4]},
    ]
    assert describe("en", events, rules, name) == [
        "Ann stole Bob's 12 cards with K♥",
        "New hands were dealt",
    ]
    auto = [{"type": "played", "seat": 1, "card": "7C", "auto": True}]
    auto.append({"type": "trailed", "seat": 1, "card": "7C"})
    assert describe("en", auto, rules, name) == ["Bob trailed 7♣ (auto)"]


def test_a_double_bundles_hand_asks_which_bundle():
    rules = Rules(double_bundles=True)
    game = new_game(rules, ("1", "2"), seed=1)  # its first player can capture
    table = Table(1, 10, 100, "1", game, version=0)
    hand = table.hand(table.turn)
    card = next(m for m in legal_moves(game) if m.action == "capture").card
    message = render.choices("en", hand, card, NAMES)
    labels_ = [item.label for item in message.view.children]
    assert labels_ == ["Capture 1 × 10 → your bundle 1", "Capture 1 × 10 → your bundle 2",
                       "Trail 10♠", "Back"]  # fmt: skip


def test_hand_buttons_are_disabled_off_turn_and_say_whose_turn():
    game = new_game(PRESETS["standard"], ("1", "2"), seed=3)
    table = Table(1, 10, 100, "1", game, version=0)
    waiting = 1 - table.turn
    message = render.hand("en", table.hand(waiting), table, NAMES)
    assert all(item.disabled for item in message.view.children)
    assert f"It's {NAMES[game.seats[table.turn]]}'s turn." in message.content
    me = render.hand("en", table.hand(table.turn), table, NAMES)
    assert not any(item.disabled for item in me.view.children)
    assert "**Your turn**" in me.content
    cards = [b.label for b in me.view.children if b.label != "Hint"]
    assert len(cards) == len(view(game, table.turn).hand)
    assert [b.label for b in me.view.children][-1] == "Hint"  # on your turn, hints are on


def view_bundle(top, size):
    from bot.engine import BundleView

    return BundleView(top, size)
