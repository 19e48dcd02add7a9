"""The AI package is pure like the engine: no Discord, asyncio, storage or I/O; the arena CLI
is its one exception."""

from pathlib import Path

import bot.ai
from tests.support.purity import ALLOWED, imported_modules

AI = Path(bot.ai.__file__).parent
CLI = {"arena.py"}
EXTRA = {"policies.py": {"time"}, "rollout.py": {"time"}}  # the hard policy's time budget


def test_ai_modules_import_only_pure_modules():
    checked = 0
    for path in sorted(AI.glob("*.py")):
        if path.name in CLI:
            continue
        checked += 1
        extra = imported_modules(path) - ALLOWED - EXTRA.get(path.name, set())
        assert not extra, f"{path.name} imports {sorted(extra)}"
        assert "import bot" not in path.read_text()  # relative imports of the engine only
    assert checked >= 4


def test_no_ai_module_imports_the_arena_or_the_bot():
    for path in AI.glob("*.py"):
        text = path.read_text()
        if path.name not in CLI:
            assert "arena" not in text.replace("arena.py", "").replace("the arena", "")
        for forbidden in ("discord", "asyncio", "sqlite", "session", "storage"):
            assert f"import {forbidden}" not in text and f".{forbidden}" not in text
