"""The engine stays pure: no Discord, asyncio, storage or I/O in the rules."""

from pathlib import Path

import bot.engine
from tests.support.purity import ALLOWED, imported_modules

ENGINE = Path(bot.engine.__file__).parent
# The command-line simulator is the one module allowed to print and write files.
CLI = {"simulate.py"}


def test_engine_modules_import_only_pure_modules():
    checked = 0
    for path in sorted(ENGINE.glob("*.py")):
        if path.name in CLI:
            continue
        checked += 1
        extra = imported_modules(path) - ALLOWED
        assert not extra, f"{path.name} imports {sorted(extra)}"
    assert checked >= 8


def test_no_engine_module_imports_the_simulator():
    for path in ENGINE.glob("*.py"):
        assert "simulate" not in path.read_text().replace("simulate.py", "") or path.name in CLI
