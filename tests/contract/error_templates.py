"""The English templates of the games' refusals (domain.contract.MoveRejected), read from the
source: every `MoveRejected(code, template, ...)`, `InvalidOptions(template, ...)` and game
`_reject(code, template, ...)` call under domain/, with the names its arguments give (None when
they are not written out at the call)."""
from __future__ import annotations

import ast
import string
from dataclasses import dataclass
from pathlib import Path

import domain

CALLS = {"MoveRejected": 1, "_reject": 1, "InvalidOptions": 0}  # name -> position of the template


@dataclass(frozen=True)
class Site:
    where: str
    code: str | None
    template: str | None  # None: not a literal (an f-string, a variable)
    names: frozenset | None

    @property
    def placeholders(self) -> set[str]:
        return {name for _, name, _, _ in string.Formatter().parse(self.template or "") if name}


def _names(call: ast.Call, name: str) -> frozenset | None:
    if name == "_reject":
        return frozenset(k.arg for k in call.keywords if k.arg)
    given = next((k.value for k in call.keywords if k.arg == "args"), None)
    if given is None:
        return frozenset()
    if isinstance(given, ast.Dict) and all(isinstance(k, ast.Constant) for k in given.keys):
        return frozenset(k.value for k in given.keys if isinstance(k, ast.Constant))
    return None


def sites() -> list[Site]:
    root = Path(domain.__file__).parent
    found = []
    for path in sorted(root.rglob("*.py")):
        text = path.read_text()
        if not any(name in text for name in CALLS):  # no such call can be in it: not parsed
            continue  # (this runs at every worker's collection: 11 of 85 files name one)
        tree = ast.parse(text)
        helpers = {id(n) for f in ast.walk(tree) if isinstance(f, ast.FunctionDef) and f.name == "_reject"
                   for n in ast.walk(f)}
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call) or id(node) in helpers:
                continue
            name = node.func.id if isinstance(node.func, ast.Name) else None
            if name not in CALLS or len(node.args) <= CALLS[name]:
                continue
            arg = node.args[CALLS[name]]
            code = "invalid_options" if name == "InvalidOptions" else (
                node.args[0].value if isinstance(node.args[0], ast.Constant) else None)
            template = arg.value if isinstance(arg, ast.Constant) and isinstance(arg.value, str) else None
            found.append(Site(f"{path.relative_to(root.parent)}:{node.lineno}", code, template, _names(node, name)))
    return found
