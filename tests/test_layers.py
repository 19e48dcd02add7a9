"""What the import contracts cannot see: an attribute path to storage. The cogs reach the
database only through the session layer (app.sessions), never through `bot.storage`."""

from __future__ import annotations

import ast
from pathlib import Path

COGS = Path(__file__).resolve().parent.parent / "cogs"


def storage_attributes(source: str) -> list[int]:
    return [
        node.lineno
        for node in ast.walk(ast.parse(source))
        if isinstance(node, ast.Attribute) and node.attr == "storage"
    ]


def test_the_check_finds_an_attribute_path_to_storage():
    assert storage_attributes("async def f(bot):\n    await bot.storage.games.get(1)\n") == [2]


def test_cogs_never_reach_storage_through_an_attribute():
    found = {
        path.name: lines
        for path in sorted(COGS.glob("*.py"))
        if (lines := storage_attributes(path.read_text(encoding="utf-8")))
    }
    assert found == {}
