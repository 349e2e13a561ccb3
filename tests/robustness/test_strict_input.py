"""Strict input (issue 14): each case here was a 500, or an acceptance, before the fix.

In-process against the real app and a real Redis; every answer is also checked against
openapi.yaml by the spec-checking client."""
from __future__ import annotations

import json
import re
import unicodedata
import uuid

import pytest

from tests.api.helpers import auth, create, tokens


@pytest.fixture(scope="module")
def strict(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"strict{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "TESTING": True, "RATE_LIMIT": 1_000_000, "ALLOW_CLIENT_SEEDS": True})
    app.test_client_class = SpecCheckingClient
    return app.test_client()


def _problem(r, status, code=None):
    assert r.status_code == status, (r.status_code, r.get_data(as_text=True)[:300])
    assert r.mimetype == "application/problem+json"
    if code:
        assert r.get_json()["code"] == code, r.get_json()
    return r.get_json()


def test_unicode_digits_are_not_numbers(strict):
    created = create(strict, "high-card")
    gid, t = created["id"], tokens(created)
    for raw in ("²", "٣", "１"):  # superscript two, Arabic-Indic three, fullwidth one
        _problem(strict.get(f"/games/{gid}?seat={raw}", headers=auth(created["table_token"])), 400, "validation_error")
        _problem(strict.get(f"/games/{gid}/state?version={raw}", headers=auth(t[0])), 400)
        _problem(strict.get(f"/games/{gid}/events?after={raw}"), 400)
        _problem(strict.get(f"/games/{gid}/stream", headers={"Last-Event-ID": raw}), 400)
    _problem(strict.get(f"/games/{gid}/stream", headers={"Last-Event-ID": "9" * 4300}), 400)
    _problem(strict.get(f"/games/{gid}/stream?last_event_id={'1' * 5000}"), 400)


def test_a_query_parameter_given_twice_is_a_400_not_its_first_value(strict):
    # Found by schemathesis (seed 14): `?seat=0&seat=<anything>` was read as seat 0 and answered.
    created = create(strict, "high-card")
    gid, t = created["id"], tokens(created)
    body = _problem(strict.get(f"/games/{gid}/state?version=1&seat=0&seat=1", headers=auth(t[0])), 400,
                    "validation_error")
    assert "`seat` is given more than once" in body["detail"] and body["details"]["fields"] == {
        "seat": ["Given more than once."]}
    _problem(strict.get(f"/games/{gid}/events?after=0&after=1&limit=1&limit=2"), 400, "validation_error")
    move = {"expected_version": created["version"], "move": {"type": "bid", "amount": 1}}
    _problem(strict.post(f"/games/{gid}/moves?dry_run=true&dry_run=false", json=move, headers=auth(t[0])), 400)
    assert strict.get(f"/games/{gid}").get_json()["version"] == created["version"]  # nothing appended
    v = created["version"]
    assert strict.get(f"/games/{gid}/state?version={v}&seat=0", headers=auth(t[0])).status_code == 200


def test_a_move_nested_a_thousand_levels_deep_is_a_400(strict):
    created = create(strict, "high-card")
    gid, t = created["id"], tokens(created)
    deep = '{"x":' * 1000 + '{"type":"bid"}' + "}" * 1000  # within orjson's own 1,024 levels
    body = f'{{"expected_version": {created["version"]}, "move": {deep}}}'
    r = strict.post(f"/games/{gid}/moves", data=body, content_type="application/json", headers=auth(t[0]))
    _problem(r, 400, "too_deeply_nested")
    shallow = {"expected_version": created["version"], "move": {"type": "bid", "a": [[[[1]]]]}}
    assert strict.post(f"/games/{gid}/moves", json=shallow, headers=auth(t[0])).status_code == 422
    assert strict.get(f"/games/{gid}").get_json()["version"] == created["version"]


def test_a_game_id_cannot_name_another_key(strict):
    """`<id>}:idem:zz` + `:meta` is the key of the idempotency record `zz}:meta` of game <id>."""
    created = create(strict, "high-card")
    gid, t = created["id"], tokens(created)
    game = strict.get(f"/games/{gid}/moves", headers=auth(t[0])).get_json()
    r = strict.post(f"/games/{gid}/moves", json={"expected_version": created["version"], "move": game["moves"][0]},
                    headers={**auth(t[0]), "Idempotency-Key": "zz}:meta"})
    assert r.status_code == 201
    for crafted in (f"{gid}}}:idem:zz", "a:b", "a b", "{x}"):
        _problem(strict.get(f"/games/{crafted}"), 404, "unknown_game")
        _problem(strict.get(f"/games/{crafted}/events"), 404, "unknown_game")


def test_creation_and_moves_need_a_json_content_type(strict):
    body = json.dumps({"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]})
    for content_type in ("text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", None):
        headers = {"Content-Type": content_type} if content_type else {}
        _problem(strict.post("/games", data=body, headers=headers), 415, "unsupported_media_type")
    created = create(strict, "high-card")
    gid, t = created["id"], tokens(created)
    move = strict.get(f"/games/{gid}/moves", headers=auth(t[0])).get_json()["moves"][0]
    raw = json.dumps({"expected_version": created["version"], "move": move})
    _problem(strict.post(f"/games/{gid}/moves", data=raw, headers={**auth(t[0]), "Content-Type": "text/plain"}),
             415, "unsupported_media_type")
    assert strict.get(f"/games/{gid}").get_json()["version"] == created["version"]
    ok = strict.post(f"/games/{gid}/moves", data=raw,
                     headers={**auth(t[0]), "Content-Type": "application/json; charset=utf-8"})
    assert ok.status_code == 201


def test_names_are_nfc_and_refuse_control_and_bidi_characters(strict):
    created = create(strict, "high-card", [{"name": "Rene\u0301"}, {"name": "Zoë"}])
    assert created["seats"][0]["name"] == "René" == unicodedata.normalize("NFC", "Rene\u0301")
    for evil in ("Eve\u202e", "a\u2066b", "Bob\x00", "x\ny", "tab\t", "line\u2028", "\u200f"):
        r = strict.post("/games", json={"type": "high-card", "seats": [{"name": evil}, {"name": "B"}]})
        _problem(r, 400, "validation_error")


def test_every_405_lists_allow(strict):
    for method, path, allowed in (("delete", "/games", {"POST"}), ("put", "/games/abc", {"GET"}),
                                  ("delete", "/games/abc/moves", {"GET", "POST"}), ("post", "/health", {"GET"})):
        r = getattr(strict, method)(path)
        _problem(r, 405, "method_not_allowed")
        assert allowed <= {m.strip() for m in r.headers["Allow"].split(",")}, r.headers.get("Allow")


# The methods schemathesis's coverage phase sends where a path does not declare them.
UNDECLARED_PROBES = ("GET", "PUT", "POST", "DELETE", "OPTIONS", "PATCH", "TRACE", "QUERY")


def test_every_path_refuses_every_method_it_does_not_declare(strict):
    """Every path of openapi.yaml, each of the eight methods schemathesis probes where the path
    does not declare it: 405 method_not_allowed with an Allow that lists exactly the declared
    methods (HEAD and OPTIONS besides), and OPTIONS answers that Allow. The fuzz smoke sends two
    of the eight (tests/robustness/schemathesis_hooks.py), the campaign all, against app.py."""
    from flask.testing import FlaskClient

    from tests.api.spec import spec

    probed = 0
    for template, item in spec()["paths"].items():
        path = re.sub(r"\{[^}]+\}", "x1", template)
        declared = {m.upper() for m in item if m in {p.lower() for p in UNDECLARED_PROBES} | {"head"}}
        for method in UNDECLARED_PROBES:
            if method in declared:
                continue
            if method == "OPTIONS":  # Flask's own answer (200, no body), which the spec does not list
                r = FlaskClient.open(strict, path, method=method)
                assert r.status_code == 200, (template, r.status_code)
            else:
                r = strict.open(path, method=method)
                _problem(r, 405, "method_not_allowed")
            allowed = {m.strip() for m in r.headers.get("Allow", "").split(",") if m.strip()}
            assert allowed - {"HEAD", "OPTIONS"} == declared - {"HEAD"}, (method, template, r.headers.get("Allow"))
            probed += 1
    assert probed > 500, probed  # every path, not a few


def test_patterns_are_checked_before_any_redis_call(tmp_path):
    """With no Redis at all, a malformed id, seat, version or Last-Event-ID is still its 4xx (a
    store call first would have made it a 503)."""
    from app import create_app

    app = create_app({"REDIS_URL": f"unix://{tmp_path}/no-redis.sock", "TESTING": True})
    client = app.test_client()
    bearer = auth("gid.0.some-token")
    for path, headers, status in (("/games/a:b}x", {}, 404), ("/games/abc?seat=²", bearer, 400),
                                  ("/games/abc/state?version=٣", {}, 400), ("/games/abc/events?after=1e3", {}, 400),
                                  ("/games/abc/moves?offset=-1", bearer, 400),
                                  ("/games/abc/stream", {"Last-Event-ID": "9" * 50}, 400)):
        r = client.get(path, headers=headers)
        assert r.status_code == status, (path, r.status_code, r.get_json())
    r = client.post("/games/abc/moves?dry_run=maybe", json={"expected_version": 1, "move": {}}, headers=bearer)
    assert r.status_code == 400, r.get_json()
