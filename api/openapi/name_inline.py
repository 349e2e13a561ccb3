"""Names what generated clients would otherwise name by position (`SplendorViewPendingType1`):
inline object or enum branches of a `oneOf`/`anyOf`, and enums or objects that may be null,
anywhere in a fragment's schemas.

    python api/openapi/name_inline.py api/openapi/<game>.yaml

Each becomes a schema of its own named after where it is (`SmallWorldRegionConqueredEventDefender`,
`SplendorViewPendingNobles`), and its place refers to it (a nullable one as
`oneOf: [{$ref: ...}, {type: "null"}]`). Several branches of one union are told apart by a
property each fixes with a `const` (`SplendorReservedCardHiddenTrue`), or else by a property only
that branch requires; a single enum branch of a schema's own union by its value
(`SplendorActorSystem`). Only the blocks of the schemas touched are rewritten (name_branches.py's
way). tests/api/test_contract_names.py holds the whole spec to the rule: a new game runs this once.
"""
from __future__ import annotations

import copy
import sys
from collections.abc import Set as AbstractSet
from pathlib import Path
from typing import Any

from api.openapi import load_yaml

if __package__ in (None, ""):
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent.parent))

from api.openapi.name_branches import camel, dump, ref, replace_blocks

UNIONS = ("oneOf", "anyOf")


def _values(node: dict[str, Any]) -> list[Any]:
    return [v for v in node.get("enum", [node["const"]] if "const" in node else []) if v is not None]


def _types(node: dict[str, Any]) -> list[Any]:
    t = node.get("type", [])
    return t if isinstance(t, list) else [t]


def needs_name(branch: dict[str, Any]) -> bool:
    """An inline branch a generator would make a class of: an object, or an enum (a lone
    `const` is a literal to them)."""
    if not isinstance(branch, dict) or "$ref" in branch:
        return False
    named_values = [v for v in branch.get("enum", []) if v is not None]
    return "object" in _types(branch) or "properties" in branch or bool(named_values)


def nullable_named(node: dict[str, Any]) -> bool:
    """An enum or an object that may also be null (a generator makes a class of the rest)."""
    if any(k in node for k in UNIONS) or "$ref" in node:
        return False
    nullable = "null" in _types(node) or None in node.get("enum", [])
    return nullable and (bool(_values(node)) or "object" in _types(node))


def suffixes(branches: list[dict[str, Any]], alone: str) -> list[str]:
    """How each of several branches of one union is told apart."""
    if len(branches) == 1:
        return [alone]
    for key in branches[0].get("properties", {}):
        consts = [b.get("properties", {}).get(key, {}).get("const", ...) for b in branches]
        if ... not in consts and len(set(map(str, consts))) == len(consts):
            return [camel(key) + camel(str(c).lower()) for c in consts]
    out = []
    for b in branches:
        own = [r for r in b.get("required", []) if sum(r in o.get("required", []) for o in branches) == 1]
        if not own:
            raise SystemExit(f"cannot tell a branch apart: {b}")
        out.append(camel(own[0]))
    return out


class Namer:
    def __init__(self, taken: set[Any]):
        self.taken = taken
        self.new: dict[str, dict[str, Any]] = {}

    def add(self, name: str, schema: dict[str, Any]) -> dict[str, Any]:
        if name in self.taken or name in self.new:
            raise SystemExit(f"name already taken: {name}")
        self.new[name] = schema
        self.new[name] = self.visit(schema, name, top=True)
        return ref(name)

    def visit(self, node: Any, path: str, top: bool = False) -> Any:
        if not isinstance(node, dict):
            return node
        node = dict(node)
        if "properties" in node:
            node["properties"] = {k: self.visit(v, path + camel(k)) for k, v in node["properties"].items()}
        if isinstance(node.get("items"), dict):
            node["items"] = self.visit(node["items"], path + "Item")
        if isinstance(node.get("additionalProperties"), dict):
            node["additionalProperties"] = self.visit(node["additionalProperties"], path + "Value")
        for key in UNIONS:
            if key not in node:
                continue
            namable = [b for b in node[key] if needs_name(b)]
            alone = ""
            if namable and len(_values(namable[0])) == 1:
                alone = camel(str(_values(namable[0])[0]))  # "system": SplendorActorSystem
            elif namable and top:
                alone = "Object"
            names = dict(zip(map(id, namable), suffixes(namable, alone))) if namable else {}
            node[key] = [self.add(path + names[id(b)], b) if id(b) in names else self.visit(b, path)
                         for b in node[key]]
        if nullable_named(node) and not top:
            named = {k: v for k, v in node.items() if k != "description"}
            kinds = [t for t in _types(node) if t != "null"]
            if kinds:
                named["type"] = kinds[0] if len(kinds) == 1 else kinds
            if "enum" in named:
                named["enum"] = _values(node)
            wrapper = {"description": node["description"]} if "description" in node else {}
            wrapper["oneOf"] = [self.add(path, named), {"type": "null"}]
            return wrapper
        return node


def rewrite(text: str, taken: AbstractSet[str] = frozenset()) -> str:
    schemas = load_yaml(text)["components"]["schemas"]
    namer = Namer(set(schemas) | set(taken))
    replaced = {}
    for name, schema in schemas.items():
        before = len(namer.new)
        visited = namer.visit(copy.deepcopy(schema), name, top=True)
        if len(namer.new) > before:
            replaced[name] = dump(name, visited) + "".join(
                dump(n, s) for n, s in list(namer.new.items())[before:])
    return replace_blocks(text, replaced)

if __name__ == "__main__":
    spec = load_yaml((Path(__file__).resolve().parent.parent.parent / "openapi.yaml").read_text())
    for path in map(Path, sys.argv[1:]):
        path.write_text(rewrite(path.read_text(), set(spec["components"]["schemas"])))
