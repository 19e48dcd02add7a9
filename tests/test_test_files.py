"""Test files share helpers through helper modules, never by importing another test file (a
test module imported elsewhere runs its tests' set-up twice and ties unrelated files)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def modules_imported(source: str) -> list[str]:
    """The test modules (test_*) a source file imports, relatively or by its full name."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.module:
            if node.module.split(".")[-1].startswith("test_"):
                found.append(node.module)
        elif isinstance(node, ast.Import):
            found += [a.name for a in node.names if a.name.split(".")[-1].startswith("test_")]
    return found


def test_the_check_finds_an_import_of_a_test_file():
    assert modules_imported("from .test_admin import make_admin\nimport tests.test_main\n") == [
        "test_admin",
        "tests.test_main",
    ]


def test_no_test_file_imports_another():
    found = {
        str(path.relative_to(TESTS)): names
        for path in sorted(TESTS.rglob("*.py"))
        if (names := modules_imported(path.read_text(encoding="utf-8")))
    }
    assert found == {}
