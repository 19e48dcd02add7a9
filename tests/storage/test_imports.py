"""bot.storage's modules import one another as a tree, never in a circle: the connection and
the shared SQL below the repositories, the repositories below db.py, which nothing imports
back. TYPE_CHECKING imports count (grimp sees them)."""

import grimp


def storage_imports() -> dict[str, set[str]]:
    graph = grimp.build_graph("bot")
    modules = {m for m in graph.modules if m.startswith("bot.storage.")}
    return {m: graph.find_modules_directly_imported_by(m) & modules for m in modules}


def cycle(imports: dict[str, set[str]]) -> list[str] | None:
    """One circle of imports, or None."""
    done: set[str] = set()
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        if module in path:
            return [*path[path.index(module) :], module]
        if module in done:
            return None
        path.append(module)
        for imported in sorted(imports[module]):
            if found := visit(imported):
                return found
        path.pop()
        done.add(module)
        return None

    for module in sorted(imports):
        if found := visit(module):
            return found
    return None


def test_storage_modules_import_no_circle():
    assert cycle(storage_imports()) is None


def test_no_repository_imports_the_storage_or_another_repository():
    imports = storage_imports()
    names = ("live", "move_saves", "finishing", "history", "leaderboard", "outbox", "settings")
    repositories = {f"bot.storage.{name}" for name in names}
    for module in repositories:
        assert "bot.storage.db" not in imports[module], module
        assert not imports[module] & repositories, (module, imports[module] & repositories)


def test_the_check_finds_a_circle():
    assert cycle({"a": {"b"}, "b": {"c"}, "c": {"a"}}) == ["a", "b", "c", "a"]
    assert cycle({"a": {"b"}, "b": set()}) is None
