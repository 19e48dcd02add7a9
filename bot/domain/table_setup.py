"""A game's setup: what it keeps, from its lobby's opening, of the server's settings (so a change
of settings never alters a game under way), its language, and, for a tournament's table, the
tournament's part. Pure.

Stored as a JSON object in the games row's `options` column (the form the bot always wrote):
only the keys given, in the order of the fields below. A field left None was not given, and
its reader takes the default it names (the bot's, or the one in the comment): old rows and
tests hold any subset of keys. The turn timer alone has a None of its own (no timer), so it
says "not given" with UNSET.
"""

from __future__ import annotations

import enum
from collections.abc import Mapping
from dataclasses import dataclass, fields
from typing import Any


class Unset(enum.Enum):
    UNSET = "unset"


UNSET = Unset.UNSET


@dataclass(frozen=True)
class TableSetup:
    turn_seconds: float | Unset | None = UNSET  # None: no turn timer; UNSET: the bot's
    pings: bool | None = None  # ping the player to act (default on)
    ai_allowed: bool | None = None  # AI seats may be added to the lobby (default yes)
    ai_counts: bool | None = None  # games with AI count for the board (default no)
    hints: str | None = None  # on, off or casual (default on)
    hint_counts: bool | None = None  # a game with a hint taken counts (default yes)
    lang: str | None = None  # its public messages' language (default: the bot's)
    lang_fixed: bool | None = None  # its private messages are in it too (default no)
    lobby_seconds: float | None = None  # how long its lobby waited to start (default: the bot's)
    counted: bool | None = None  # a tournament's table: the tournament counts (default yes)
    tournament: int | None = None  # a tournament's table: the tournament's id
    tournament_round: int | None = None
    tournament_table: int | None = None

    def turn_seconds_or(self, default: float | None) -> float | None:
        """The turn timer, or `default` (the bot-wide one) when the game was given none."""
        return default if isinstance(self.turn_seconds, Unset) else self.turn_seconds

    def to_dict(self) -> dict[str, Any]:
        given = {f.name: getattr(self, f.name) for f in fields(self)}
        return {k: v for k, v in given.items() if v is not (UNSET if k == "turn_seconds" else None)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> TableSetup:
        """A stored setup; keys it does not know (none were ever written) are left out."""
        known = {f.name for f in fields(cls)}
        return cls(**{k: v for k, v in data.items() if k in known})


NONE_GIVEN = TableSetup()  # a game given no setup: every reader takes its default
