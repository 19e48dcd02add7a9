"""Sample tables: the golden images (tests/ui/golden), the encoder's palette, the benchmark
(bench/render.py) and a look at the picture (``python -m bot.ui.picture --samples DIR``)."""

from __future__ import annotations

import random

from bot.engine import Rules, apply, legal_moves, new_game, preset
from bot.session.models import Table

from .scene import LastMove, Scene

SAMPLE_SEATS = ("111", "222", "ai:medium:1", "444")
SAMPLE_NAMES = {"111": "Ann", "222": "Bartholomew the Magnificent", "444": "Zoë 🌵"}
# A golden image per deck: (deck, preset, players, language, seed, moves played).
GOLDEN = (
    ("french52", "standard", 4, "en", 7, 14),
    ("spanish40", "casita", 3, "es", 3, 9),
    ("spanish48", "casita", 2, "es", 5, 11),
    ("italian40", "rubamazzo", 4, "it", 2, 13),
)


def sample(
    rules: Rules | str, players: int, seed: int, moves: int
) -> tuple[Table, LastMove | None]:
    """A table `moves` random legal moves into a game dealt from `seed`, and its last move."""
    rules = preset(rules) if isinstance(rules, str) else rules
    game = new_game(rules, SAMPLE_SEATS[:players], seed=seed)
    rng = random.Random(seed)
    last = None
    for _ in range(moves):
        if game.over:
            break
        game, events = apply(game, rng.choice(legal_moves(game)))
        last = LastMove.of(events)
    return Table(1, 10, 100, SAMPLE_SEATS[0], game, version=moves), last


def golden_scene(deck: str, rules: str, players: int, lang: str, seed: int, moves: int) -> Scene:
    """The scene of a golden image (one of GOLDEN)."""
    table, last = sample(preset(rules).replace(deck=deck), players, seed, moves)
    return Scene.of(table, SAMPLE_NAMES, lang, last=last)
