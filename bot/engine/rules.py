"""The immutable `Rules` value and its named presets."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from functools import cached_property
from typing import Any

from .cards import DECKS, Deck
from .errors import RulesError

# Allowed values of every option that is not a plain on/off switch.
CHOICES: dict[str, tuple[str, ...]] = {
    "deck": tuple(DECKS),
    "direction": ("clockwise", "counterclockwise"),
    "play": ("free", "forced"),
    "leftovers": ("last_capturer", "nobody"),
    "tiebreak": ("last_capturer", "playoff", "shared"),
    "short_deal": ("fours", "one_at_a_time"),
}

# What an option missing from stored rules (a record or a saved game from before the option
# existed) was played with. It is not always today's default for new games.
BEFORE_OPTION: dict[str, Any] = {"short_deal": "fours"}


@dataclass(frozen=True)
class Rules:
    """Every option of a game. The defaults are the "standard" ruleset (rules text 000)."""

    deck: str = "french52"
    direction: str = "clockwise"
    play: str = "free"
    stealing: bool = True
    refill_pool: bool = True
    short_deal: str = "fours"  # how a stock too short for 4 cards each is dealt
    leftovers: str = "last_capturer"
    tiebreak: str = "last_capturer"
    wild_jacks: bool = False
    sweep_bonus: bool = False
    double_bundles: bool = False

    def __post_init__(self) -> None:
        for f in fields(self):
            value = getattr(self, f.name)
            allowed = CHOICES.get(f.name)
            if allowed is None:
                if not isinstance(value, bool):
                    raise RulesError(f"{f.name} must be true or false, not {value!r}")
            elif value not in allowed:
                raise RulesError(f"{f.name} must be one of {', '.join(allowed)}; got {value!r}")

    # Cached because the engine's inner loop reads them on every move.
    @cached_property
    def card_deck(self) -> Deck:
        return DECKS[self.deck]

    @cached_property
    def jack(self) -> int:
        return DECKS[self.deck].jack

    @cached_property
    def step(self) -> int:
        """+1 or -1: how a seat index moves to the next player."""
        return 1 if self.direction == "clockwise" else -1

    @cached_property
    def bundles_per_seat(self) -> int:
        return 2 if self.double_bundles else 1

    def replace(self, **changes: Any) -> Rules:
        return replace(self, **changes)

    @cached_property
    def _as_dict(self) -> dict[str, Any]:
        return asdict(self)

    def to_dict(self) -> dict[str, Any]:
        # A copy of one built once (every field is a str or a bool): a game's state is saved
        # on every move, and asdict walks the fields each time.
        return dict(self._as_dict)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Rules:
        known = {f.name for f in fields(cls)}
        unknown = set(data) - known
        if unknown:
            raise RulesError(f"unknown rule option(s): {', '.join(sorted(unknown))}")
        return cls(**{**BEFORE_OPTION, **data})


_CLASSIC = Rules(
    play="forced",
    refill_pool=False,
    short_deal="one_at_a_time",
    leftovers="nobody",
    tiebreak="playoff",
)

PRESETS: dict[str, Rules] = {
    "standard": Rules(),
    "classic": _CLASSIC,
    "casita": _CLASSIC.replace(deck="spanish40", direction="counterclockwise"),
    "rubamazzo": _CLASSIC.replace(deck="italian40", direction="counterclockwise"),
    "friendly": Rules(stealing=False),
    # The traditional description as written: compulsory play, no refill, leftovers and ties to
    # the last capturer, a short deal one card at a time.
    "traditional": _CLASSIC.replace(leftovers="last_capturer", tiebreak="last_capturer"),
}


def preset(name: str) -> Rules:
    try:
        return PRESETS[name]
    except KeyError:
        raise RulesError(f"unknown preset {name!r}; choose one of {', '.join(PRESETS)}") from None


def preset_name(rules: Rules) -> str | None:
    """The preset these rules are exactly, or None for a custom mix."""
    return next((name for name, value in PRESETS.items() if value == rules), None)
