"""Holds real responses to openapi.yaml: every response the API tests receive is checked
against the operation's documented status and schema (and a game's view, events and result
against that game's schemas, named under x-games)."""
from __future__ import annotations

import re
from functools import lru_cache

import jsonschema
import yaml
from flask.testing import FlaskClient

from tests.conftest import ROOT


@lru_cache(maxsize=1)
def spec() -> dict:
    return yaml.safe_load((ROOT / "openapi.yaml").read_text())


@lru_cache(maxsize=None)
def _path_patterns():
    patterns = []
    for template in spec()["paths"]:
        regex = "^" + re.sub(r"\{[^}]+\}", r"[^/]+", template) + "$"
        patterns.append((re.compile(regex), template))
    return patterns


def _validate(schema_ref_or_schema, value):
    document = spec()
    schema = dict(schema_ref_or_schema)
    schema["components"] = document["components"]
    errors = list(jsonschema.Draft202012Validator(schema).iter_errors(value))
    if errors:
        # The deepest error names the field at fault (a oneOf's own says only "none matched").
        raise max(_all_errors(errors), key=lambda e: len(e.absolute_path))


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


def check_response(method: str, path: str, status: int, mimetype: str, body, streamed: bool = False) -> None:
    """`streamed`: an event stream or NDJSON answer, whose status and type are checked here and
    whose body is read elsewhere."""
    template, documented = _documented(method, path, status)
    if documented is None:
        return
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
        _validate(schema, body)
        _check_game_parts(body)


STREAMED_TYPES = ("text/event-stream", "application/x-ndjson")


def _check_game_parts(body) -> None:
    """Checks a game's own parts against its x-games schemas, where the spec names them."""
    if not isinstance(body, dict):
        return
    games = spec().get("x-games") or {}
    type_ = body.get("type")
    if type_ in games and body.get("view") is not None:  # no view while a game waits for people
        validate_named(games[type_]["view"], body["view"])
        if body.get("result") is not None and body.get("status") != "abandoned":
            validate_named(games[type_]["result"], body["result"])


class SpecCheckingClient(FlaskClient):
    """A test client that checks every response against openapi.yaml."""

    def open(self, *args, **kwargs):
        response = super().open(*args, **kwargs)
        request = response.request
        # Werkzeug's test client marks every response streamed, so the streamed ones are told
        # by their media type: an event stream or NDJSON has its status and type checked, not a
        # JSON body.
        if request.path != "/openapi.yaml":
            streamed = response.mimetype in STREAMED_TYPES
            body = None if streamed or response.status_code in (204, 304) else response.get_json(silent=True)
            check_response(request.method, request.path, response.status_code, response.mimetype, body,
                           streamed)
        return response
