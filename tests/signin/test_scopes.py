"""Scopes (issue 51), one table: openapi.yaml. For every operation the spec lists, generated from
it: a personal access token without one of the operation's scopes is answered `403
insufficient_scope` naming it (RFC 6750's `WWW-Authenticate` too), and a token with exactly the
operation's scopes is answered what the player's device key is. An operation without `security`
makes the table refuse to load (so a new route, which tests/api/test_openapi.py holds to the
spec, cannot go without its scopes)."""
from __future__ import annotations

import copy
import re

import pytest

from api.http.scopes import SPEC, spec_table, table
from api.openapi import load_yaml, pruned
from tests.api.helpers import auth
from tests.api.spec import spec
from tests.lobby.helpers import player

METHODS = ("get", "put", "post", "delete", "patch")
EVERY = sorted(spec_table().every)
# Path parameters: values that name nothing (a route answers 404 or 400, never changing anything).
FILL = {"id": "nosuchgame12", "game_type": "splendor", "type": "splendor"}


def _operations():
    for path, item in spec()["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is not None:
                needed = sorted({s for r in operation["security"] for names in r.values() for s in names})
                yield method.upper(), path, operation["operationId"], needed


OPERATIONS = list(_operations())
SCOPED = [(m, p, op, needed) for m, p, op, needed in OPERATIONS if needed]


def _path(template: str) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: FILL.get(m.group(1), "nosuch1"), template)


def _token(client, key, scopes) -> str:
    r = client.post("/players/me/tokens", json={"name": "test", "scopes": scopes}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["token"]


def _ask(client, method, path, token):
    body = {"json": {}} if method in ("POST", "PUT", "PATCH") else {}
    r = client.open(_path(path), method=method, headers=auth(token), buffered=False, **body)
    status, problem = r.status_code, (r.get_json(silent=True) if r.mimetype.endswith("json") else None)
    headers = dict(r.headers)
    r.close()  # a stream answered 200 is not read
    return status, (problem or {}).get("code"), problem, headers


@pytest.mark.parametrize(("method", "path", "operation", "scope"),
                         [(m, p, op, s) for m, p, op, needed in SCOPED for s in needed],
                         ids=lambda v: v if isinstance(v, str) and " " not in v else None)
def test_a_token_without_one_of_the_operations_scopes_is_refused_naming_it(client, method, path, operation, scope):
    key = player(client)["key"]
    token = _token(client, key, [s for s in EVERY if s != scope])
    status, code, problem, headers = _ask(client, method, path, token)
    assert (status, code) == (403, "insufficient_scope"), (operation, status, problem)
    assert problem["details"]["missing"] == [scope] and scope in problem["detail"]
    needed = next(needed for m, p, _, needed in SCOPED if (m, p) == (method, path))
    assert headers["WWW-Authenticate"] == \
        f'Bearer realm="game-server", error="insufficient_scope", scope="{" ".join(needed)}"'


@pytest.mark.parametrize(("method", "path", "operation", "needed"), SCOPED,
                         ids=lambda v: v if isinstance(v, str) and " " not in v else None)
def test_a_token_with_the_operations_scopes_is_answered_as_the_device_key_is(client, method, path, operation,
                                                                            needed):
    key = player(client)["key"]
    token = _token(client, key, needed)
    with_key = _ask(client, method, path, key)
    with_token = _ask(client, method, path, token)
    assert with_token[1] != "insufficient_scope", (operation, with_token[2])
    assert with_token[:2] == with_key[:2], (operation, with_key[2], with_token[2])


def test_the_public_operations_answer_a_token_of_any_scope_as_they_answer_nobody(client):
    key = player(client)["key"]
    token = _token(client, key, ["social"])  # reserved: no operation needs it
    for method, path, operation, needed in OPERATIONS:
        if needed or method != "GET" or path in ("/players/me/stream", "/games/{id}/stream"):
            continue
        status, code, problem, _ = _ask(client, method, path, token)
        assert code != "insufficient_scope" and status == _ask(client, method, path, None)[0], (operation, problem)


def test_every_operation_names_its_scopes_and_a_route_without_them_is_refused():
    found = table(spec())
    assert set(found.scopes) >= {"game:read", "game:play", "lobby:write", "profile:read", "profile:write",
                                 "webhooks", "push", "account", "social", "tournaments"}
    assert len(found.needs) == len(OPERATIONS)
    assert found.needed("POST", "/games/<game_id>/moves") == {"game:play"}
    assert found.needed("HEAD", "/games/<game_id>") == {"game:read"}
    assert found.needed("GET", "/a/route/the/spec/lacks") == found.every  # fails closed
    broken = copy.deepcopy(spec())
    del broken["paths"]["/players/me"]["get"]["security"]
    with pytest.raises(ValueError, match="GET /players/me has no `security`"):
        table(broken)
    broken = copy.deepcopy(spec())
    broken["paths"]["/players/me"]["get"]["security"] = [{"playerKey": ["game:fly"]}]
    with pytest.raises(ValueError, match="unknown scopes"):
        table(broken)


def test_a_new_tokens_scopes_are_the_schemes_scopes():
    """NewAccessToken's `scopes` enum (what clients are generated with) lists exactly `x-scopes`."""
    found = spec()
    enum = found["components"]["schemas"]["NewAccessToken"]["properties"]["scopes"]["items"]["enum"]
    assert sorted(enum) == sorted(found["components"]["securitySchemes"]["playerKey"]["x-scopes"])


def test_the_table_read_from_the_specs_own_lines_is_the_whole_specs():
    """spec_table parses only the lines that say the scopes (issue 57: the whole spec parsed left
    ~10 MB in every web worker): the same table as the whole spec's."""
    assert spec_table() == table(load_yaml(SPEC.read_text()))


def test_pruning_keeps_the_wanted_keys_whole_and_the_rest_out():
    text = """
top: 1
paths:
  /a:
    description: |
      security: not a key, a block's line
        operationId: nor this

    get:
      operationId: readA  # a comment
      security:
      - playerKey: ["game:read"]
      responses: {"200": {description: ok}}
  "/b:c":
    post: {operationId: makeB, security: [{}]}
components:
  x: {security: 1}
"""
    kept = load_yaml(pruned(text, (("paths", "*", ("get", "post"), ("security", "operationId")),)))
    assert kept == {"paths": {"/a": {"get": {"operationId": "readA", "security": [{"playerKey": ["game:read"]}]}},
                              "/b:c": {"post": {"operationId": "makeB", "security": [{}]}}}}
