"""Every game's move and event unions are what generated clients need: each branch a schema
named after its game and type, the union discriminated on `type` with an explicit mapping
(api/openapi/name_branches.py rewrites a fragment so). And nowhere in the spec does a client
generator meet something it would name by position: every object or enum branch of a union,
and every enum or object that may be null, is a named schema (api/openapi/name_inline.py)."""
from __future__ import annotations

import pytest

from api.openapi import load_yaml
from api.openapi.extra import EXTRA_VARIANTS, served
from api.openapi.merge import fragments
from api.openapi.name_branches import camel
from api.openapi.name_inline import needs_name, nullable_named, rewrite
from domain import registry
from tests.api.spec import spec, written
from tests.conftest import ROOT

GAMES = [(name, prefix) for name, prefix, _, _ in fragments()]


def _values(schema: dict) -> list:
    fixed = schema["properties"]["type"]
    return [fixed["const"]] if "const" in fixed else fixed["enum"]


@pytest.mark.parametrize("name,prefix", GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("part,suffix", [("Move", ""), ("Event", "Event")])
def test_each_branch_is_named_and_mapped(name, prefix, part, suffix):
    schemas = load_yaml((ROOT / "api" / "openapi" / f"{name}.yaml").read_text())["components"]["schemas"]
    union = schemas[prefix + part]
    assert union["discriminator"]["propertyName"] == "type"
    mapping = union["discriminator"]["mapping"]
    for branch in union["oneOf"]:
        assert set(branch) == {"$ref"}, f"{prefix}{part} has an inline branch"
        target = branch["$ref"].rsplit("/", 1)[1]
        schema = schemas[target]
        if "oneOf" in schema:  # one type, several shapes: told apart by another property
            inner = schema["discriminator"]
            members = [schemas[b["$ref"].rsplit("/", 1)[1]] for b in schema["oneOf"]]
            assert set(inner["mapping"].values()) == {b["$ref"] for b in schema["oneOf"]}
            values = {v for m in members for v in _values(m)}
            assert len(values) == 1
            expected = prefix + camel(values.pop()) + camel(inner["propertyName"]) + suffix
            values = _values(members[0])
        else:
            values = _values(schema)
            expected = prefix + camel(values[0]) + suffix
        assert target == expected
        for value in values:
            assert mapping[value] == branch["$ref"], f"{value} is not mapped to {target}"


def _file() -> dict:
    """openapi.yaml itself: what generators read (tests.api.spec's spec() is a server's hosting
    high-card), parsed once a process (tests.api.spec.written, read only)."""
    return written()


def _variants(schemas: dict, union: str) -> list[str]:
    return [r["$ref"].rsplit("/", 1)[1] for r in schemas[union].get("oneOf") or schemas[union]["anyOf"]]


def _open_types(schemas: dict, name: str, schema: dict | None = None) -> list[str]:
    """The schemas under `name` whose `type` is any string, which no TypeScript narrowing on
    `type` can set aside (`ExtraGameMove`)."""
    schema = schemas[name] if schema is None else schema
    if "$ref" in schema:
        return _open_types(schemas, schema["$ref"].rsplit("/", 1)[1])
    found = [n for key in ("oneOf", "anyOf", "allOf") for b in schema.get(key, []) for n in _open_types(schemas, name, b)]
    fixed = (schema.get("properties") or {}).get("type") or {}
    open_type = fixed.get("type") == "string" and "const" not in fixed and "enum" not in fixed
    return found + [name] * open_type


@pytest.mark.parametrize("union", list(EXTRA_VARIANTS))
def test_the_unions_generators_see_narrow_on_type(union):
    schemas = _file()["components"]["schemas"]
    assert _open_types(schemas, union) == []
    assert _open_types(schemas, EXTRA_VARIANTS[union]) == [EXTRA_VARIANTS[union]]  # the check can fail


def test_a_server_hosting_extra_games_serves_their_variants(client):
    text = (ROOT / "openapi.yaml").read_text()
    assert served(text, [g.name for g in registry.all_games() if g.name != "high-card"]) == text
    hosting = load_yaml(client.get("/openapi.yaml").get_data(as_text=True))
    assert client.get("/game-types").get_json()["game_types"][-1]["type"] == "high-card"
    for union, extra in EXTRA_VARIANTS.items():
        assert _variants(hosting["components"]["schemas"], union) == _variants(_file()["components"]["schemas"],
                                                                               union) + [extra]
    assert hosting["paths"] == _file()["paths"]


def test_the_operations_reference_every_games_schemas():
    document = _file()
    schemas = document["components"]["schemas"]
    games = document["x-games"]
    variants = {r["$ref"].rsplit("/", 1)[1] for r in schemas["Game"]["oneOf"]}
    assert variants == {f"{p['view'][:-4]}Game" for p in games.values()}
    moves = {r["$ref"].rsplit("/", 1)[1] for r in schemas["GameMove"]["anyOf"]}
    events = {r["$ref"].rsplit("/", 1)[1] for r in schemas["GameEventData"]["anyOf"]}
    for parts in games.values():
        assert parts["move"] in moves and parts["event"] in events
    assert schemas["MoveRequest"]["properties"]["move"] == {"$ref": "#/components/schemas/GameMove"}
    assert schemas["HistoryEvent"]["properties"]["data"] == {"$ref": "#/components/schemas/GameEventData"}


def _unnamed(node, path="") -> list[str]:
    """Where a generated client would name a class by position (`SplendorViewPendingType1`): an
    inline object or enum branch of a union, or an enum or object that may be null."""
    found = []
    if isinstance(node, dict):
        for key in ("oneOf", "anyOf"):
            for i, branch in enumerate(node.get(key, [])):
                if needs_name(branch):
                    found.append(f"{path}/{key}[{i}]")
        if nullable_named(node):
            found.append(path)
        for key, value in node.items():
            found += _unnamed(value, f"{path}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            found += _unnamed(value, f"{path}[{i}]")
    return found


def test_no_class_a_client_generates_is_named_by_position():
    document = spec()
    assert _unnamed(document["components"]) + _unnamed(document["paths"]) + _unnamed(document["webhooks"]) == []
    assert _unnamed({"oneOf": [{"type": "object", "properties": {"a": {}}}, {"type": "null"}]}) == ["/oneOf[0]"]
    assert _unnamed({"x": {"type": ["string", "null"], "enum": ["a", None]}}) == ["/x"]
    assert _unnamed({"oneOf": [{"type": "integer"}, {"const": "system"}, {"$ref": "#/x"}, {"type": "null"}]}) == []


@pytest.mark.parametrize("name", [name for name, _, _, _ in fragments()])
def test_the_fragments_are_named_as_name_inline_would(name):
    """A fragment edited by hand with an inline union again: run api/openapi/name_inline.py."""
    text = (ROOT / "api" / "openapi" / f"{name}.yaml").read_text()
    assert rewrite(text) == text
