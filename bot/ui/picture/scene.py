"""What the table picture shows: the plain, immutable values read from the live table
(``Scene.of``), and the move just played (``LastMove.of``). Take them on the event loop: the
table changes there."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from bot.engine import CAPTURE, STEAL, TRAIL, BundleView, Event, Rules, view
from bot.i18n import t
from bot.session.models import Table

from ..text import names_of
from .fonts import drawable


@dataclass(frozen=True)
class LastMove:
    """The move just played, to mark on the picture: which seat played which card, what it did
    (capture, steal or trail), whose bundle it stole and how many cards it took."""

    seat: int
    card: str
    action: str  # CAPTURE, STEAL or TRAIL
    target_seat: int | None = None  # the victim of a steal
    n: int = 0  # cards taken: captured from the pool, or the stolen bundle's size
    own_bundle: int | None = None  # with double bundles: which of the player's bundles
    target_bundle: int | None = None  # with double bundles: which of the victim's
    sweep: bool = False  # the capture earned the sweep bonus

    @classmethod
    def of(cls, events: Sequence[Event]) -> LastMove | None:
        """The move in a move's events (the engine's ``apply``), or None if there is none."""
        for e in events:
            if e["type"] == "captured":
                return cls(e["seat"], e["card"], CAPTURE, None, e["n"], e.get("own_bundle"),
                           sweep=e.get("sweep_bonus") is not None)  # fmt: skip
            if e["type"] == "stole":
                return cls(e["seat"], e["card"], STEAL, e["from_seat"], e["n"],
                           e.get("own_bundle"), e.get("from_bundle"))  # fmt: skip
            if e["type"] == "trailed":
                return cls(e["seat"], e["card"], TRAIL)
        return None


@dataclass(frozen=True)
class Scene:
    """Everything the picture shows, as immutable values (taken from a Table by ``of``)."""

    game_id: int
    version: int
    lang: str
    rules: Rules
    names: tuple[str, ...]  # per seat, as drawn
    turn: int | None
    players: tuple[int, ...]  # seats in play (the tied ones during a playoff)
    pool: tuple[str, ...]
    bundles: tuple[tuple[BundleView, ...], ...]
    hand_sizes: tuple[int, ...]
    stock_size: int
    away: frozenset[int] = frozenset()
    forfeited: frozenset[int] = frozenset()
    last: LastMove | None = None
    four_colour: bool = False

    @classmethod
    def of(
        cls,
        table: Table,
        names: Mapping[str, str],
        lang: str,
        *,
        last: LastMove | None = None,
        four_colour: bool = False,
    ) -> Scene:
        game = table.game
        v = view(game, 0)  # only its public parts are read
        name = names_of(lang, game.seats, names)
        drawn = []
        for seat in range(len(game.seats)):
            text = drawable(name(seat))
            drawn.append(text or drawable(t(lang, "name.player", number=seat + 1)))
        return cls(
            game_id=table.game_id,
            version=table.version,
            lang=lang,
            rules=game.rules,
            names=tuple(drawn),
            turn=None if game.over else v.turn,
            players=v.players,
            pool=v.pool,
            bundles=v.bundles,
            hand_sizes=v.hand_sizes,
            stock_size=v.stock_size,
            away=frozenset(table.away),
            forfeited=frozenset(table.forfeited),
            last=last,
            four_colour=four_colour,
        )

    @property
    def key(self) -> tuple[Any, ...]:
        """What tells two pictures apart: the game and its version, the language and the
        options, and what may change between moves (names, away and forfeited seats)."""
        return (self.game_id, self.version, self.lang, self.four_colour, self.last,
                self.names, self.away, self.forfeited)  # fmt: skip
