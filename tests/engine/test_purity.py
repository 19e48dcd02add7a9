"""The engine stays pure: no Discord, asyncio, storage or I/O in the rules."""

import ast
from pathlib import Path

import bot.engine

ENGINE = Path(bot.engine.__file__).parent
# The command-line simulator is the one module allowed to print and write files.
CLI = {"simulate.py"}
ALLOWED = {"__future__", "collections", "dataclasses", "functools", "random", "typing"}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0:
            names.add(node.module.split(".")[0])
    return names


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
