"""openapi.yaml is a valid OpenAPI 3.1 document, and it documents what the server does."""
from __future__ import annotations

import re

import jsonschema
import pytest
from openapi_spec_validator import validate

from domain import registry
from tests.api.spec import spec, validate_named


def test_the_spec_is_valid_openapi():
    validate(spec())


def test_no_mapping_holds_a_key_twice():
    """YAML parsers differ on a duplicated key: PyYAML keeps the last, Swagger UI's refuses the
    whole document (/docs then shows nothing). None is allowed."""
    import yaml

    from tests.conftest import ROOT

    # libyaml's parser (api/openapi's loader: 8 times faster than PyYAML's own on 356 KB, 1.7
    # CPU-s a parse there), PyYAML's constructor, the mappings' below
    class Strict(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        pass

    def mapping(loader, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=deep)
            assert key not in seen, f"openapi.yaml: {key!r} twice in one mapping ({key_node.start_mark})"
            seen.add(key)
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    Strict.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, mapping)
    yaml.load((ROOT / "openapi.yaml").read_text(encoding="utf-8"), Loader=Strict)


def test_every_route_is_documented(app):
    documented = {(p, m.upper()) for p, ops in spec()["paths"].items() for m in ops if m != "parameters"}
    for rule in app.url_map.iter_rules():
        if rule.endpoint == "static":
            continue
        path = re.sub(r"<(?:\w+:)?(\w+)>", r"{\1}", rule.rule).replace("{game_id}", "{id}")
        for method in rule.methods - {"HEAD", "OPTIONS"}:
            assert (path, method) in documented, f"{method} {path} is missing from openapi.yaml"


def test_every_hosted_game_has_its_schemas():
    games = spec()["x-games"]
    for game in registry.all_games():
        if game.name == "high-card":
            continue  # the platform tests' own game is not hosted in production
        assert game.name in games, f"{game.name} has no schemas in openapi.yaml"
        for part in ("options", "move", "view", "event", "result"):
            assert games[game.name][part] in spec()["components"]["schemas"]


def test_game_type_options_match_the_spec():
    for game in registry.all_games():
        if game.name == "high-card":
            continue
        validate_named(spec()["x-games"][game.name]["options"], game.default_options())


def test_the_game_fragments_are_merged():
    """openapi.yaml holds each api/openapi/<game>.yaml exactly (python api/openapi/merge.py)."""
    from api.openapi.merge import SPEC, merged_text

    assert merged_text() == SPEC.read_text(), "run: python api/openapi/merge.py"


def test_the_checking_client_checks_every_answer(client, monkeypatch):
    """Werkzeug's test client marks every answer streamed: the checking client must still
    check JSON answers' bodies, and streamed ones' status and type."""
    import tests.api.spec as spec_module

    seen = []
    monkeypatch.setattr(spec_module, "check_response", lambda *args: seen.append(args))
    client.get("/health")
    client.get("/games/nosuchgame/events", headers={"Accept": "application/x-ndjson"})
    (health, unknown) = seen
    assert health[:3] == ("GET", "/health", 200) and isinstance(health[4], dict) and health[5] is False
    assert unknown[2] == 404 and unknown[4]["code"] == "unknown_game"


def test_a_games_view_is_held_to_its_games_schema():
    """The Game union reaches each game's own view schema (the checking client relies on it)."""
    body = {"id": "g", "type": "fairy-tile", "version": 3, "status": "active", "to_act": [0], "seats": [],
            "view": {"phase": "no such phase"}, "result": None}
    with pytest.raises(jsonschema.ValidationError) as caught:
        validate_named("Game", body)
    assert list(caught.value.absolute_path)[:1] == ["view"]


def test_the_rate_limit_headers_are_documented_on_every_limited_answer():
    """Every answer of a limited path carries RateLimit-Policy and RateLimit (the checking
    client holds real answers to it); those of the unlimited ones, and the HTTP server's 414,
    document neither."""
    from api.http.request_limits import UNLIMITED_PATHS

    responses = spec()["components"]["responses"]
    for path, item in spec()["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            for status, answer in operation["responses"].items():
                answer = responses[answer["$ref"].rsplit("/", 1)[1]] if "$ref" in answer else answer
                documented = set(answer.get("headers", {})) >= {"RateLimit-Policy", "RateLimit"}
                sent = path not in UNLIMITED_PATHS and status != "414"
                assert documented == sent, (method, path, status)


@pytest.mark.parametrize("game", registry.all_games(), ids=lambda g: g.name)
def test_the_checking_validators_shortcut_gives_the_plain_validators_verdict(game):
    """tests/api/spec.py sets aside the oneOf and anyOf branches whose `type` cannot be the
    instance's (a game's Move union among five games'), for speed, and passes what jsonschema_rs
    passes: on every legal move and event of a seeded game, and on each made wrong (its type
    another game's or none, a field dropped or of the wrong type), both verdicts are plain JSON
    Schema's."""
    import json
    import random

    from domain.contract import SPECTATOR
    from tests.api import spec as spec_module

    validators = {}
    for name in ("GameMove", "GameEventData"):
        schema = {"$ref": f"#/components/schemas/{name}", "components": spec()["components"]}
        validators[name] = (jsonschema.Draft202012Validator(schema), spec_module._Validator(schema),
                            spec_module._fast_validator(json.dumps({"$ref": schema["$ref"]}, sort_keys=True)))

    def both(name, value):
        plain, shortcut, compiled = (v.is_valid(value) for v in validators[name])
        assert shortcut == plain == compiled, \
            f"{name}: {json.dumps(value)[:300]} is {'valid' if plain else 'invalid'} (jsonschema_rs: {compiled})"
        return plain

    def wrongs(value):
        yield {k: v for k, v in value.items() if k != "type"}
        yield {**value, "type": "take_gems" if value.get("type") != "take_gems" else "lay_tile"}
        for key in [k for k in value if k != "type"][:1]:
            yield {**value, key: {"no": "such"}}

    rng = random.Random(48)
    opts = game.default_options()
    n = game.min_seats
    events = game.setup(opts, n, random.Random(48))
    state = None
    for e in events:
        state = game.evolve(state, e)
    moves_checked = valid_moves = 0
    for _ in range(3):
        actors = game.actors(state)
        if not actors:
            break
        actor = rng.choice(actors)
        moves = json.loads(json.dumps(game.legal_moves(state, actor)))
        for move in rng.sample(moves, min(2, len(moves))):
            valid_moves += both("GameMove", move)
            moves_checked += 1
            for wrong in wrongs(move):
                both("GameMove", wrong)
        new = game.decide(state, actor, rng.choice(game.legal_moves(state, actor)), rng)
        for e in new:
            state = game.evolve(state, e)
        for e in new[:1]:
            shown = json.loads(json.dumps(game.redact(e, SPECTATOR)))
            both("GameEventData", shown)
            for wrong in wrongs(shown):
                both("GameEventData", wrong)
    assert moves_checked and valid_moves == moves_checked  # the real moves are valid


def _patterns(node, where="#"):
    if isinstance(node, dict):
        if isinstance(node.get("pattern"), str):
            yield where, node["pattern"]
        for key, value in node.items():
            yield from _patterns(value, f"{where}/{key}")
    elif isinstance(node, list):
        for i, value in enumerate(node):
            yield from _patterns(value, f"{where}/{i}")


def test_no_pattern_looks_around():
    """A lookahead or lookbehind is not in every regex engine a client's validator may use (RE2,
    Rust's regex), and schemathesis's generator spent about 7 CPU-s of the fuzz smoke drawing
    PersonName's `(?=.*\\S)` (issue 48): each pattern says the same without one."""
    looking = [(where, pattern) for where, pattern in _patterns(spec()) if re.search(r"\(\?<?[=!]", pattern)]
    assert looking == []


def test_a_person_names_pattern_accepts_the_names_the_server_accepts():
    """PersonName's pattern (written without a lookahead) refuses what api/input_rules.py's
    name_problem refuses: control, line-break and bidi characters, and no visible character."""
    from hypothesis import given, settings
    from hypothesis import strategies as st

    from api.input_rules import BIDI_CONTROLS, name_problem

    pattern = re.compile(spec()["components"]["schemas"]["PersonName"]["pattern"])
    tricky = st.sampled_from(sorted(BIDI_CONTROLS) + [" ", "\t", "\n", "\x00", "\x85", "\xa0", "\u2028", "\u2029",
                                                      "\u3000", "a", "é", "한"])
    names = st.lists(st.one_of(tricky, st.characters(exclude_categories=("Cs",))), min_size=1, max_size=8).map("".join)

    @settings(max_examples=300, derandomize=True, database=None, deadline=None)  # no timing: as the properties
    @given(names)
    def agree(name):
        assert (pattern.search(name) is not None) == (name_problem(name) is None), repr(name)

    agree()
    for name in ("Ann", " x ", "\u00a0\u3000"[:1] + "b"):
        assert pattern.search(name)
    for name in (" ", "\u3000 ", "Eve\u202e", "a\nb"):
        assert not pattern.search(name)
