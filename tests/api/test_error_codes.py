"""One catalogue of error codes (`Code` in api/errors.py): every raiser names its code from it,
each answers a status the catalogue gives the code, and docs/errors.md and openapi.yaml say
what the catalogue says. The games' own codes (MoveRejected, in domain/) are not in it."""
from __future__ import annotations

import ast
import importlib
import inspect
import re
from functools import lru_cache
from pathlib import Path

from api.errors import ANY_STATUS, ApiError, Code
from api.openapi.merge import MARKER
from tests.api.spec import spec
from tests.conftest import ROOT

SNAKE = re.compile(r"^[a-z]+(_[a-z]+)*$")
WITH_STATUS = re.compile(r"`(\d{3})\s+([a-z_]+)`")  # "`409 seat_taken`", also across a line break
CODES = {code.value: code for code in Code}


def _sources() -> list[Path]:
    """Every module that may answer an error: the application, its HTTP edge, the workers."""
    return sorted([*(ROOT / "api").rglob("*.py"), *(ROOT / "workers").rglob("*.py"), ROOT / "app.py"])


@lru_cache(maxsize=1)
def _trees() -> dict[Path, ast.Module]:
    return {path: ast.parse(path.read_text()) for path in _sources()}


def _is_code(node: ast.expr) -> str | None:
    """`Code.X` -> "X"."""
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "Code":
        return node.attr
    return None


def _literal_codes(tree: ast.Module):
    """String constants where a code is written: `code=`, a class's `code`, `problem(status,
    code)`, a {status: code} table."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            values = [k.value for k in node.keywords if k.arg == "code"]
            if getattr(node.func, "id", getattr(node.func, "attr", None)) == "problem" and len(node.args) > 1:
                values.append(node.args[1])
        elif isinstance(node, ast.ClassDef):
            values = [value for target, value in _class_assignments(node) if target == "code"]
        elif isinstance(node, ast.Dict):
            ints = all(isinstance(k, ast.Constant) and isinstance(k.value, int) for k in node.keys)
            values = node.values if ints else []
        else:
            continue
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str) and SNAKE.match(value.value):
                yield node.lineno, value.value


def _class_assignments(node: ast.ClassDef):
    """(name, value) of a class body's assignments, `status, code = 409, ...` unpacked."""
    for statement in node.body:
        if isinstance(statement, ast.Assign | ast.AnnAssign) and statement.value is not None:
            targets = statement.targets if isinstance(statement, ast.Assign) else [statement.target]
            for target in targets:
                if isinstance(target, ast.Name):
                    yield target.id, statement.value
                elif isinstance(target, ast.Tuple) and isinstance(statement.value, ast.Tuple):
                    for name, value in zip(target.elts, statement.value.elts, strict=True):
                        if isinstance(name, ast.Name):
                            yield name.id, value


def _module_name(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts)


@lru_cache(maxsize=1)
def _error_classes() -> dict[str, type[ApiError]]:
    """Every ApiError class, by name, from the modules that define one."""
    for path, tree in _trees().items():
        if any(isinstance(n, ast.ClassDef) and any(t == "code" for t, _ in _class_assignments(n))
               for n in tree.body):
            importlib.import_module(_module_name(path))
    found, todo = {}, [ApiError]
    while todo:
        cls = todo.pop()
        assert cls.__name__ not in found, f"two error classes named {cls.__name__}"
        found[cls.__name__] = cls
        todo.extend(cls.__subclasses__())
    return found


def _allows(code: Code, status: int) -> bool:
    return code.statuses == ANY_STATUS or status in code.statuses


def test_no_code_is_written_outside_the_catalogue():
    written = [f"{path.relative_to(ROOT)}:{line} {value!r}" for path, tree in _trees().items()
               for line, value in _literal_codes(tree)]
    assert not written, f"write these as Code.X (api/errors.py): {written}"


def test_every_code_named_is_in_the_catalogue():
    named = {(path, n.lineno, _is_code(n)) for path, tree in _trees().items() for n in ast.walk(tree) if _is_code(n)}
    unknown = [f"{path.relative_to(ROOT)}:{line} Code.{name}" for path, line, name in named
               if name not in Code.__members__]
    assert not unknown


def test_every_catalogued_code_is_answered_somewhere():
    named = {_is_code(n) for tree in _trees().values() for n in ast.walk(tree)}
    assert not set(Code.__members__) - named, "catalogued codes no raiser answers"


def _names_its_code(cls: type[ApiError]) -> bool:
    """An error class whose every raise must name its code (no default of its own)."""
    code = inspect.signature(cls.__init__).parameters.get("code")
    return code is not None and code.default is inspect.Parameter.empty


def test_every_error_class_answers_a_catalogued_status():
    for name, cls in _error_classes().items():
        if _names_its_code(cls):
            continue
        assert cls.code in CODES, f"{name}: {cls.code}"
        assert _allows(CODES[cls.code], cls.status), f"{name}: {cls.status} {cls.code}"


def _raised(node: ast.Call, classes: dict[str, type[ApiError]]) -> tuple[int, str] | None:
    """(status, code name) an error class's call answers, when its code is the catalogue's."""
    cls = classes.get(str(getattr(node.func, "id", None) or getattr(node.func, "attr", "")))
    if cls is None:
        return None
    keywords = {k.arg: k.value for k in node.keywords}
    given = keywords.get("status")
    status = given.value if isinstance(given, ast.Constant) and isinstance(given.value, int) else cls.status
    code = _is_code(keywords["code"]) if "code" in keywords else CODES[cls.code].name
    return (status, code) if code else None  # no code: a game's own, carried out of MoveRejected


def _answered(tree: ast.Module, classes):
    """(line, status, code name) of every raise, problem(...) and {status: Code.X} table."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and getattr(node.func, "id", None) == "problem":
            status, code = node.args[0], _is_code(node.args[1])
            if isinstance(status, ast.Constant) and code:
                yield node.lineno, status.value, code
        elif isinstance(node, ast.Call) and (raised := _raised(node, classes)):
            yield node.lineno, *raised
        elif isinstance(node, ast.Dict):
            for key, value in zip(node.keys, node.values, strict=True):
                if isinstance(key, ast.Constant) and isinstance(key.value, int) and _is_code(value):
                    yield node.lineno, key.value, _is_code(value)


def test_every_raiser_answers_a_status_its_code_has():
    classes = _error_classes()
    wrong = [f"{path.relative_to(ROOT)}:{line} {status} {name}" for path, tree in _trees().items()
             for line, status, name in _answered(tree, classes) if not _allows(Code[name], status)]
    assert not wrong, "statuses the catalogue does not give these codes"


# ---- the docs and openapi.yaml ----------------------------------------------------------------

ERRORS_PAGE = (ROOT / "docs" / "errors.md").read_text()  # generated: tools/api_reference.py
DOCS = {path.relative_to(ROOT).as_posix(): path.read_text()
        for path in (ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md")))}
SPEC_HEAD = (ROOT / "openapi.yaml").read_text().split(MARKER)[0]  # the games' schemas hold their codes


def _page_rows() -> list[str]:
    table = ERRORS_PAGE.split("| code | status | when |\n|---|---|---|\n", 1)[1]
    return table.split("\n\n", 1)[0].splitlines()


def test_the_error_codes_page_is_the_catalogue():
    expected = [f"| `{c}` | {', '.join(map(str, c.statuses)) or 'any other'} | {c.when} |" for c in Code]
    assert _page_rows() == expected, "docs/errors.md: run python -m tools.api_reference"


def test_openapi_names_every_code():
    named = {m.group(1) for m in re.finditer(r"`([a-z_]+)`", SPEC_HEAD)} | \
            {m.group(2) for m in WITH_STATUS.finditer(SPEC_HEAD)}
    assert not set(CODES) - named, "codes openapi.yaml does not name"


def test_a_status_written_with_a_code_is_the_codes():
    for where, text in (*DOCS.items(), ("openapi.yaml", SPEC_HEAD)):
        for status, code in WITH_STATUS.findall(text):
            if code in CODES:
                assert _allows(CODES[code], int(status)), f"{where}: {status} {code}"


def test_each_operations_error_responses_name_codes_of_their_status():
    responses = spec()["components"]["responses"]
    for path, operations in spec()["paths"].items():
        for method, operation in operations.items():
            for status, response in operation.get("responses", {}).items() if method != "parameters" else ():
                response = responses[response["$ref"].rsplit("/", 1)[1]] if "$ref" in response else response
                for code in re.findall(r"`([a-z_]+)`", response.get("description", "")):
                    if code in CODES and not status.startswith("2"):
                        assert _allows(CODES[code], int(status)), f"{method.upper()} {path} {status}: {code}"
