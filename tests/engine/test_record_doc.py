"""docs/record-format.md names every field a real record has."""

from pathlib import Path

from bot.engine import Rules, record
from bot.engine.playout import random_game

DOC = Path(__file__).parents[2] / "docs" / "record-format.md"


def keys(value) -> set[str]:
    if isinstance(value, dict):
        return set(value) | {k for v in value.values() for k in keys(v)}
    if isinstance(value, list):
        return {k for v in value for k in keys(v)}
    return set()


def test_every_record_field_is_documented():
    rules = Rules(tiebreak="playoff", double_bundles=True)
    # Find a game that needed a playoff, so playoff fields are in the record too.
    game = next(g for g in (random_game(rules, 2, seed) for seed in range(2000)) if g.playoffs)
    text = DOC.read_text()
    missing = sorted(k for k in keys(record(game)) if f"`{k}`" not in text)
    assert not missing, f"undocumented record fields: {missing}"
