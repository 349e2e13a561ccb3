"""Every game's move and event unions are what generated clients need: each branch a schema
named after its game and type, the union discriminated on `type` with an explicit mapping
(api/openapi/name_branches.py rewrites a fragment so)."""
from __future__ import annotations

import pytest
import yaml

from api.openapi.name_branches import camel
from api.openapi.merge import fragments
from tests.api.spec import spec
from tests.conftest import ROOT

GAMES = [(name, prefix) for name, prefix, _, _ in fragments()]


def _values(schema: dict) -> list:
    fixed = schema["properties"]["type"]
    return [fixed["const"]] if "const" in fixed else fixed["enum"]


@pytest.mark.parametrize("name,prefix", GAMES, ids=[g for g, _ in GAMES])
@pytest.mark.parametrize("part,suffix", [("Move", ""), ("Event", "Event")])
def test_each_branch_is_named_and_mapped(name, prefix, part, suffix):
    schemas = yaml.safe_load((ROOT / "api" / "openapi" / f"{name}.yaml").read_text())["components"]["schemas"]
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


def test_the_operations_reference_every_games_schemas():
    document = spec()
    schemas = document["components"]["schemas"]
    games = document["x-games"]
    variants = {r["$ref"].rsplit("/", 1)[1] for r in schemas["Game"]["oneOf"]}
    assert variants == {f"{p['view'][:-4]}Game" for p in games.values()} | {"ExtraGame"}
    moves = {r["$ref"].rsplit("/", 1)[1] for r in schemas["GameMove"]["anyOf"]}
    events = {r["$ref"].rsplit("/", 1)[1] for r in schemas["GameEventData"]["anyOf"]}
    for parts in games.values():
        assert parts["move"] in moves and parts["event"] in events
    assert schemas["MoveRequest"]["properties"]["move"] == {"$ref": "#/components/schemas/GameMove"}
    assert schemas["HistoryEvent"]["properties"]["data"] == {"$ref": "#/components/schemas/GameEventData"}
