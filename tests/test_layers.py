"""What the import contracts cannot see: an attribute path to storage (the cogs reach the
database only through the session layer), an import cycle between any two modules (type-only
imports counted), a run-time look-up of the app, the shape of the feature packages, the
architecture document drawing all of it, and the size of every module."""

from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import grimp

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
        path.relative_to(COGS).as_posix(): lines
        for path in sorted(COGS.rglob("*.py"))
        if (lines := storage_attributes(path.read_text(encoding="utf-8")))
    }
    assert found == {}


def test_nothing_looks_the_app_up_at_run_time():
    """The features are handed their parts when they are made (bot/adapter/services.py):
    no `app_of(interaction)` or `services_of(client)` remains, nor a client's `.app` read
    outside the client, the launchers and the health server."""
    root = COGS.parent
    sources = sorted([*COGS.rglob("*.py"), *(root / "bot").rglob("*.py")])
    found = [
        path.relative_to(root).as_posix()
        for path in sources
        if re.search(r"\b(app_of|services_of)\(", path.read_text(encoding="utf-8"))
    ]
    assert found == []


def features() -> list[str]:
    return sorted(p.name for p in COGS.iterdir() if (p / "__init__.py").is_file())


def test_cogs_are_feature_packages_whose_helpers_are_private():
    """cogs/ holds packages only; inside one, every module but `__init__` is a private `_`
    module (python-discord's layout: never loaded as an extension on its own)."""
    assert [p.name for p in COGS.glob("*.py") if p.name != "__init__.py"] == []
    assert {"play", "boards", "tournament", "admin", "privacy"} <= set(features())
    public = [
        path.relative_to(COGS).as_posix()
        for path in sorted(COGS.rglob("*.py"))
        if path.parent != COGS and path.name != "__init__.py" and not path.name.startswith("_")
    ]
    assert public == []


def imported(graph, module: str):
    return iter(sorted(graph.find_modules_directly_imported_by(module)))


def cycles(graph) -> list[list[str]]:
    """The import cycles among a grimp graph's modules: its strongly connected components of
    more than one module (Tarjan's algorithm, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []
    for root in sorted(graph.modules):
        if root in index:
            continue
        work = [(root, imported(graph, root))]
        index[root] = low[root] = len(index)
        stack.append(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    work.append(
                        (child, iter(sorted(graph.find_modules_directly_imported_by(child))))
                    )
                elif child in stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                component = []
                while True:
                    member = stack.pop()
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def test_the_cycle_check_finds_a_cycle():
    graph = grimp.ImportGraph()
    for a, b in (("p.a", "p.b"), ("p.b", "p.c"), ("p.c", "p.a"), ("p.c", "p.d")):
        graph.add_import(importer=a, imported=b)
    assert cycles(graph) == [["p.a", "p.b", "p.c"]]


def test_no_module_of_the_project_is_in_an_import_cycle():
    """Every module, not only the packages import-linter's acyclic contract compares, and
    imports made for type checking alone counted too: a type-only import that closes a loop
    is a loop between the objects (one finding the other again at run time)."""
    graph = grimp.build_graph("bot", "cogs", exclude_type_checking_imports=False)
    assert cycles(graph) == []


MOST_LINES = 400  # a module with one job fits in this (tests included)


def test_every_module_is_at_most_400_lines():
    root = COGS.parent
    long = {
        str(path.relative_to(root)): lines
        for folder in ("bot", "cogs", "tests", "bench", "scripts")
        for path in sorted((root / folder).rglob("*.py"))
        if (lines := len(path.read_text(encoding="utf-8").splitlines())) > MOST_LINES
    }
    assert long == {}


def diagram_rows(markdown: str) -> list[str]:
    """The layers as docs/architecture.md draws them: the first text block after "## The
    layers", one row a line, names before the description."""
    block = markdown.split("## The layers", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    # Each row: the modules, `|` between siblings, then two spaces or more and what they are.
    rows = [re.split(r"(?<![|\s])\s{2,}(?![|\s])", line.strip())[0] for line in block.splitlines()]
    return [" | ".join(n.strip() for n in row.split("|")) for row in rows if row]


def test_the_architecture_diagram_draws_the_layers_contract():
    root = COGS.parent
    contracts = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = [c["layers"] for c in contracts["contracts"] if c["type"] == "layers"]
    drawn = diagram_rows((root / "docs" / "architecture.md").read_text(encoding="utf-8"))
    assert drawn == [" | ".join(n.strip() for n in layer.split("|")) for layer in layers]


def test_the_architecture_document_names_each_feature_package():
    """docs/architecture.md's table of the features lists every package of cogs/, and no
    other."""
    text = (COGS.parent / "docs" / "architecture.md").read_text(encoding="utf-8")
    table = text.split("## The features", 1)[1].split("\n## ", 1)[0]
    named = sorted(set(re.findall(r"^\| `cogs/(\w+)/`", table, re.M)))
    assert named == features()
