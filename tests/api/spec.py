"""Holds real responses to openapi.yaml: every response the API tests receive is checked
against the operation's documented status and schema (a game's view and result among it: the
Game union names each game's schemas)."""
from __future__ import annotations

import hashlib
import json
import re
from functools import cache, lru_cache

import jsonschema
import jsonschema_rs
from flask.testing import FlaskClient

from api.openapi import load_yaml
from api.openapi.extra import with_extra_games
from tests.conftest import ROOT


@lru_cache(maxsize=1)
def spec() -> dict:
    """openapi.yaml as the test servers serve it: they host high-card (EXTRA_GAME_MODULES), so
    its unions hold the extra games' variants (api/openapi/extra.py)."""
    return load_yaml(with_extra_games((ROOT / "openapi.yaml").read_text()))


@cache
def written() -> dict:
    """openapi.yaml as written: the file generators read (spec() above is as the test servers
    serve it). Parsed once a process and shared read-only: a parse of its 356 KB costs about a
    quarter of a CPU-second."""
    return load_yaml((ROOT / "openapi.yaml").read_text())


@cache
def _path_patterns():
    patterns = []
    for template in spec()["paths"]:
        regex = "^" + re.sub(r"\{[^}]+\}", r"[^/]+", template) + "$"
        patterns.append((re.compile(regex), template))
    return patterns


SAMPLED_ITEMS = 48  # a longer array's items checked: a sample spread over it


@cache
def _validator(schema_json: str):
    schema = json.loads(schema_json)
    schema["components"] = spec()["components"]
    return _Validator(schema)


@cache
def _fast_validator(schema_json: str) -> jsonschema_rs.Draft202012Validator:
    schema = json.loads(schema_json)
    schema["components"] = spec()["components"]
    return jsonschema_rs.Draft202012Validator(schema)


@cache
def _branch_values(branch_json: str, prop: str) -> frozenset | None:
    """Every value a branch lets `prop` take when it names them all (its const, its enum, or the
    union of its own oneOf/anyOf branches' values: a game's Move union), else None."""
    branch = json.loads(branch_json)
    if "$ref" in branch:
        branch = spec()["components"]["schemas"].get(branch["$ref"].rsplit("/", 1)[1], {})
    found = (branch.get("properties") or {}).get(prop) or {}
    if "const" in found:
        return frozenset([json.dumps(found["const"])])
    if "enum" in found:
        return frozenset(json.dumps(v) for v in found["enum"])
    for part in branch.get("allOf", ()):
        values = _branch_values(json.dumps(part, sort_keys=True), prop)
        if values is not None:
            return values
    union = branch.get("oneOf") or branch.get("anyOf")
    if union:
        parts = [_branch_values(json.dumps(b, sort_keys=True), prop) for b in union]
        if all(p is not None for p in parts):
            return frozenset().union(*parts)
    return None


_VALUES_OF: dict = {}  # id(branch), prop -> (branch, its values): the spec's dicts, held for good


def _may_match(branch: dict, prop: str, value) -> bool:
    held = _VALUES_OF.get((id(branch), prop))
    if held is None or held[0] is not branch:
        held = _VALUES_OF[id(branch), prop] = (branch, _branch_values(json.dumps(branch, sort_keys=True), prop))
    values = held[1]
    return values is None or json.dumps(value) in values


def _kept(branches, schema, instance):
    """The branches that can match the instance: those whose `type` (or discriminator
    property) may take the instance's value. The others cannot match (a const, an enum, or a
    union of them all, differs), so oneOf's and anyOf's result is the same without them, and a
    game's body or move is not checked against all five games' schemas."""
    prop = (schema.get("discriminator") or {}).get("propertyName", "type")
    if isinstance(instance, dict) and prop in instance:
        kept = [b for b in branches if _may_match(b, prop, instance[prop])]
        if kept:
            return kept
    return branches


def _one_of(validator, one_of, instance, schema):
    """oneOf as JSON Schema defines it, having first set aside the branches that cannot match
    (_kept)."""
    yield from _ONE_OF(validator, _kept(one_of, schema, instance), instance, schema)


def _any_of(validator, any_of, instance, schema):
    """anyOf likewise (GameMove, GameEventData: each game's union in one)."""
    yield from _ANY_OF(validator, _kept(any_of, schema, instance), instance, schema)


_ONE_OF = jsonschema.Draft202012Validator.VALIDATORS["oneOf"]
_ANY_OF = jsonschema.Draft202012Validator.VALIDATORS["anyOf"]
_Validator = jsonschema.validators.extend(jsonschema.Draft202012Validator, {"oneOf": _one_of, "anyOf": _any_of})


def _sampled(value):
    """The value with each long array cut to SAMPLED_ITEMS of its items, spread over it: a list
    of 5,000 legal moves, each checked against every game's move unions, made the leak suite
    (which lists them at every version) spend most of its time in jsonschema."""
    if isinstance(value, dict):
        return {k: _sampled(v) for k, v in value.items()}
    if isinstance(value, list):
        step = max(1, -(-len(value) // SAMPLED_ITEMS))
        return [_sampled(v) for v in value[::step]]
    return value


_HELD: set = set()  # digests of (schema, value) pairs found valid: the same body is checked once
_HELD_MAX = 200_000


def _validate(schema_ref_or_schema, value):
    schema_json = json.dumps(schema_ref_or_schema, sort_keys=True)
    sampled = _sampled(value)
    digest = hashlib.blake2b(f"{schema_json}\0{json.dumps(sampled, sort_keys=True)}".encode(), digest_size=16).digest()
    if digest in _HELD:
        return
    # jsonschema_rs (compiled, tens of times faster) passes what matches; jsonschema judges the
    # rest, so that a failure reads in its words (and its verdict, were they to differ, is the
    # one kept: test_openapi.py holds the three to one verdict on real and broken values).
    if _fast_validator(schema_json).is_valid(sampled):
        errors = []
    else:
        errors = list(_validator(schema_json).iter_errors(sampled))
    if errors:
        # The deepest error names the field at fault (a oneOf's own says only "none matched").
        raise max(_all_errors(errors), key=lambda e: len(e.absolute_path))
    if len(_HELD) < _HELD_MAX:
        _HELD.add(digest)


def _all_errors(errors):
    for error in errors:
        yield error
        yield from _all_errors(error.context or ())


def validate_named(name: str, value) -> None:
    _validate({"$ref": f"#/components/schemas/{name}"}, value)


def _documented(method: str, path: str, status: int):
    """The documented answer for this status (None where the path or method is rightly unknown)."""
    template = next((t for regex, t in _path_patterns() if regex.match(path)), None)
    if template is None:
        assert status == 404, f"{method} {path} is not in openapi.yaml"
        return None, None
    operations = spec()["paths"][template]
    # HEAD answers GET's headers without its body (HTTP's rule; Flask serves it for every GET)
    operation = operations.get(method.lower()) or (operations.get("get") if method == "HEAD" else None)
    if operation is None:
        assert status == 405, f"{method} {template} is not documented"
        return None, None
    documented = operation["responses"].get(str(status))
    assert documented is not None, f"{method} {template} answered {status}, which is not documented"
    if "$ref" in documented:
        documented = spec()["components"]["responses"][documented["$ref"].rsplit("/", 1)[1]]
    return template, documented


# Headers sent on many answers, each documented on every answer that carries it.
DOCUMENTED_WHERE_SENT = ("RateLimit-Policy", "RateLimit", "WWW-Authenticate")


def check_response(method: str, path: str, status: int, mimetype: str, body, streamed: bool = False,
                   headers=()) -> None:
    """`streamed`: an event stream or NDJSON answer, whose status and type are checked here and
    whose body is read elsewhere. `headers`: the names of the answer's headers."""
    template, documented = _documented(method, path, status)
    if documented is None:
        return
    sent = {name.lower() for name in headers}
    for name in DOCUMENTED_WHERE_SENT:
        assert name.lower() not in sent or name in documented.get("headers", {}), \
            f"{method} {template} {status} sends {name}, which is not documented there"
    content = documented.get("content", {})
    if method == "HEAD":
        assert mimetype in content, f"HEAD {template} {status}: {mimetype} is not documented"
        return
    if status in (204, 304):
        assert not content and body is None, f"{method} {template} {status} has no body"
        return
    assert mimetype in content, f"{method} {template} {status}: {mimetype} is not documented"
    schema = content[mimetype].get("schema")
    if schema and not streamed and (mimetype == "application/json" or mimetype.endswith("+json")):
        _validate(schema, body)  # a game's view and result too: the Game union names each game's


STREAMED_TYPES = ("text/event-stream", "application/x-ndjson")


class SpecCheckingClient(FlaskClient):
    """A test client that checks every response against openapi.yaml."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        request = response.request
        # Werkzeug's test client marks every response streamed, so the streamed ones are told
        # by their media type: an event stream or NDJSON has its status and type checked, not a
        # JSON body.
        if request.path != "/openapi.yaml" and self.wants(request.method, request.path, response.status_code):
            streamed = response.mimetype in STREAMED_TYPES
            body = None if streamed or response.status_code in (204, 304) else response.get_json(silent=True)
            check_response(request.method, request.path, response.status_code, response.mimetype, body,
                           streamed, response.headers.keys())
        return response

    def wants(self, method: str, path: str, status: int) -> bool:
        return True


class SampledSpecCheckingClient(SpecCheckingClient):
    """Checks the first FIRST answers of each kind (method, path's template, status), then one
    in EVERY: for suites that read every version of many games through every viewer (the leak
    suite), where checking each answer cost most of their time and found nothing the first
    answers and a spread sample do not."""

    FIRST, EVERY = 40, 25

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.seen: dict = {}

    def wants(self, method: str, path: str, status: int) -> bool:
        template = next((t for regex, t in _path_patterns() if regex.match(path)), path)
        n = self.seen[method, template, status] = self.seen.get((method, template, status), 0) + 1
        return n <= self.FIRST or n % self.EVERY == 0


def sampled_client(app) -> SampledSpecCheckingClient:
    """A sampling checking client of the app (without changing the app's own client class)."""
    return SampledSpecCheckingClient(app, app.response_class, use_cookies=True)
