"""Rewrites a game fragment's Move and Event unions into named branches with a discriminator.

    python api/openapi/name_branches.py api/openapi/<game>.yaml

Generated clients name a union's inline branches by position (`SplendorMoveType4`), so every
branch of `<Prefix>Move` and `<Prefix>Event` becomes a schema of its own named after the game and
its `type` (`SplendorTakeGems`, `SplendorGemsTakenEvent`), and the union gets a `discriminator`
on `type` with an explicit mapping. Branches sharing one `type` (Fairy Tile's three `move`s) are
told apart by the other property each fixes with a `const`: they become a union of their own
(`FairyTileMoveFigure`, discriminated on `figure`) that the mapping points at. Branches already
named are renamed to the rule. Only the two unions' text is rewritten (and the names of the
renamed branches); the rest of the fragment stays as written. tests/api/test_contract_names.py
holds every fragment to the rule, so a new game runs this once.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

from api.openapi import load_yaml

PARTS = (("Move", ""), ("Event", "Event"))


def camel(value: str) -> str:
    return "".join(word[:1].upper() + word[1:] for word in re.split(r"[_\-\s]+", value) if word)


def ref(name: str) -> dict[str, Any]:
    return {"$ref": f"#/components/schemas/{name}"}


def _type_values(schema: dict[str, Any]) -> list[str]:
    fixed = schema["properties"]["type"]
    return [fixed["const"]] if "const" in fixed else list(fixed["enum"])


def _consts(schema: dict[str, Any]) -> dict[str, Any]:
    return {k: v["const"] for k, v in schema.get("properties", {}).items()
            if isinstance(v, dict) and "const" in v and k != "type"}


def _merge(members: list[Any]) -> dict[str, Any]:
    """One schema for several shapes of one type that fix no other property (an event's
    redacted forms): the properties of all, required what all require, and each form's other
    required properties only together (`dependentRequired`)."""
    schemas = [schema for _, schema in members]
    merged = {k: v for k, v in schemas[0].items() if k not in ("required", "properties", "description")}
    merged["description"] = " Or: ".join(s["description"] for s in schemas if s.get("description"))
    required = [r for r in schemas[0]["required"] if all(r in s["required"] for s in schemas)]
    merged["required"] = required
    merged["properties"] = {}
    for schema in schemas:
        for key, value in schema["properties"].items():
            merged["properties"].setdefault(key, value)
    together = {}
    for schema in schemas:
        extra = [r for r in schema["required"] if r not in required]
        for key in extra:
            together[key] = [r for r in extra if r != key]
    if together:
        merged["dependentRequired"] = together
    return merged


def dump(name: str, schema: dict[str, Any]) -> str:
    class NoAliases(yaml.SafeDumper):
        def ignore_aliases(self, data: object) -> bool:
            return True

    text = yaml.dump({name: schema}, Dumper=NoAliases, default_flow_style=None, sort_keys=False,
                     width=110, allow_unicode=True)
    return "".join(f"    {line}\n" for line in text.splitlines())


def replace_blocks(text: str, replaced: dict[str, Any]) -> str:
    """`text` with the schema blocks named in `replaced` swapped for their new text; the
    comment and blank lines after a replaced block stay."""
    out = []
    for name, block in _blocks(text):
        if name in replaced:
            lines = block.splitlines(keepends=True)
            keep = len(lines)
            while keep > 1 and re.match(r"^(\s*|\s{0,4}#.*)\n?$", lines[keep - 1]):
                keep -= 1
            out.append(replaced[name] + "".join(lines[keep:]))
        else:
            out.append(block)
    return "".join(out)


def _blocks(text: str) -> list[tuple[str | None, str]]:
    """The schemas section split into (name, text) blocks of 4-space-indented keys; comment
    and blank lines belong to the block before them."""
    head, body = text.split("\n  schemas:\n", 1)
    blocks: list[tuple[str | None, str]] = [(None, head + "\n  schemas:\n")]
    for line in body.splitlines(keepends=True):
        key = re.match(r"^    ([A-Za-z0-9_]+):", line)
        if key:
            blocks.append((key.group(1), line))
        else:
            name, block = blocks[-1]
            blocks[-1] = (name, block + line)
    return blocks


def rewrite(text: str) -> str:
    schemas = load_yaml(text)["components"]["schemas"]
    prefix = next(n[: -len("Options")] for n in schemas if n.endswith("Options"))
    renames: dict[str, str] = {}
    replaced: dict[str, str] = {}  # union name -> its new text (the union and its new branches)
    for part, suffix in PARTS:
        union_name = prefix + part
        union = schemas[union_name]
        groups: dict[str, list[tuple[str | None, dict[str, Any]]]] = {}
        for branch in union["oneOf"]:
            name = branch["$ref"].rsplit("/", 1)[1] if "$ref" in branch else None
            schema = schemas[name] if name else branch
            for value in _type_values(schema)[:1]:
                groups.setdefault(value, []).append((name, schema))
        new_union = {k: v for k, v in union.items() if k != "oneOf"}
        new_union["oneOf"], mapping, new_text = [], {}, ""
        for value, members in groups.items():
            target = prefix + camel(value) + suffix
            if len(members) > 1 and not _consts(members[0][1]):  # redacted forms of one event
                merged = _merge(members)
                new_text += dump(target, merged)
                for name, _ in members:
                    if name is not None:
                        raise SystemExit(f"{name}: merge named branches of one type by hand")
                members = [(None, merged)]
            elif len(members) > 1:  # one type, several shapes: a union of its own
                inner_key = next(iter(_consts(members[0][1])))
                inner: dict[str, Any] = {"description": f"`{value}`: one schema per `{inner_key}`.", "oneOf": [],
                         "discriminator": {"propertyName": inner_key, "mapping": {}}}
                for name, schema in members:
                    member = prefix + camel(value) + camel(_consts(schema)[inner_key]) + suffix
                    inner["oneOf"].append(ref(member))
                    inner["discriminator"]["mapping"][_consts(schema)[inner_key]] = ref(member)["$ref"]
                    if name is None:
                        new_text += dump(member, schema)
                    elif name != member:
                        renames[name] = member
                target = prefix + camel(value) + camel(inner_key) + suffix
                new_text += dump(target, inner)
            elif "dependentRequired" not in members[0][1]:
                name, schema = members[0]
                if name is None:
                    new_text += dump(target, schema)
                elif name != target:
                    renames[name] = target
            new_union["oneOf"].append(ref(target))
            for every in _type_values(members[0][1]):
                mapping[every] = ref(target)["$ref"]
        new_union["discriminator"] = {"propertyName": "type", "mapping": mapping}
        replaced[union_name] = dump(union_name, new_union) + new_text
    clash = set(renames.values()) & set(schemas)
    if clash:
        raise SystemExit(f"names already taken: {sorted(clash)}")
    result = replace_blocks(text, replaced)
    for old, new in renames.items():
        result = re.sub(rf"\b{old}\b", new, result)
    return result


if __name__ == "__main__":
    for path in map(Path, sys.argv[1:]):
        path.write_text(rewrite(path.read_text()))
