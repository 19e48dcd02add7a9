"""Decks and card codes.

A card is its short code, ``<rank><suit letter>`` (``13H``, ``1O``). Suits never matter to the
rules, only ranks do, so the engine works on codes and looks ranks up in one table.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property


@dataclass(frozen=True)
class Deck:
    name: str
    ranks: tuple[int, ...]
    suits: tuple[str, ...]  # suit letters, in the deck's usual order
    jack: int  # the rank that wild jacks apply to (J, sota, fante)

    # Cached: every deal reads it (to shuffle and to check the deck), and building 40-52
    # strings each time was a measurable part of a random game.
    @cached_property
    def cards(self) -> tuple[str, ...]:
        """Every card of the deck, in a fixed order (suit by suit)."""
        return tuple(f"{rank}{suit}" for suit in self.suits for rank in self.ranks)


DECKS: dict[str, Deck] = {
    "french52": Deck("french52", tuple(range(1, 14)), ("S", "H", "D", "C"), jack=11),
    "spanish40": Deck("spanish40", (*range(1, 8), 10, 11, 12), ("O", "C", "E", "B"), jack=10),
    "spanish48": Deck("spanish48", tuple(range(1, 13)), ("O", "C", "E", "B"), jack=10),
    "italian40": Deck("italian40", tuple(range(1, 11)), ("D", "C", "S", "B"), jack=8),
}

# Every code of every deck -> its rank. Codes are shared between decks where they mean the
# same rank (``1C`` is the ace of clubs or the one of copas), so one table serves all.
RANK: dict[str, int] = {code: int(code[:-1]) for deck in DECKS.values() for code in deck.cards}

# Every code -> the codes of its rank, itself included: "can this card capture from the pool"
# is then one set test per pool card, with no rank lookups (the engine's hottest question).
SAME_RANK: dict[str, frozenset[str]] = {
    code: frozenset(c for c in RANK if RANK[c] == rank) for code, rank in RANK.items()
}


def rank(card: str) -> int:
    return RANK[card]


def suit(card: str) -> str:
    return card[-1]
