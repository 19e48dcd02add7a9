"""What the purity tests of the engine and the AI share: the standard modules a pure package
may import, and the top-level modules a source file imports."""

from __future__ import annotations

import ast
from pathlib import Path

ALLOWED = {"__future__", "collections", "dataclasses", "functools", "random", "typing"}


def imported_modules(path: Path) -> set[str]:
    names = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names.add(node.module.split(".")[0])
    return names
