"""Writes the golden images (tests/ui/golden) or sample tables to look at.

python -m bot.ui.picture --golden tests/ui/golden
python -m bot.ui.picture --samples DIR
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from pathlib import Path

from bot.engine import DECKS, preset

from .draw import render
from .samples import GOLDEN, SAMPLE_NAMES, golden_scene, sample
from .scene import Scene


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(
        prog="python -m bot.ui.picture",
        description=__doc__,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--golden", metavar="DIR", help="write the golden images to DIR")
    parser.add_argument("--samples", metavar="DIR", help="write sample tables to DIR")
    args = parser.parse_args(argv)
    if args.golden:
        out = Path(args.golden)
        out.mkdir(parents=True, exist_ok=True)
        for deck, rules, players, lang, seed, moves in GOLDEN:
            png = render(golden_scene(deck, rules, players, lang, seed, moves))
            (out / f"{deck}.png").write_bytes(png)
            print(out / f"{deck}.png", len(png), "bytes")
    if args.samples:
        out = Path(args.samples)
        out.mkdir(parents=True, exist_ok=True)
        for deck in DECKS:
            base = {"french52": "standard", "italian40": "rubamazzo"}.get(deck, "casita")
            deck_rules = preset(base).replace(deck=deck)
            for players in (2, 3, 4):
                for lang in ("en", "es", "fr", "it"):
                    table, last = sample(
                        deck_rules, players, players * 11 + len(lang), 10 + players
                    )
                    for four in (False, True) if deck == "french52" else (False,):
                        scene = Scene.of(table, SAMPLE_NAMES, lang, last=last, four_colour=four)
                        png = render(scene)
                        name = f"{deck}-{players}p-{lang}{'-4c' if four else ''}.png"
                        (out / name).write_bytes(png)
        print("samples in", out)


if __name__ == "__main__":
    main()
