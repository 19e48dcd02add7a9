"""How cards read in each language: short labels for buttons, names for sentences."""

from __future__ import annotations

from collections.abc import Iterable
from functools import cache

from bot.engine import RANK, Rules

from . import game_of, t, tn

# Suit letter -> symbol, per deck family. Symbols are the same in every language.
# The French suits are the outlined ♤ ♡ ♢ ♧, which are not emoji: Discord draws them as text,
# in the text's own colour, so they read on dark and light themes and on every button colour
# (the emoji ♠ ♣ are near-black: invisible on the dark theme, "J" on a grey button). Shape tells
# the suits apart; the pictures show their colours. Cups are a goblet, not the winner's 🏆.
SUITS = {
    "french52": {"S": "♤", "H": "♡", "D": "♢", "C": "♧"},
    "spanish": {"O": "🪙", "C": "🍷", "E": "⚔️", "B": "🪵"},
    "italian40": {"D": "🪙", "C": "🍷", "S": "⚔️", "B": "🪵"},
}
# Ranks with a name of their own (ace and figures); the others read as numbers.
FACES = {
    "french52": (1, 11, 12, 13),
    "spanish": (1, 10, 11, 12),
    "italian40": (1, 8, 9, 10),
}


def family(deck: str) -> str:
    """The catalog's deck family: both Spanish decks share their card names."""
    return "spanish" if deck.startswith("spanish") else deck


def rank_label(lang: str, rank: int, rules: Rules) -> str:
    """A rank's short label, as the game's language writes it (game_of): one face per card."""
    return _rank_label(game_of(lang), rank, family(rules.deck))


@cache  # a hand, the table and every move button label the same few ranks again and again
def _rank_label(lang: str, rank: int, fam: str) -> str:
    return t(lang, f"rank.{fam}.{rank}.label") if rank in FACES[fam] else str(rank)


def rank_name(lang: str, rank: int, rules: Rules, n: int = 1) -> str:
    """The rank's name, singular or (n != 1) plural: "Rey" / "Reyes"."""
    fam = family(rules.deck)
    if rank in FACES[fam]:
        return tn(lang, f"rank.{fam}.{rank}", n)
    return tn(lang, "rank.number", n, rank=rank)


def suit_name(lang: str, card: str, rules: Rules) -> str:
    return t(lang, f"suit.{family(rules.deck)}.{card[-1]}")


def label(lang: str, card: str, rules: Rules) -> str:
    """A short label such as R♥ or 7🪙, in the game's language (game_of): the same on the
    table and in every hand of a game, whatever each reader's language."""
    fam = family(rules.deck)
    return _rank_label(game_of(lang), RANK[card], fam) + SUITS[fam][card[-1]]


def labels(lang: str, cards: Iterable[str], rules: Rules) -> str:
    return " ".join(label(lang, c, rules) for c in cards) or "—"


def deck_name(lang: str, deck: str) -> str:
    """The deck's full name, as used inside a sentence: "baraja española de 40 cartas"."""
    return t(lang, f"deck.{deck}")
