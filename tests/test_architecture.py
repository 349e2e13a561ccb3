"""The direction of imports is the architecture, checked by folder rules over whatever modules
the tree holds (no list of modules to keep):

- the application layer (api/ outside api/http/, events/, domain/, workers/) runs without the
  web stack: importing all of it in a fresh interpreter loads none of WEB, and none of its
  modules names one of them (only api/http/ and app.py do);
- no two folders of api/ (and of the root: events, domain, workers, app) import each other,
  function-level imports included, and the modules of a folder import each other without a
  cycle at module level;
- domain imports nothing of the rest, events knows nothing of games.

`violations(root)` checks a tree (`import_violations(root)`: the rules read from the source
alone); the tests below run the rules on this tree, and the checker on copies made to break
each rule, so that a rule that could never fail would show.
"""
from __future__ import annotations

import ast
import json
import shutil
import subprocess
import sys
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "domain", "events", "workers")
WEB = ("flask", "werkzeug", "marshmallow", "gevent", "flask_cors", "flask_swagger_ui")
HTTP_EDGE = "api.http"  # with app.py, the only modules that may import WEB
FORBIDDEN = {  # a package: the top-level names it may never import
    "domain": {"api", "events", "workers", "app", "flask", "redis", "rq", "marshmallow", "time", "os", "socket"},
    "events": {"domain", "api", "workers", "app", "flask", "marshmallow"},
    "workers": {"app", "flask"},
}


# ---- the tree --------------------------------------------------------------------------------

def modules(root: Path) -> dict[str, Path]:
    """Every module of the packages (and app.py), by dotted name."""
    found = {"app": root / "app.py"} if (root / "app.py").exists() else {}
    for package in PACKAGES:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _imports(name: str, path: Path, module_level: bool) -> tuple[tuple[int, str], ...]:
    """(line, dotted name) of each import of the module; `module_level`: only those that run
    when it is imported (not in functions, not under `if TYPE_CHECKING:`)."""
    return tuple(_read_imports(name, path, path.stat().st_mtime_ns, module_level))


@cache  # by modification time: a file changed is read again
def _read_imports(name: str, path: Path, mtime_ns: int, module_level: bool) -> list[tuple[int, str]]:
    return list(_imports_in(ast.parse(path.read_text()), name, path, module_level))


def _imports_in(tree: ast.Module, name: str, path: Path, module_level: bool) -> Iterator[tuple[int, str]]:
    package = name if _is_package(path) else name.rpartition(".")[0]
    for node in _walk(tree, module_level):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
                base = ".".join([*anchor, base] if base else anchor)
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"  # a module of `base`, or a name in it


def _walk(tree: ast.AST, module_level: bool) -> Iterator[ast.AST]:
    if not module_level:
        yield from ast.walk(tree)
        return
    todo = list(ast.iter_child_nodes(tree))
    while todo:
        node = todo.pop()
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            continue
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            todo.extend(node.orelse)
            continue
        yield node
        todo.extend(ast.iter_child_nodes(node))


def _resolve(target: str, known: dict[str, Path]) -> str | None:
    """The module of the tree an import names (`from api import metrics`: api.metrics)."""
    while target and target not in known:
        target = target.rpartition(".")[0]
    return target or None


def _folder(name: str, known: dict[str, Path]) -> str:
    """The unit of the folder rules: each subfolder of api/, api's root modules together, and
    each other package (events, domain, workers, app)."""
    parts = name.split(".")
    if parts[0] != "api" or len(parts) == 1:
        return parts[0]
    subfolder = "api." + parts[1]
    return subfolder if _is_package(known.get(subfolder, Path())) else "api"


def _graph(known: dict[str, Path], module_level: bool) -> dict[str, dict[str, int]]:
    """module -> {imported module of the tree: line}."""
    graph: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        edges = graph.setdefault(name, {})
        for line, target in _imports(name, path, module_level):
            resolved = _resolve(target, known)
            if resolved and resolved != name:
                edges.setdefault(resolved, line)
    return graph


# ---- the rules -------------------------------------------------------------------------------

def outside_the_edge(known: dict[str, Path]) -> list[str]:
    """Every module but the HTTP edge and app.py, which build the Flask app."""
    return [name for name in known if name != "app" and _folder(name, known) != HTTP_EDGE]


def application_modules(known: dict[str, Path]) -> list[str]:
    """The layer the workers share with the API: what is outside the edge, but the modules that
    run a program when imported (`python -m workers`)."""
    return [name for name in outside_the_edge(known) if known[name].name != "__main__.py"]


IMPORT_ALL = """
import importlib, json, sys
sys.path.insert(0, sys.argv[1])
web, found = tuple(json.loads(sys.argv[2])), []
for name in sys.argv[3:]:
    try:
        importlib.import_module(name)
    except Exception as e:
        found.append(f"{name}: cannot be imported ({type(e).__name__}: {e})")
    loaded = sorted(m for m in sys.modules if m.split('.')[0] in web)
    if loaded:
        found.append(f"{name} loads {', '.join(m for m in loaded if '.' not in m)}")
        break  # what follows is loaded already: the first module to load it is the one to blame
print(json.dumps(found))
"""


def web_stack_loaded(root: Path, known: dict[str, Path]) -> list[str]:
    """Imports the whole application layer in a fresh interpreter (-I: no PYTHONPATH, no user
    site; the tree imported from `root`) and names the first module that loads a web package."""
    names = application_modules(known)
    run = subprocess.run([sys.executable, "-I", "-c", IMPORT_ALL, str(root), json.dumps(WEB), *names],
                         capture_output=True, text=True, timeout=120, cwd=root)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


def web_imported(known: dict[str, Path]) -> list[str]:
    """Modules outside the HTTP edge that import a web package themselves."""
    return [f"{known[name].name} ({name}:{line}) imports {target}"
            for name in outside_the_edge(known)
            for line, target in _imports(name, known[name], module_level=False)
            if target.split(".")[0] in WEB]


def both_ways(known: dict[str, Path]) -> list[str]:
    """Pairs of folders that import each other, imports in functions included."""
    between: dict[tuple[str, str], str] = {}
    for name, edges in _graph(known, module_level=False).items():
        for target, line in edges.items():
            pair = (_folder(name, known), _folder(target, known))
            if pair[0] != pair[1]:
                between.setdefault(pair, f"{name}:{line} imports {target}")
    return [f"{a} and {b} import each other: {between[a, b]}; {between[b, a]}"
            for a, b in sorted(between) if a < b and (b, a) in between]


def cycles_in_folders(known: dict[str, Path]) -> list[str]:
    """Module-level import cycles among the modules of one folder."""
    graph = _graph(known, module_level=True)
    found = []
    for start in sorted(graph):
        cycle = _cycle_from(start, graph, known)
        if cycle and min(cycle) == start:  # each cycle once, named from its smallest module
            found.append(" -> ".join([*cycle, start]))
    return found


def _cycle_from(start: str, graph: dict[str, dict[str, int]], known: dict[str, Path]) -> list[str] | None:
    """A path start -> ... -> start within start's folder, if there is one (depth first)."""
    folder, stack, seen = _folder(start, known), [(start, [start])], set()
    while stack:
        node, path = stack.pop()
        for target in graph.get(node, {}):
            if target == start:
                return path
            if _folder(target, known) == folder and target not in seen:
                seen.add(target)
                stack.append((target, [*path, target]))
    return None


def wrong_direction(known: dict[str, Path]) -> list[str]:
    """domain imports nothing of the rest, events nothing of games, workers not the Flask app."""
    return [f"{name}:{line} imports {target}" for name, path in known.items()
            for line, target in _imports(name, path, module_level=False)
            if target.split(".")[0] in FORBIDDEN.get(name.split(".")[0], ())]


def violations(root: Path) -> list[str]:
    """Every rule's breaches in the tree at `root`."""
    return web_stack_loaded(root, modules(root)) + import_violations(root)


def import_violations(root: Path) -> list[str]:
    """The breaches the imports as written show (no interpreter started)."""
    known = modules(root)
    return web_imported(known) + both_ways(known) + cycles_in_folders(known) + wrong_direction(known)


# ---- this tree -------------------------------------------------------------------------------

@pytest.mark.process
def test_the_application_layer_runs_without_the_web_stack():
    assert not web_stack_loaded(ROOT, modules(ROOT))


def test_only_the_http_edge_imports_the_web_stack():
    assert not web_imported(modules(ROOT))


def test_no_two_folders_import_each_other():
    assert not both_ways(modules(ROOT))


def test_no_folder_has_an_import_cycle():
    assert not cycles_in_folders(modules(ROOT))


def test_imports_point_inwards():
    assert not wrong_direction(modules(ROOT))


# ---- each rule can fail ----------------------------------------------------------------------

@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the source tree to break."""
    for package in PACKAGES:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copy(ROOT / "app.py", tmp_path / "app.py")
    return tmp_path


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n\n" + text + "\n")


def _application_edge(tree: Path, same_folder: bool) -> tuple[str, str]:
    """An import the tree has between two application modules (of one folder, or of two)."""
    known = modules(tree)
    layer = set(application_modules(known))
    graph = _graph(known, module_level=same_folder)
    return next((a, b) for a in sorted(layer) for b in sorted(graph[a])
                if b in layer and (_folder(a, known) == _folder(b, known)) == same_folder
                and _folder(a, known).startswith("api."))


@pytest.mark.process
def test_a_web_import_in_the_application_layer_is_caught(tree):
    module = tree / "api" / "seating" / "control.py"
    module = module if module.exists() else modules(tree)[application_modules(modules(tree))[-1]]
    _append(module, "import flask  # noqa: E402, F401")
    found = violations(tree)
    assert any(" loads flask" in v for v in found), found
    assert any(v.startswith(f"{module.name} (") and v.endswith("imports flask") for v in found), found


def test_folders_importing_each_other_are_caught(tree):
    importer, imported = _application_edge(tree, same_folder=False)
    known = modules(tree)
    _append(known[imported], f"def _back():\n    import {importer}  # noqa: F401")
    pair = sorted((_folder(importer, known), _folder(imported, known)))
    assert any(v.startswith(f"{pair[0]} and {pair[1]} import each other") for v in import_violations(tree))


def test_a_cycle_within_a_folder_is_caught(tree):
    importer, imported = _application_edge(tree, same_folder=True)
    _append(modules(tree)[imported], f"import {importer}  # noqa: E402, F401")
    assert any(importer in v and imported in v and " -> " in v for v in import_violations(tree))


def test_domain_importing_the_rest_is_caught(tree):
    _append(tree / "domain" / "contract.py", "def _up():\n    import api.errors  # noqa: F401")
    found = import_violations(tree)
    assert any(v.startswith("domain.contract:") and v.endswith("imports api.errors") for v in found), found
