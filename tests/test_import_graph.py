"""No import circle in tables/, accounts/ or rules/, and tables/ does not reach into config/.

Every import counts, at the top of a module or inside a function (an import put off until a call is still
a dependency: it only hides the circle from Python). Only imports under ``if TYPE_CHECKING:`` are left
out: they are never run.
"""

from __future__ import annotations

import ast
import pathlib

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACKAGES = ("tables", "accounts")


def module_name(path: pathlib.Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def all_modules() -> dict[str, pathlib.Path]:
    found = {}
    for package in (*PACKAGES, "config", "rules"):
        for path in (ROOT / package).rglob("*.py"):
            found[module_name(path)] = path
    return found


def _type_checking_only(node: ast.If) -> bool:
    test = node.test
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _import_nodes(tree: ast.AST):
    """Every import statement that may run, at any depth (functions, methods, branches)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        if isinstance(node, ast.If) and _type_checking_only(node):
            stack.extend(node.orelse)
            continue
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            yield node
        stack.extend(ast.iter_child_nodes(node))


def imports_of(name: str, path: pathlib.Path, modules: dict[str, pathlib.Path]) -> set[str]:
    """The modules of ours that module ``name`` imports (a package's submodule when one is named)."""
    is_package = path.name == "__init__.py"
    found = set()
    for node in _import_nodes(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            targets = [alias.name for alias in node.names]
        else:
            base = node.module or ""
            if node.level:
                anchor = name.split(".")
                anchor = anchor[: len(anchor) - node.level + (1 if is_package else 0)]
                base = ".".join([*anchor, base] if base else anchor)
            targets = [
                f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else base for alias in node.names
            ]
        for target in targets:
            while target and target not in modules:  # `import tables.models.x`: the deepest module of ours
                target = target.rpartition(".")[0]
            if target and target != name and target.split(".")[0] in (*PACKAGES, "config", "rules"):
                found.add(target)
    return found


def import_graph() -> dict[str, set[str]]:
    modules = all_modules()
    return {name: imports_of(name, path, modules) for name, path in modules.items()}


def circles(graph: dict[str, set[str]], within: tuple[str, ...]) -> list[list[str]]:
    """The strongly connected groups of more than one module among those under ``within`` (Tarjan)."""
    nodes = sorted(n for n in graph if n.split(".")[0] in within)
    index, low, on_stack, stack, groups = {}, {}, set(), [], []
    counter = [0]

    def visit(node):
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt.split(".")[0] not in within:
                continue
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    for node in nodes:
        if node not in index:
            visit(node)
    return groups


def test_the_import_graph_finds_a_circle_when_there_is_one():
    graph = {
        "tables.a": {"tables.b"},
        "tables.b": {"tables.c"},
        "tables.c": {"tables.a"},
        "tables.d": {"tables.a"},
    }
    assert circles(graph, ("tables",)) == [["tables.a", "tables.b", "tables.c"]]
    assert circles({"tables.a": {"accounts.b"}, "accounts.b": {"tables.a"}}, ("tables", "accounts")) != []


def test_the_import_graph_reads_function_level_and_relative_imports(tmp_path):
    path = tmp_path / "x.py"
    path.write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from tables import views\n"
        "def f():\n    from tables import services\n    from . import live\n"
    )
    modules = {"tables.services": path, "tables.live": path, "tables.views": path, "tables.x": path}
    assert imports_of("tables.x", path, modules) == {"tables.services", "tables.live"}


def test_there_is_no_import_circle_in_tables_or_accounts():
    assert circles(import_graph(), PACKAGES) == []


def test_there_is_no_import_circle_in_rules():
    """The games' modules too: a function-level import (Chronica's catalogue once asked powers.py from
    cards.py, which powers.py reads) is a circle all the same."""
    assert circles(import_graph(), ("rules",)) == []


def test_tables_does_not_import_config():
    graph = import_graph()
    reaching = {name: sorted(t for t in targets if t.startswith("config")) for name, targets in graph.items()}
    assert {name: t for name, t in reaching.items() if t and name.split(".")[0] == "tables"} == {}


def test_pages_api_and_live_code_do_not_import_each_other():
    """Pages, the JSON API and the live code each use the services, never one another."""
    graph = import_graph()
    pages = {"tables.views", "tables.social_views", "tables.history_views"}
    api = {"tables.api", "tables.history_api", "tables.account_api"}
    live = {"tables.live", "tables.consumers", "tables.socket_moves"}
    crossings = {
        (source, target)
        for side, others in ((pages, api | live), (api, pages | live), (live, pages | api))
        for source in side
        for target in graph.get(source, ())
        if target in others
    }
    assert crossings == set()
