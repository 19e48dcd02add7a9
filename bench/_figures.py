"""What the picture and engine benches share: the sample games' rules (every deck family in
turn), a percentile, and printing a bench's figures."""

from __future__ import annotations

import json
from collections.abc import Mapping

from bot.engine import Rules, preset

PRESETS = ("standard", "casita", "rubamazzo", "casita")
DECKS = ("french52", "spanish40", "italian40", "spanish48")


def sample_rules(i: int) -> Rules:
    """The i-th sample game's rules: the four deck families in turn."""
    return preset(PRESETS[i % 4]).replace(deck=DECKS[i % 4])


def percentile(xs: list[float], q: float) -> float:
    """The nearest-rank percentile, `q` from 0 to 1."""
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))]


def show(figures: Mapping[str, object], as_json: bool, width: int) -> None:
    """One JSON object, or a line a figure with its name right-aligned to `width`."""
    if as_json:
        print(json.dumps(figures))
    else:
        for key, value in figures.items():
            print(f"{key:>{width}}: {value}")
