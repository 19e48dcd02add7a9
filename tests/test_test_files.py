"""Where tests live, and how they share helpers.

The tests mirror the source path by path (as python-discord/bot's do): a test of
`bot/<layer>/...` is in `tests/<layer>/...`, of `cogs/<feature>/` in `tests/cogs/<feature>/`,
of `bench/` and `scripts/` in `tests/bench/` and `tests/scripts/`, and of a top-level module
`bot/<name>.py` in `tests/test_<name>.py`. The end-to-end tests, the real bot on SimCord, are
in `tests/e2e/<feature>/`, one folder per feature package of `cogs/` plus `app` (the bot as a
whole: start-up, processes, restarts, faults, Discord's limits); their helpers are in
`tests/e2e/support/`, the suite's other shared helpers in `tests/support/`.

Test files share helpers through helper modules, never by importing another test file (a
test module imported elsewhere runs its tests' set-up twice and ties unrelated files)."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent

# tests/e2e/<feature>/: the feature packages of cogs/, and the bot as a whole.
E2E_FEATURES = {"play", "boards", "tournament", "admin", "privacy", "app"}
# Packages of cogs/ that only wire commands to the features (the /steal group): their
# commands are tested under each feature.
WIRING = {"steal"}
# Test files at the top that check the whole project rather than one module.
PROJECT_CHECKS = {"test_layers.py", "test_test_files.py"}
# Folders of helpers (and of the helpers' own tests), mirroring nothing.
SUPPORT = {Path("support"), Path("e2e/support")}


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


def mirrored(folder: Path, root: Path = ROOT) -> str | None:
    """The source folder a folder of tests (relative to tests/) mirrors, or None."""
    parts = folder.parts
    if folder in SUPPORT:
        return "support"
    if parts[0] == "e2e":
        return f"e2e feature {parts[1]}" if len(parts) == 2 and parts[1] in E2E_FEATURES else None
    source = root / folder if parts[0] in {"cogs", "bench", "scripts"} else root / "bot" / folder
    return str(source.relative_to(root)) if source.is_dir() else None


def misplaced(files: list[Path], root: Path = ROOT) -> list[str]:
    """The test files (relative to tests/) that mirror no source."""
    wrong = []
    for path in files:
        if path.parent == Path("."):
            module = path.name.removeprefix("test_")
            if path.name not in PROJECT_CHECKS and not (
                (root / "bot" / module).is_file() or module == "main.py"
            ):
                wrong.append(str(path))
        elif mirrored(path.parent, root) is None:
            wrong.append(str(path))
    return wrong


def test_the_check_finds_a_test_file_that_mirrors_nothing():
    files = [
        Path("test_layers.py"),
        Path("test_metrics.py"),
        Path("test_main.py"),
        Path("test_nothing.py"),
        Path("session/test_lobby.py"),
        Path("sessions/test_lobby.py"),
        Path("e2e/play/test_hand.py"),
        Path("e2e/test_hand.py"),
        Path("e2e/hands/test_hand.py"),
        Path("e2e/support/test_helpers.py"),
        Path("bench/test_bench.py"),
        Path("discord/test_smoke.py"),
    ]
    assert misplaced(files) == [
        "test_nothing.py",
        "sessions/test_lobby.py",
        "e2e/test_hand.py",
        "e2e/hands/test_hand.py",
        "discord/test_smoke.py",
    ]


def test_every_test_file_mirrors_the_source():
    files = sorted(p.relative_to(TESTS) for p in TESTS.rglob("test_*.py"))
    assert len(files) > 100
    assert misplaced(files) == []


def test_end_to_end_folders_hold_tests_only():
    """Helpers of the end-to-end tests are in tests/e2e/support/, not beside the tests."""
    helpers = [
        str(p.relative_to(TESTS))
        for feature in E2E_FEATURES
        for p in (TESTS / "e2e" / feature).glob("*.py")
        if not p.name.startswith("test_") and p.name != "__init__.py"
    ]
    assert helpers == []


def test_every_feature_package_has_its_end_to_end_folder():
    packages = {p.parent.name for p in (ROOT / "cogs").glob("*/__init__.py")}
    assert packages - WIRING <= E2E_FEATURES
    assert all((TESTS / "e2e" / feature).is_dir() for feature in E2E_FEATURES)
