"""CORS (flask-cors): off by default; named origins may call everything, `*` only read;
preflights answer the headers the API uses; pages may read the headers clients act on."""
from __future__ import annotations

import re
import uuid

import pytest

from tests.api.helpers import auth, create, tokens

PAGE = "https://play.example.com"


def _app(redis_url, origins):
    from app import create_app

    prefix = f"cors{uuid.uuid4().hex[:6]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "CORS_ORIGINS": origins})


def _preflight(client, path, method, headers="authorization,content-type,idempotency-key", origin=PAGE):
    return client.options(path, headers={"Origin": origin, "Access-Control-Request-Method": method,
                                         "Access-Control-Request-Headers": headers})


def test_off_by_default(redis_url):
    client = _app(redis_url, "").test_client()
    r = client.get("/game-types", headers={"Origin": PAGE})
    assert r.status_code == 200 and "Access-Control-Allow-Origin" not in r.headers
    assert "Access-Control-Allow-Origin" not in _preflight(client, "/games", "POST").headers


def test_a_named_origin_may_play(redis_url):
    client = _app(redis_url, f"{PAGE}, https://other.example").test_client()
    r = _preflight(client, "/games/x/moves", "POST")
    assert r.status_code == 200
    assert r.headers["Access-Control-Allow-Origin"] == PAGE
    assert "POST" in r.headers["Access-Control-Allow-Methods"]
    allowed = {h.strip().lower() for h in r.headers["Access-Control-Allow-Headers"].split(",")}
    assert {"authorization", "content-type", "idempotency-key"} <= allowed
    assert int(r.headers["Access-Control-Max-Age"]) > 0
    assert "Origin" in r.headers.get("Vary", "")
    r = _preflight(client, "/games/x/stream", "GET", headers="last-event-id")
    assert "last-event-id" in r.headers["Access-Control-Allow-Headers"].lower()
    r = client.post("/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]},
                    headers={"Origin": PAGE})
    assert r.status_code == 201 and r.headers["Access-Control-Allow-Origin"] == PAGE
    exposed = {h.strip() for h in r.headers["Access-Control-Expose-Headers"].split(",")}
    assert {"Location", "Retry-After", "ETag", "RateLimit-Remaining"} <= exposed
    # an origin not named gets no permission
    r = client.get("/game-types", headers={"Origin": "https://evil.example"})
    assert "Access-Control-Allow-Origin" not in r.headers
    assert "Access-Control-Allow-Origin" not in _preflight(client, "/games", "POST", origin="https://evil.example").headers


def test_any_origin_may_only_read(redis_url):
    app = _app(redis_url, "*")
    client = app.test_client()
    created = create(client)
    gid = created["id"]
    r = client.get(f"/games/{gid}", headers={"Origin": PAGE})
    assert r.headers["Access-Control-Allow-Origin"] == "*"
    r = _preflight(client, f"/games/{gid}", "GET", headers="authorization")
    assert r.headers["Access-Control-Allow-Origin"] == "*" and "GET" in r.headers["Access-Control-Allow-Methods"]
    r = _preflight(client, f"/games/{gid}/moves", "POST")
    assert "POST" not in r.headers.get("Access-Control-Allow-Methods", "")
    # a POST that needs no preflight is answered, but its answer is not the page's to read
    r = client.post(f"/games/{gid}/stream-tickets", headers={"Origin": PAGE, **auth(tokens(created)[0])})
    assert r.status_code == 201 and "Access-Control-Allow-Origin" not in r.headers


def test_mixing_any_origin_with_names_is_refused(redis_url):
    with pytest.raises(ValueError):
        _app(redis_url, f"*,{PAGE}")


def _documented():
    """(path, method) of every operation openapi.yaml documents, the path with made-up ids."""
    from tests.api.spec import spec

    return [(re.sub(r"\{[^}]+\}", "x", path), method.upper())
            for path, item in spec()["paths"].items() for method in item if method != "parameters"]


def test_a_named_origin_may_send_every_documented_method(redis_url):
    client = _app(redis_url, PAGE).test_client()
    documented = _documented()
    assert {"GET", "POST", "PATCH", "DELETE"} <= {method for _, method in documented}
    for path, method in documented + [("/games/x", "HEAD")]:
        r = _preflight(client, path, method)
        assert r.headers.get("Access-Control-Allow-Origin") == PAGE, (path, method)
        allowed = {m.strip() for m in r.headers["Access-Control-Allow-Methods"].split(",")}
        assert method in allowed, (path, method, allowed)
    # what it sends is answered with the permission to read it
    r = client.patch("/players/me", json={"name": "x"}, headers={"Origin": PAGE})
    assert r.status_code == 401 and r.headers["Access-Control-Allow-Origin"] == PAGE


def test_any_origin_still_only_reads(redis_url):
    client = _app(redis_url, "*").test_client()
    for method in ("POST", "PATCH", "DELETE"):
        assert method not in _preflight(client, "/players/me", method).headers.get("Access-Control-Allow-Methods", "")
