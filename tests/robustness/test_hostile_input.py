"""Hostile input, by hand: malformed JSON, wrong types, unknown fields, huge and endless
bodies, huge numbers, unknown game types, moves meant for another game, mangled moves. Each
gets a clear 4xx problem+json, and nothing is appended.

Over real HTTP (gunicorn + gevent, the session's `python app.py`) where the transport matters
(body limits, chunked bodies); in-process against the real Redis for the per-game move fuzz."""
from __future__ import annotations

import json
import random
import socket
import uuid

import pytest
import requests

from domain import registry
from tests.robustness.helpers import auth, create, is_problem, read, session, sse_events, tokens

HOSTED = registry.all_games()


def _problem(r, status, code=None):
    assert r.status_code == status, (r.status_code, r.text[:300])
    assert is_problem(r), r.headers.get("Content-Type")
    body = r.json()
    assert body["status"] == status and body["detail"]
    if code:
        assert body["code"] == code, body
    return body


@pytest.fixture(scope="module")
def game(api):
    created = create(api.base, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=3)
    return api.base, created["id"], tokens(created)


def _moves_url(base, gid):
    return f"{base}/games/{gid}/moves"


def _unchanged(base, gid, version):
    assert read(base, gid)["version"] == version


def test_malformed_and_non_json_bodies(game):
    base, gid, t = game
    version = read(base, gid)["version"]
    for raw in (b"{not json", b"", b"\xff\xfe\x00", b"[1, 2", b'{"expected_version": 2,}', b"null", b"1e999999"):
        for url in (f"{base}/games", _moves_url(base, gid)):
            r = session().post(url, data=raw, headers={**auth(t[0]), "Content-Type": "application/json"})
            assert 400 <= r.status_code < 500 and is_problem(r), (raw, r.status_code, r.text[:200])
    _unchanged(base, gid, version)


def test_deeply_nested_json_is_a_400_not_a_crash(game):
    base, gid, t = game
    version = read(base, gid)["version"]
    for raw in ("[" * 50_000, '{"a":' * 10_000 + "1" + "}" * 10_000,
                json.dumps({"expected_version": version, "move": {"type": "take_gems"}})[:-2] + ',"x":' + "[" * 30_000):
        for url in (f"{base}/games", _moves_url(base, gid)):
            r = session().post(url, data=raw, headers={**auth(t[0]), "Content-Type": "application/json"})
            _problem(r, 400, "malformed_json")
    _unchanged(base, gid, version)


def test_wrong_types_and_unknown_fields(game):
    base, gid, t = game
    version = read(base, gid)["version"]
    legal = session().get(_moves_url(base, gid), headers=auth(t[0])).json()["moves"][0]
    for body in ({"expected_version": str(version), "move": legal},
                 {"expected_version": version + 0.5, "move": legal},
                 {"expected_version": True, "move": legal},
                 {"expected_version": None, "move": legal},
                 {"expected_version": version, "move": [legal]},
                 {"expected_version": version, "move": "take_gems"},
                 {"expected_version": version},
                 {"move": legal},
                 {"expected_version": version, "move": legal, "seat": 1},
                 [{"expected_version": version, "move": legal}],
                 "a string"):
        r = session().post(_moves_url(base, gid), json=body, headers=auth(t[0]))
        _problem(r, 400)
    for body in ({"type": "splendor", "seats": {"name": "A"}},
                 {"type": 7, "seats": [{"name": "A"}, {"name": "B"}]},
                 {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}], "colour": "red"},
                 {"type": "splendor", "seats": [{"name": "A", "bot": "random"}, {"name": "B"}]},
                 {"type": "splendor", "seats": [{"name": ""}, {"name": "B"}]},
                 {"type": "splendor", "seats": [{"name": "x" * 41}, {"name": "B"}]},
                 {"type": "splendor", "seats": [{"name": "A"}] * 13},
                 {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}], "options": {"strict_take_three": "yes"}},
                 {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}], "options": {"nope": 1}},
                 {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}], "seed": 2 ** 80},
                 {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}], "seed": [1]},
                 {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}], "seed": "s" * 65}):
        r = session().post(f"{base}/games", json=body)
        _problem(r, 400)
    _unchanged(base, gid, version)


def test_huge_bodies_are_refused_with_413_even_when_chunked(api, game):
    base, gid, t = game
    version = read(base, gid)["version"]
    filler = "x" * (1 << 20)
    big = json.dumps({"expected_version": version, "move": {"type": "take_gems", "pad": filler}})
    r = session().post(_moves_url(base, gid), data=big, headers={**auth(t[0]), "Content-Type": "application/json"})
    _problem(r, 413, "body_too_large")
    r = session().post(f"{base}/games", data=big, headers={"Content-Type": "application/json"})
    _problem(r, 413, "body_too_large")

    def chunks():  # no Content-Length: Transfer-Encoding: chunked
        for i in range(0, len(big), 8192):
            yield big[i:i + 8192].encode()

    r = requests.post(_moves_url(base, gid), data=chunks(), timeout=15,
                      headers={**auth(t[0]), "Content-Type": "application/json"})
    _problem(r, 413, "body_too_large")
    # A body announced as 100 MB is refused before it is read.
    with socket.create_connection(("127.0.0.1", api.port), timeout=10) as s:
        s.sendall(f"POST /games/{gid}/moves HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
                  f"Authorization: Bearer {t[0]}\r\nContent-Length: 100000000\r\n\r\n".encode() + b"{" * 70_000)
        answer = s.recv(4096).decode(errors="replace")
    assert answer.startswith("HTTP/1.1 413"), answer[:200]
    _unchanged(base, gid, version)


def test_huge_and_wrong_query_values(game):
    base, gid, t = game
    for path, name in (("events", "limit"), ("events", "after"), ("moves", "limit"), ("moves", "offset"),
                       ("state", "version")):
        for value in ("1000000000000000000000000000", str(2 ** 31 + 1), "-1", "1e3", "abc", "", "0x10", "1.5"):
            r = session().get(f"{base}/games/{gid}/{path}", params={name: value}, headers=auth(t[0]))
            _problem(r, 400)
    # the documented maxima are accepted
    assert session().get(f"{base}/games/{gid}/events?limit=1000").status_code == 200
    assert session().get(f"{base}/games/{gid}/moves?limit=5000", headers=auth(t[0])).status_code == 200
    for name in ("limit", "offset"):
        r = session().get(f"{base}/games/{gid}/moves", params={name: "5001" if name == "limit" else "x"})
        _problem(r, 400)
    r = session().get(f"{base}/games/{gid}/events", params={"limit": 5, "colour": "red"})
    _problem(r, 400)
    r = session().get(f"{base}/games/{gid}/stream", headers={"Last-Event-ID": "-3"})
    _problem(r, 400)


def test_unknown_games_types_and_ids(game):
    base, gid, t = game
    for type_ in ("chess", "", "SPLENDOR", "splendor ", "../splendor", "x" * 64):
        r = session().post(f"{base}/games", json={"type": type_, "seats": [{"name": "A"}, {"name": "B"}]})
        assert r.status_code in (400, 422) and is_problem(r), (type_, r.status_code)
    for bad_id in ("nope", "x" * 300, "%00", "..%2F..%2Fetc", gid + "x", gid.upper() if gid.upper() != gid else "Z" + gid):
        r = session().get(f"{base}/games/{bad_id}")
        assert r.status_code == 404 and is_problem(r), (bad_id, r.status_code)
        r = session().post(f"{base}/games/{bad_id}/moves", json={"expected_version": 1, "move": {"type": "x"}},
                           headers=auth(t[0]))
        assert r.status_code in (401, 404) and is_problem(r)


def test_bad_headers(game):
    base, gid, t = game
    version = read(base, gid)["version"]
    legal = session().get(_moves_url(base, gid), headers=auth(t[0])).json()["moves"][0]
    body = {"expected_version": version, "move": legal}
    r = session().post(_moves_url(base, gid), json=body, headers={**auth(t[0]), "Idempotency-Key": "k" * 201})
    _problem(r, 400)
    for header in ("Bearer", "Bearer ", "Basic " + t[0], t[0], "Bearer " + "t" * 5000, "Bearer " + t[0] + "x"):
        r = session().post(_moves_url(base, gid), json=body, headers={"Authorization": header})
        _problem(r, 401)
    _unchanged(base, gid, version)


def test_a_dry_run_flag_the_server_does_not_know_appends_nothing(game):
    base, gid, t = game
    version = read(base, gid)["version"]
    legal = session().get(_moves_url(base, gid), headers=auth(t[0])).json()["moves"][0]
    for flag in ("yes", "True", "on", "2", ""):
        r = session().post(_moves_url(base, gid), params={"dry_run": flag}, headers=auth(t[0]),
                           json={"expected_version": version, "move": legal})
        _problem(r, 400)
    _unchanged(base, gid, version)


def test_names_cannot_inject_into_the_live_stream(api):
    """A seat name holding SSE syntax is refused (line breaks and control characters are), and
    what a name may hold stays data on the stream."""
    for evil in ("Eve\n\nevent: end\ndata: {}\n\nid: 99", "Bob \u2028\r\u0000"):
        r = session().post(f"{api.base}/games", json={"type": "splendor", "seats": [{"name": evil}, {"name": "B"}]})
        _problem(r, 400, "validation_error")
    odd = 'Eve: end "data" {}'
    created = create(api.base, "splendor", [{"name": odd}, {"name": "Bob"}], seed=8)
    with requests.get(f"{api.base}/games/{created['id']}/stream", stream=True, timeout=30) as stream:
        kind, id_, data = next(sse_events(stream))
    assert (kind, id_) == ("state", created["version"])
    assert [s["name"] for s in data["seats"]] == [odd, "Bob"]


# ---- every game: moves meant for other games, and mangled moves --------------------------------

def _seats(game_def):
    return [{"name": f"P{i}"} for i in range(game_def.min_seats)]


def _mangled(move: dict, rng: random.Random):
    """Type confusion and nonsense built from a legal move."""
    odd_values = [None, True, -1, 10 ** 30, 1.5, "", "x" * 500, [], {}, [None], ["white"] * 50, {"a": 1},
                  "white", "sp-9-99", "wi-red-99", 0]
    out = []
    for key in move:
        for value in rng.sample(odd_values, 5):
            out.append({**move, key: value})
        dropped = dict(move)
        dropped.pop(key)
        out.append(dropped)
    out.append({**move, "extra": 1})
    out.append({"type": move["type"] + "_"})
    for key, value in move.items():
        if isinstance(value, list) and value:
            out.append({**move, key: value + value})
            out.append({**move, key: value[:1] * 7})
            out.append({**move, key: [[v] for v in value]})
    return out


@pytest.fixture(scope="module")
def inproc(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"hostile{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "TESTING": True, "RATE_LIMIT": 1_000_000})
    app.test_client_class = SpecCheckingClient  # every answer is also checked against openapi.yaml
    return app.test_client()


@pytest.mark.parametrize("game_def", HOSTED, ids=lambda g: g.name)
def test_moves_of_other_games_and_mangled_moves_are_4xx_and_append_nothing(inproc, game_def):
    rng = random.Random(7)
    created = inproc.post("/games", json={"type": game_def.name, "seats": _seats(game_def), "seed": 1}).get_json()
    gid, seat_tokens = created["id"], tokens(created)
    version = created["version"]
    foreign = []
    for other in HOSTED:
        if other.name == game_def.name:
            continue
        o = inproc.post("/games", json={"type": other.name, "seats": _seats(other), "seed": 1}).get_json()
        for seat, token in tokens(o).items():
            foreign += inproc.get(f"/games/{o['id']}/moves?limit=50", headers=auth(token)).get_json()["moves"]
    sent = 0
    for seat, token in seat_tokens.items():
        own = inproc.get(f"/games/{gid}/moves?limit=5000", headers=auth(token)).get_json()["moves"]
        candidates = [m for m in foreign if m not in own]
        for m in rng.sample(own, min(len(own), 6)):
            candidates += [c for c in _mangled(m, rng) if c not in own]
        for move in candidates:
            r = inproc.post(f"/games/{gid}/moves", json={"expected_version": version, "move": move},
                            headers={**auth(token), "Idempotency-Key": uuid.uuid4().hex})
            assert 400 <= r.status_code < 500, (move, r.status_code, r.get_json())
            assert r.mimetype == "application/problem+json"
            sent += 1
    assert sent > 50
    assert inproc.get(f"/games/{gid}").get_json()["version"] == version
