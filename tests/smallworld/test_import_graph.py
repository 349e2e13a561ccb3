"""The modules of each game package import one another without a cycle.

Imports inside functions count too: a cycle hidden in a function is still a cycle (the rules
of a hook calling back into the engine that calls the hook), it only fails later. Each game's
modules are read with `ast`, nothing is imported. An import of a module's own parent package
is left out: Python imports that package before the module in any case.
"""
import ast
from pathlib import Path

import pytest

DOMAIN = Path(__file__).resolve().parents[2] / "domain"
GAMES = sorted(p.name for p in DOMAIN.iterdir() if (p / "__init__.py").exists())


def _name(path: Path, top: Path) -> str:
    parts = list(path.relative_to(top).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.AST, package: list[str]) -> list[str]:
    """The dotted names an import statement may load (a `from` import's names may be modules)."""
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if not isinstance(node, ast.ImportFrom):
        return []
    if node.level:
        base = package[:len(package) - node.level + 1]
        source = ".".join(base + ([node.module] if node.module else []))
    else:
        source = node.module or ""
    return [source] + [f"{source}.{alias.name}" for alias in node.names]


def import_graph(root: Path, top: Path = DOMAIN.parent) -> dict[str, set[str]]:
    """{module: the modules of the package `root` it imports anywhere in its body}, named
    from `top` (the directory on the import path)."""
    files = {_name(path, top): path for path in root.rglob("*.py")}
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
        targets = {t for node in ast.walk(ast.parse(path.read_text()))
                   for t in _imported(node, package)}
        graph[module] = {t for t in targets
                         if t in files and t != module and not module.startswith(t + ".")}
    return graph


def find_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One cycle as [a, b, ..., a], or [] when the graph is acyclic (depth-first search)."""
    done: set[str] = set()
    path: list[str] = []

    def visit(node: str) -> list[str]:
        if node in path:
            return path[path.index(node):] + [node]
        if node in done:
            return []
        path.append(node)
        for nxt in sorted(graph[node]):
            found = visit(nxt)
            if found:
                return found
        path.pop()
        done.add(node)
        return []

    for start in sorted(graph):
        found = visit(start)
        if found:
            return found
    return []


@pytest.mark.parametrize("game", GAMES)
def test_a_game_packages_imports_have_no_cycle(game):
    graph = import_graph(DOMAIN / game)
    assert len(graph) > 1
    assert find_cycle(graph) == []


def test_the_graph_sees_imports_inside_functions(tmp_path):
    game = tmp_path / "game"
    (game / "sub").mkdir(parents=True)
    (game / "__init__.py").write_text("from . import engine\n")
    (game / "engine.py").write_text("from .sub import hook\n")
    (game / "sub" / "__init__.py").write_text("")
    (game / "sub" / "hook.py").write_text("from .. import game_top\n\ndef f():\n    from .. import engine\n")
    graph = import_graph(game, tmp_path)
    assert graph["game.sub.hook"] == {"game.engine"}  # not its parent packages
    assert graph["game.engine"] == {"game.sub", "game.sub.hook"}
    assert find_cycle(graph) == ["game.engine", "game.sub.hook", "game.engine"]
