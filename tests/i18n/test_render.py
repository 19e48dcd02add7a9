"""Cards and rules summaries render in every language, from the catalogs, never as raw keys."""

from __future__ import annotations

import logging
from dataclasses import fields

import pytest

from bot.engine import DECKS, PRESETS, RANK, Rules
from bot.engine.rules import CHOICES
from bot.i18n import LANGUAGES, key_of, read_catalog
from bot.i18n.cards import deck_name, label, labels, rank_label, rank_name, suit_name
from bot.i18n.rules import (
    preset_blurb,
    preset_list,
    rules_footer,
    rules_lines,
    rules_summary,
    rules_title,
)

KEYS = {key_of(m) for m in read_catalog("en") if m.id}


def variants() -> list[Rules]:
    """Every preset, and every preset with each option set to each of its other values."""
    out = []
    for base in PRESETS.values():
        out.append(base)
        for f in fields(Rules):
            for value in CHOICES.get(f.name, (True, False)):
                if value != getattr(base, f.name):
                    out.append(base.replace(**{f.name: value}))
    return out


def rendered(lang: str) -> list[str]:
    texts = [preset_list(lang), *(preset_blurb(lang, name) for name in PRESETS)]
    for rules in variants():
        texts += [rules_title(lang, rules), rules_summary(lang, rules), rules_footer(lang, rules)]
        texts += rules_lines(lang, rules)
    for deck in DECKS.values():
        rules = Rules(deck=deck.name)
        texts += [deck_name(lang, deck.name), labels(lang, deck.cards, rules)]
        for card in deck.cards:
            texts += [label(lang, card, rules), suit_name(lang, card, rules)]
            texts += [rank_label(lang, RANK[card], rules)]
            texts += [rank_name(lang, RANK[card], rules, n) for n in (0, 1, 2)]
    return texts


@pytest.mark.parametrize("lang", LANGUAGES)
def test_everything_renders_from_the_catalog(lang, caplog):
    with caplog.at_level(logging.WARNING, logger="bot.i18n"):
        texts = rendered(lang)
    assert not caplog.records, [r.getMessage() for r in caplog.records]
    assert all(texts), "an empty text"
    raw = sorted({key for text in texts for key in KEYS if key in text})
    assert not raw, f"raw keys in {lang} output: {raw}"


@pytest.mark.parametrize("lang", [lang for lang in LANGUAGES if lang != "en"])
def test_rules_are_translated(lang):
    for rules in variants():
        ours, english = rules_lines(lang, rules), rules_lines("en", rules)
        assert len(ours) == len(english)
        same = [line for line, en in zip(ours, english, strict=True) if line == en]
        assert not same, f"{lang} still English: {same}"


def test_every_option_shows_in_the_summary():
    base = Rules()
    for rules in variants():
        for lang in LANGUAGES:
            changed = [
                f.name for f in fields(Rules) if getattr(rules, f.name) != getattr(base, f.name)
            ]
            if changed:
                assert rules_summary(lang, rules) != rules_summary(lang, base), (lang, changed)


SPANISH, ITALIAN, FRENCH = Rules(deck="spanish40"), Rules(deck="italian40"), Rules()


@pytest.mark.parametrize(
    ("lang", "rank", "rules", "one", "two"),
    [
        ("es", 12, SPANISH, "Rey", "Reyes"),
        ("es", 10, SPANISH, "Sota", "Sotas"),
        ("es", 11, FRENCH, "Jota", "Jotas"),
        ("fr", 13, FRENCH, "Roi", "Rois"),
        ("fr", 11, FRENCH, "Valet", "Valets"),
        ("it", 10, ITALIAN, "Re", "Re"),
        ("it", 8, ITALIAN, "Fante", "Fanti"),
        ("it", 12, FRENCH, "Donna", "Donne"),
        ("en", 9, ITALIAN, "Knight", "Knights"),
        ("en", 7, FRENCH, "7", "7s"),
        ("es", 7, FRENCH, "7", "7"),
    ],
)
def test_rank_names(lang, rank, rules, one, two):
    assert (rank_name(lang, rank, rules), rank_name(lang, rank, rules, 2)) == (one, two)


@pytest.mark.parametrize(
    ("lang", "rules", "card", "text", "suit"),
    [
        ("en", FRENCH, "13H", "K♡", "hearts"),
        ("fr", FRENCH, "12H", "D♡", "cœur"),
        ("fr", FRENCH, "1S", "A♤", "pique"),
        ("es", FRENCH, "11D", "J♢", "diamantes"),
        ("it", FRENCH, "13C", "K♧", "fiori"),
        ("en", SPANISH, "11C", "11🍷", "cups"),
        ("es", SPANISH, "10O", "S🪙", "oros"),
        ("es", SPANISH, "12B", "R🪵", "bastos"),
        ("it", ITALIAN, "8D", "F🪙", "denari"),
        ("it", ITALIAN, "9S", "C⚔️", "spade"),
        ("es", Rules(deck="spanish48"), "9E", "9⚔️", "espadas"),
    ],
)
def test_card_labels_and_suits(lang, rules, card, text, suit):
    assert (label(lang, card, rules), suit_name(lang, card, rules)) == (text, suit)


def test_deck_names_and_footer():
    assert deck_name("es", "spanish40") == "baraja española de 40 cartas"
    assert rules_footer("en", PRESETS["standard"]).endswith(" — `/steal rules`")
    assert rules_footer("es", PRESETS["casita"]).endswith(" — `/robar reglas`")
    assert labels("fr", [], FRENCH) == "—"


def test_commands_are_named_as_mentions_once_their_ids_are_known():
    """A mention is shown by each reader's Discord in their own language; until the ids are
    known, the name as the message's language types it."""
    from types import SimpleNamespace

    from bot.i18n.commands import named, remember_commands

    assert named("it", "steal rules") == "`/ruba regole`"
    remember_commands(
        [SimpleNamespace(name="steal", id=42), SimpleNamespace(name="steal-admin", id=7)]
    )  # type: ignore[list-item]
    assert named("it", "steal rules") == "</steal rules:42>"
    assert named("fr", "steal-admin settings") == "</steal-admin settings:7>"
    assert rules_footer("it", PRESETS["standard"]).endswith(" — </steal rules:42>")


def test_a_game_s_cards_and_bots_read_in_the_game_s_language():
    """A reader's words in their language, the game's cards and AI seats in the game's: one
    label for a card, one name for a bot, on the table and in every hand."""
    from bot.i18n import GameLang, t
    from bot.ui.text import ai_label

    rules = PRESETS["rubamazzo"]
    reader = GameLang("en", "it")
    assert label(reader, "10D", rules) == label("it", "10D", rules) == "R🪙"
    assert label("en", "10D", rules) == "10🪙"
    assert labels(reader, ["8S", "9C"], rules) == "F⚔️ C🍷"
    assert ai_label(reader, "ai:hard:2") == "🤖 Bot difficile 2"
    assert t(reader, "name.player", number=1) == t("en", "name.player", number=1)


@pytest.mark.parametrize(
    ("lang", "word"),
    [("en", "biggest"), ("es", "más grande"), ("fr", "plus gros"), ("it", "più grande")],
)
def test_one_word_for_the_winning_bundle(lang, word):
    """How to play's goal and every tiebreak rule name the winning bundle alike."""
    from bot.i18n import t

    said = [t(lang, "rules_pages.goal")] + [
        t(lang, f"rules.tiebreak.{rule}") for rule in ("last_capturer", "playoff", "shared")
    ]
    assert all(word in line for line in said), said
