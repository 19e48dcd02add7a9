"""How cards read on screen: short labels for buttons, longer names for sentences."""

from __future__ import annotations

from bot.engine import RANK, Rules

# Suit letter -> symbol, per deck family. French suits have their own symbols; Spanish and
# Italian suits (coins, cups, swords, clubs) share emoji.
_SUITS = {
    "french52": {"S": "♠", "H": "♥", "D": "♦", "C": "♣"},
    "spanish": {"O": "🪙", "C": "🏆", "E": "⚔️", "B": "🪵"},
    "italian40": {"D": "🪙", "C": "🏆", "S": "⚔️", "B": "🪵"},
}
_FACES = {
    "french52": {1: ("A", "Ace"), 11: ("J", "Jack"), 12: ("Q", "Queen"), 13: ("K", "King")},
    # Spanish 10-12 and Italian 8-10 are the jack (sota / fante), knight and king.
    "spanish": {1: ("1", "Ace"), 10: ("J", "Jack"), 11: ("N", "Knight"), 12: ("K", "King")},
    "italian40": {1: ("1", "Ace"), 8: ("J", "Jack"), 9: ("N", "Knight"), 10: ("K", "King")},
}


def _family(rules: Rules) -> str:
    return "spanish" if rules.deck.startswith("spanish") else rules.deck


def rank_label(rank: int, rules: Rules) -> str:
    face = _FACES[_family(rules)].get(rank)
    return face[0] if face else str(rank)


def rank_name(rank: int, rules: Rules, plural: bool = False) -> str:
    face = _FACES[_family(rules)].get(rank)
    name = face[1] if face else str(rank)
    return name + ("s" if plural else "")


def label(card: str, rules: Rules) -> str:
    """A short label such as K♥ or 7🪙."""
    return rank_label(RANK[card], rules) + _SUITS[_family(rules)][card[-1]]


def labels(cards, rules: Rules) -> str:
    return " ".join(label(c, rules) for c in cards) or "—"
