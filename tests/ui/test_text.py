"""Words and layouts users see, from engine values (no Discord connection needed)."""

import discord

from bot.engine import PRESETS, Move, Rules, legal_moves, new_game, view
from bot.i18n.cards import label, labels
from bot.i18n.rules import rules_footer, rules_lines
from bot.session import Table
from bot.ui import hand_message as hand_ui
from bot.ui.text import describe, move_label, names_of

NAMES = {"1": "Ann", "2": "Bob", "3": "Cat"}


def test_card_labels_per_deck():
    assert label("en", "13H", PRESETS["standard"]) == "K♡"
    assert label("en", "1S", PRESETS["standard"]) == "A♤"
    # Spanish and Italian figures read as the numbers they capture with (no "N" knight)
    assert label("en", "10O", PRESETS["casita"]) == "10🪙"  # the sota
    assert label("en", "11C", PRESETS["casita"]) == "11🍷"  # the knight; cups are no 🏆
    assert label("es", "11C", PRESETS["casita"]) == "C🍷"  # the caballo
    assert label("en", "12E", PRESETS["casita"]) == "12⚔️"
    assert label("en", "8D", PRESETS["rubamazzo"]) == "8🪙"  # the fante
    assert label("it", "9C", PRESETS["rubamazzo"]) == "C🍷"  # the cavallo
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


def test_move_labels_say_the_card_then_what_it_does():
    rules = PRESETS["standard"]
    name = names_of("en", ("1", "2"), NAMES)
    bundles = (
        (view_bundle(None, 0),),
        (view_bundle("13S", 12),),
    )
    pool = ("13D", "13C", "4H")
    label_ = lambda m: move_label("en", m, rules, pool, bundles, name)  # noqa: E731
    assert label_(Move("13H", "capture")) == "K♡ → capture K♢ K♧"
    assert label_(Move("13H", "steal", 1)) == "K♡ → steal Bob's 12"
    assert label_(Move("13H", "trail")) == "K♡ → trail"
    long = names_of("en", ("1", "2"), {"1": "Ann", "2": "B" * 32})
    stolen = move_label("en", Move("13H", "steal", 1), rules, pool, bundles, long)
    assert stolen == f"K♡ → steal {'B' * 23}…'s 12" and len(stolen) <= 80


def test_double_bundle_moves_name_both_bundles():
    rules = Rules(double_bundles=True)
    name = names_of("en", ("1", "2"), NAMES)
    bundles = (
        (view_bundle(None, 0), view_bundle(None, 0)),
        (view_bundle("2S", 1), view_bundle("13S", 5)),
    )
    move = Move("13H", "steal", 1, 1, 0)
    assert move_label("en", move, rules, (), bundles, name) == (
        "K♡ → steal Bob's bundle 2 (5) → your bundle 1"
    )
    assert move_label(
        "en", Move("2H", "capture", None, None, 1), rules, ("2D",), bundles, name
    ) == ("2♡ → capture 2♢ → your bundle 2")


def test_describe_moves_in_words():
    rules = PRESETS["standard"]
    name = names_of("en", ("1", "2"), NAMES)
    events = [
        {"type": "played", "seat": 0, "card": "13H", "auto": False},
        {"type": "stole", "seat": 0, "card": "13H", "from_seat": 1, "n": 12},
        {"type": "hands_dealt", "sizes": [4, 4]},
    ]
    assert describe("en", events, rules, name) == [
        "Ann stole Bob's 12 cards with K♡",
        "New hands were dealt",
    ]
    auto = [{"type": "played", "seat": 1, "card": "7C", "auto": True}]
    auto.append({"type": "trailed", "seat": 1, "card": "7C"})
    assert describe("en", auto, rules, name) == ["Bob trailed 7♧ (auto)"]


def test_a_double_bundles_hand_offers_a_button_per_bundle():
    rules = Rules(double_bundles=True)
    game = new_game(rules, ("1", "2"), seed=1)  # its first player can capture
    table = Table(1, 10, 100, "1", game, version=0)
    hand = table.hand(table.turn)
    card = next(m for m in legal_moves(game) if m.action == "capture").card
    message = hand_ui.hand("en", hand, table, NAMES)
    labels_ = [b.label for b in buttons(message) if (b.label or "").startswith(label_of(card))]
    assert labels_ == ["10♤ → capture 10♢ → your bundle 1", "10♤ → capture 10♢ → your bundle 2",
                       "10♤ → trail"]  # fmt: skip


def test_hand_buttons_are_disabled_off_turn_and_say_whose_turn():
    game = new_game(PRESETS["standard"], ("1", "2"), seed=3)
    table = Table(1, 10, 100, "1", game, version=0)
    waiting = 1 - table.turn
    message = hand_ui.hand("en", table.hand(waiting), table, NAMES)
    assert buttons(message) and all(b.disabled for b in buttons(message))
    turn = NAMES[game.seats[table.turn]]
    assert f"It's {turn}'s turn." in words(message)
    assert "⏳" not in words(message)  # said once: whose turn it is
    me = hand_ui.hand("en", table.hand(table.turn), table, NAMES)
    assert not any(b.disabled for b in buttons(me))
    assert "**Your turn**" in words(me)
    moves = [b.label for b in buttons(me) if b.label != "Hint"]
    assert len(moves) == len(table.hand(table.turn).legal)
    assert {m.split(" → ")[0] for m in moves} == {label_of(c) for c in view(game, table.turn).hand}
    assert [b.label for b in buttons(me)][-1] == "Hint"  # on your turn, hints are on


def buttons(message) -> list[discord.ui.Button]:
    return [i for i in message.view.walk_children() if isinstance(i, discord.ui.Button)]


def words(message) -> str:
    return "\n".join(
        i.content for i in message.view.walk_children() if isinstance(i, discord.ui.TextDisplay)
    )


def label_of(card: str) -> str:
    return label("en", card, PRESETS["standard"])


def view_bundle(top, size):
    from bot.engine import BundleView

    return BundleView(top, size)
