"""The direction of imports is the architecture, checked by folder rules over whatever modules
the tree holds (no list of modules to keep):

- the application layer (api/ outside api/http/, events/, domain/, workers/) runs without the
  web stack: importing all of it in a fresh interpreter loads none of WEB, and none of its
  modules names one of them (only api/http/ and app.py do);
- no two folders (each subfolder of api/ and of workers/, the modules at their roots, events,
  domain, each module at the top: app, wiring, jobs, and each `python -m` program) import each
  other, function-level imports included;
- no module reaches itself through the imports that run (at module level or in a function,
  anywhere in the tree; those under `if TYPE_CHECKING:` never run);
- domain imports nothing of the rest, events knows nothing of games;
- one composition root (wiring.py) builds the object graph: no module but it calls the
  constructor of a class its Services (and LiveParts) hold, and nothing below it (api, domain,
  events, workers; a `python -m` program is above) imports it, or the RQ jobs' entry points
  above it (jobs.py).

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
from collections import deque
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("api", "domain", "events", "workers")
ROOT_MODULE = "wiring"  # the composition root (wiring.py)
ABOVE = ("app", ROOT_MODULE, "jobs")  # the top-level modules: the root and what takes the graph from it
BUILDERS = ("tools",)  # beside the packages, folders whose modules must take the graph from the root too
WEB = ("flask", "werkzeug", "jinja2", "marshmallow", "gevent", "flask_cors", "flask_swagger_ui")
HTTP_EDGE = "api.http"  # with app.py, the only modules that may import WEB
FORBIDDEN = {  # a package: the top-level names it may never import
    "domain": {"api", "events", "workers", "app", "flask", "redis", "rq", "marshmallow", "time", "os", "socket"},
    "events": {"domain", "api", "workers", "app", "flask", "marshmallow"},
    "workers": {"app", "flask"},
}


# ---- the tree --------------------------------------------------------------------------------

def modules(root: Path, packages: tuple[str, ...] = PACKAGES) -> dict[str, Path]:
    """Every module of the packages (and the top-level ones: app.py, wiring.py, jobs.py), by
    dotted name."""
    found = {name: root / f"{name}.py" for name in ABOVE if (root / f"{name}.py").exists()}
    for package in packages:
        for path in sorted((root / package).rglob("*.py")):
            parts = path.relative_to(root).with_suffix("").parts
            found[".".join(parts[:-1] if parts[-1] == "__init__" else parts)] = path
    return found


def _is_package(path: Path) -> bool:
    return path.name == "__init__.py"


def _imports(name: str, path: Path, running: bool = False) -> tuple[tuple[int, str], ...]:
    """(line, dotted name) of each import of the module; `running`: only those that can run
    (in a function too, but not under `if TYPE_CHECKING:`, which is for the type checker)."""
    return _read_imports(name, _is_package(path), path.read_text(), running)


@cache  # by the source's text: a broken copy of the tree parses again only the files it changed
def _read_imports(name: str, is_package: bool, source: str, running: bool) -> tuple[tuple[int, str], ...]:
    return tuple(_imports_in(_parse(source), name, is_package, running))


@cache  # read-only trees, shared by the rules: each copy of the tree parses only what it changed
def _parse(source: str) -> ast.Module:
    return ast.parse(source)


def _imports_in(tree: ast.Module, name: str, is_package: bool, running: bool) -> Iterator[tuple[int, str]]:
    package = name if is_package else name.rpartition(".")[0]
    for node in _walk(tree, running):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, package)
            for alias in node.names:
                yield node.lineno, f"{base}.{alias.name}"  # a module of `base`, or a name in it


def _from_base(node: ast.ImportFrom, package: str) -> str:
    """The dotted module a `from ... import` reads from, its dots resolved against `package`."""
    base = node.module or ""
    if not node.level:
        return base
    anchor = package.split(".")[: len(package.split(".")) - node.level + 1]
    return ".".join([*anchor, base] if base else anchor)


def _walk(tree: ast.AST, running: bool) -> Iterator[ast.AST]:
    if not running:
        yield from ast.walk(tree)
        return
    todo = list(ast.iter_child_nodes(tree))
    while todo:
        node = todo.pop()
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


SPLIT = ("api", "workers")  # the packages whose subfolders are folders of their own


def _folder(name: str, known: dict[str, Path]) -> str:
    """The unit of the folder rules: each subfolder of api/ and of workers/, the root modules of
    each of these two together, each other package (events, domain) and top-level module (app,
    wiring, jobs), and each program (`python -m workers`: a __main__ module, which nothing
    imports, above the root)."""
    parts = name.split(".")
    if parts[-1] == "__main__":
        return name
    if parts[0] not in SPLIT or len(parts) == 1:
        return parts[0]
    subfolder = f"{parts[0]}.{parts[1]}"
    return subfolder if _is_package(known.get(subfolder, Path())) else parts[0]


def _graph(known: dict[str, Path], running: bool = False) -> dict[str, dict[str, int]]:
    """module -> {imported module of the tree: line}."""
    graph: dict[str, dict[str, int]] = {}
    for name, path in known.items():
        edges = graph.setdefault(name, {})
        for line, target in _imports(name, path, running):
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
            for line, target in _imports(name, known[name])
            if target.split(".")[0] in WEB]


def both_ways(known: dict[str, Path]) -> list[str]:
    """Pairs of folders that import each other, imports in functions included."""
    between: dict[tuple[str, str], str] = {}
    for name, edges in _graph(known).items():
        for target, line in edges.items():
            pair = (_folder(name, known), _folder(target, known))
            if pair[0] != pair[1]:
                between.setdefault(pair, f"{name}:{line} imports {target}")
    return [f"{a} and {b} import each other: {between[a, b]}; {between[b, a]}"
            for a, b in sorted(between) if a < b and (b, a) in between]


def import_cycles(known: dict[str, Path]) -> list[str]:
    """Modules that reach themselves through the imports that run, in a folder or across
    folders: the shortest such circle of each module that is the smallest name on it (so each
    tangle is named at least once, and a circle once)."""
    graph = _graph(known, running=True)
    found = []
    for start in sorted(graph):
        cycle = _shortest_cycle(start, graph)
        if cycle and min(cycle) == start:
            found.append(" -> ".join(f"{a}:{graph[a][b]}" for a, b in zip(cycle, [*cycle[1:], start]))
                         + f" -> {start}")
    return found


def _shortest_cycle(start: str, graph: dict[str, dict[str, int]]) -> list[str] | None:
    """The modules of a shortest path start -> ... -> start, if there is one (breadth first)."""
    came_from: dict[str, str] = {}
    todo = deque([start])
    while todo:
        node = todo.popleft()
        for target in graph.get(node, {}):
            if target == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return path[::-1]
            if target not in came_from:
                came_from[target] = node
                todo.append(target)
    return None


def wrong_direction(known: dict[str, Path]) -> list[str]:
    """domain imports nothing of the rest, events nothing of games, workers not the Flask app."""
    return [f"{name}:{line} imports {target}" for name, path in known.items()
            for line, target in _imports(name, path)
            if target.split(".")[0] in FORBIDDEN.get(name.split(".")[0], ())]


def below_the_root(known: dict[str, Path]) -> list[str]:
    """The modules the root builds from: every module of the packages but their programs."""
    return [name for name in known if name.split(".")[0] not in ABOVE and known[name].name != "__main__.py"]


def root_imported_from_below(known: dict[str, Path]) -> list[str]:
    """Modules below the root that import it, or the jobs above it (imports in functions too)."""
    return [f"{name}:{line} imports {target}, above it" for name in below_the_root(known)
            for line, target in _imports(name, known[name])
            if target.split(".")[0] in (ROOT_MODULE, "jobs")]


def graph_classes(known: dict[str, Path]) -> dict[str, str]:
    """The classes of the object graph, read from the root: each type named in the annotations of
    its dataclasses (Services, LiveParts...) that is a class of the tree -> the module defining
    it. Settings and the clients are what the graph is built from, not of it."""
    path = known[ROOT_MODULE]
    tree = _parse(path.read_text())
    names = _names_imported(tree, ROOT_MODULE, _is_package(path))
    found = {}
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.decorator_list:
            for field in node.body:
                if isinstance(field, ast.AnnAssign):
                    for part in ast.walk(field.annotation):
                        dotted = _dotted(part, names)
                        if dotted and (module := _defining(dotted, known)) and not dotted.endswith(".Settings"):
                            found[dotted] = module
    return found


def _dotted(node: ast.AST, names: dict[str, str]) -> str | None:
    """What a name or attribute chain (`Players`, `web_push.Pushes`) names, through the imports."""
    if isinstance(node, ast.Name):
        return names.get(node.id)
    if isinstance(node, ast.Attribute) and (base := _dotted(node.value, names)):
        return f"{base}.{node.attr}"
    return None


def _defining(dotted: str, known: dict[str, Path]) -> str | None:
    """The module of the tree defining `dotted` (a class: module.Class), if it is one."""
    module, _, name = dotted.rpartition(".")
    return module if module in known and name[:1].isupper() else None


def _names_imported(tree: ast.Module, name: str, is_package: bool) -> dict[str, str]:
    """Local name -> dotted name, for every import of the module (in functions too)."""
    package = name if is_package else name.rpartition(".")[0]
    names = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                names[alias.asname or alias.name.split(".")[0]] = alias.name if alias.asname else alias.name.split(".")[0]
        elif isinstance(node, ast.ImportFrom):
            base = _from_base(node, package)
            for alias in node.names:
                names[alias.asname or alias.name] = f"{base}.{alias.name}"
    return names


def graph_built_outside_the_root(root: Path) -> list[str]:
    """Calls of a graph class's constructor outside the root (and the class's own module, which
    may copy itself: ArchivingStore.on), in the packages, the top-level modules and tools/."""
    known = modules(root, PACKAGES + BUILDERS)
    classes = graph_classes(known)
    found = []
    for name, path in known.items():
        if name == ROOT_MODULE:
            continue
        for lineno, built in _calls(name, _is_package(path), path.read_text()):
            if built in classes and classes[built] != name:
                found.append(f"{name}:{lineno} builds {built} (the root builds the graph: wiring.py)")
    return found


@cache  # by the source's text, as _read_imports: the walk of every module was most of this file's
# CPU (each broken copy of the tree walked all of them again, for every rule test)
def _calls(name: str, is_package: bool, source: str) -> tuple[tuple[int, str], ...]:
    """(line, dotted name) of each call in the module whose callee is named through its imports
    or is one of its own classes."""
    tree = _parse(source)
    names = _names_imported(tree, name, is_package)
    names.update({node.name: f"{name}.{node.name}" for node in tree.body if isinstance(node, ast.ClassDef)})
    return tuple((node.lineno, built) for node in ast.walk(tree)
                 if isinstance(node, ast.Call) and (built := _dotted(node.func, names)))


def violations(root: Path) -> list[str]:
    """Every rule's breaches in the tree at `root`."""
    return web_stack_loaded(root, modules(root)) + import_violations(root)


def import_violations(root: Path) -> list[str]:
    """The breaches the imports as written show (no interpreter started)."""
    known = modules(root)
    return (web_imported(known) + both_ways(known) + import_cycles(known) + wrong_direction(known)
            + root_imported_from_below(known) + graph_built_outside_the_root(root))


# ---- a web worker at rest (issue 57) --------------------------------------------------------
# Libraries only some requests need, imported where they are used, so that a web worker that
# serves none of those requests never holds them (bench/worker_memory.py: each one's MB of RSS).
AT_FIRST_USE = {
    "cryptography.hazmat": "7 MB, the crypto under the four below",
    "jwt": "an identity token's check (api/players/identity_tokens.py)",
    "webauthn": "a passkey ceremony (api/players/passkeys.py)",
    "py_vapid": "a push subscription or the VAPID key (api/push/vapid.py)",
    "pywebpush": "a Web Push sending (workers/push/webpush.py)",
    "networkx": "a tournament's pairing (api/tournaments/pairing.py)",
}
BUILD_APP = """
import json, sys
sys.path.insert(0, sys.argv[1])
from app import create_app
create_app({"REDIS_URL": "redis://127.0.0.1:1/0"})  # building asks nothing of Redis
lazy = json.loads(sys.argv[2])
print(json.dumps(sorted(m for m in sys.modules for name in lazy if m == name or m.startswith(name + "."))))
"""


def loaded_at_rest(root: Path) -> list[str]:
    """The modules of AT_FIRST_USE that building the app (as a web worker does) loads, in a
    fresh interpreter."""
    run = subprocess.run([sys.executable, "-I", "-c", BUILD_APP, str(root), json.dumps(list(AT_FIRST_USE))],
                         capture_output=True, text=True, timeout=120, cwd=root)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout.splitlines()[-1])


# ---- this tree -------------------------------------------------------------------------------

@pytest.mark.process
def test_the_application_layer_runs_without_the_web_stack():
    assert not web_stack_loaded(ROOT, modules(ROOT))


@pytest.mark.process
def test_a_web_worker_at_rest_holds_no_library_only_some_requests_need():
    assert not loaded_at_rest(ROOT)


def test_only_the_http_edge_imports_the_web_stack():
    assert not web_imported(modules(ROOT))


def test_no_two_folders_import_each_other():
    assert not both_ways(modules(ROOT))


def test_no_module_imports_itself_round_a_circle():
    assert not import_cycles(modules(ROOT))


def test_imports_point_inwards():
    assert not wrong_direction(modules(ROOT))


def test_nothing_below_the_root_imports_it():
    assert not root_imported_from_below(modules(ROOT))


def test_no_object_graph_is_built_outside_the_root():
    classes = graph_classes(modules(ROOT))
    # Read from the root's Services, not listed here: the services the issue found built twice too.
    assert {"api.games.service.GameService", "api.players.accounts.Players", "api.ratings.ledger.Ledger",
            "api.live.tickets.Tickets", "events.archived_store.ArchivingStore",
            "workers.deliveries.Deliveries"} <= set(classes), classes
    assert not graph_built_outside_the_root(ROOT)


# ---- each rule can fail ----------------------------------------------------------------------

@pytest.fixture
def tree(tmp_path: Path) -> Path:
    """A copy of the source tree to break."""
    for package in PACKAGES + BUILDERS:
        shutil.copytree(ROOT / package, tmp_path / package, ignore=shutil.ignore_patterns("__pycache__"))
    for name in ABOVE:
        shutil.copy(ROOT / f"{name}.py", tmp_path / f"{name}.py")
    return tmp_path


def _append(path: Path, text: str) -> None:
    path.write_text(path.read_text() + "\n\n" + text + "\n")


def _application_edge(tree: Path, same_folder: bool) -> tuple[str, str]:
    """An import the tree has between two application modules (of one folder, or of two)."""
    known = modules(tree)
    layer = set(application_modules(known))
    graph = _graph(known, running=True)
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


@pytest.mark.process
def test_a_library_imported_at_the_top_again_is_caught(tree):
    shutil.copy(ROOT / "openapi.yaml", tree / "openapi.yaml")
    _append(tree / "api" / "players" / "passkeys.py", "import webauthn  # noqa: E402, F401")
    assert "webauthn" in loaded_at_rest(tree)


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


def test_a_module_below_importing_the_root_is_caught(tree):
    _append(tree / "workers" / "clocks.py", "def _up():\n    import wiring  # noqa: F401")
    _append(tree / "api" / "games" / "service.py", "def _up():\n    from jobs import take_turn  # noqa: F401")
    found = import_violations(tree)
    assert any(v.startswith("workers.clocks:") and v.endswith("imports wiring, above it") for v in found), found
    assert any(v.startswith("api.games.service:") and v.endswith("imports jobs.take_turn, above it")
               for v in found), found


@pytest.mark.parametrize("module, built", [
    # the two partial graphs issue 48 found: the live streams' Players, the deliveries' Ledger
    ("api/http/streams/game.py", "from api.players.accounts import Players\n_inboxes = Players(None, '')"),
    ("workers/deliveries/__init__.py", "from api.ratings import ledger\n_ledger = ledger.Ledger(None, '')"),
    ("tools/ratings.py", "def _service(store):\n    from api.games.service import GameService as S\n    return S(store)"),
])
def test_an_object_graph_built_outside_the_root_is_caught(tree, module, built):
    path = tree / module
    _append(path, built)
    name = ".".join(Path(module).with_suffix("").parts).removesuffix(".__init__")
    found = import_violations(tree)
    assert any(v.startswith(f"{name}:") and " builds " in v for v in found), found


# ---- circles: through imports in functions, and between workers/' subfolders -----------------

def test_a_circle_closed_in_a_function_is_caught(tree):
    importer, imported = _application_edge(tree, same_folder=True)
    _append(modules(tree)[imported], f"def _back():\n    import {importer}  # noqa: F401")
    assert _on_a_circle(import_cycles(modules(tree)), importer, imported)


def test_an_import_under_type_checking_closes_no_circle(tree):
    importer, imported = _application_edge(tree, same_folder=True)
    _append(modules(tree)[imported], f"from typing import TYPE_CHECKING  # noqa: E402\n\n"
                                     f"if TYPE_CHECKING:\n    import {importer}  # noqa: F401")
    assert not _on_a_circle(import_cycles(modules(tree)), importer, imported)


def _on_a_circle(found: list[str], *names: str) -> bool:
    """Whether one of the circles found (`a:line -> b:line -> a`) passes through all of `names`."""
    return any(set(names) <= {step.partition(":")[0] for step in v.split(" -> ")} for v in found)


def _edge_between_subfolders(tree: Path, package: str) -> tuple[str, str]:
    """An import the tree has from one subfolder of `package` to another."""
    known = modules(tree)

    def subfolder(name: str) -> str | None:
        folder = _folder(name, known)
        return folder if folder.startswith(package + ".") else None

    return next((a, b) for a, edges in sorted(_graph(known, running=True).items()) for b in sorted(edges)
                if subfolder(a) and subfolder(b) and subfolder(a) != subfolder(b))


def test_workers_subfolders_importing_each_other_are_caught(tree):
    importer, imported = _edge_between_subfolders(tree, "workers")
    known = modules(tree)
    _append(known[imported], f"def _back():\n    import {importer}  # noqa: F401")
    pair = sorted((_folder(importer, known), _folder(imported, known)))
    found = import_violations(tree)
    assert any(v.startswith(f"{pair[0]} and {pair[1]} import each other") for v in found), found
    assert _on_a_circle(found, importer, imported), found
