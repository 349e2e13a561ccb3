"""Budgets for every caller (issue 14): per token, exact under concurrency; per address for
requests without a token (reads, streams opened), for creation, and for failed
authentications; the RateLimit headers; 429 with Retry-After."""
from __future__ import annotations

import re
import threading
import uuid

import pytest
import requests

from tests.api.helpers import auth, create, tokens


def _app(redis_url, **config):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"rl{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "TESTING": True, "ALLOW_CLIENT_SEEDS": True, **config})
    app.test_client_class = SpecCheckingClient
    return app


def _from(address):
    return {"environ_base": {"REMOTE_ADDR": address}}


def test_a_token_over_its_budget_gets_429_with_retry_after(redis_url):
    client = _app(redis_url, RATE_LIMIT=5, RATE_WINDOW_S=30).test_client()
    created = create(client, "high-card")
    t = tokens(created)
    gid = created["id"]
    codes = [client.get(f"/games/{gid}", headers=auth(t[0])).status_code for _ in range(8)]
    assert codes[:5] == [200] * 5 and codes[5:] == [429] * 3
    limited = client.get(f"/games/{gid}/moves", headers=auth(t[0]))
    body = limited.get_json()
    assert body["code"] == "rate_limited" and limited.mimetype == "application/problem+json"
    assert 1 <= int(limited.headers["Retry-After"]) <= 30
    assert body["details"]["ratelimit"] == {"key": "token", "seconds": int(limited.headers["Retry-After"])}
    assert limited.headers["RateLimit-Policy"] == '"token";q=5;w=30'
    assert re.fullmatch(r'"token";r=0;t=\d+', limited.headers["RateLimit"])
    # Another seat's token has its own budget, and spectators count against their address.
    assert client.get(f"/games/{gid}", headers=auth(t[1])).status_code == 200
    assert client.get(f"/games/{gid}").status_code == 200


def test_the_table_of_known_headers_keeps_no_token(redis_url):
    """The per-process table that saves parsing a known Authorization header again holds the
    headers' hashes, never the headers: a secret stays out of the process's lasting memory."""
    from api.http import request_limits

    client = _app(redis_url).test_client()
    created = create(client, "high-card")
    seat = tokens(created)[0]
    assert client.get(f"/games/{created['id']}", headers=auth(seat)).status_code == 200
    assert f"Bearer {seat}" not in request_limits._subjects
    assert all(not isinstance(k, str) for k in request_limits._subjects) and hash(f"Bearer {seat}") in request_limits._subjects


def test_every_limited_answer_says_what_is_left(redis_url):
    client = _app(redis_url, RATE_LIMIT=50, RATE_WINDOW_S=10, ADDRESS_READ_LIMIT=40, ADDRESS_WINDOW_S=60).test_client()
    created = create(client, "high-card")
    gid, t = created["id"], tokens(created)
    first = client.get(f"/games/{gid}", headers=auth(t[0]))
    second = client.get(f"/games/{gid}", headers=auth(t[0]))
    assert first.headers["RateLimit-Policy"] == '"token";q=50;w=10'
    left = [int(re.search(r";r=(\d+);", r.headers["RateLimit"]).group(1)) for r in (first, second)]
    assert left == [49, 48]
    anonymous = client.get(f"/games/{gid}")
    assert anonymous.headers["RateLimit-Policy"] == '"address";q=40;w=60'
    assert "RateLimit" not in client.get("/health").headers


def test_requests_without_a_token_are_limited_per_address(redis_url):
    client = _app(redis_url, ADDRESS_READ_LIMIT=5, ADDRESS_STREAM_LIMIT=2, ADDRESS_WINDOW_S=60,
                  SSE_MAX_SECONDS=0.01, SSE_KEEPALIVE_S=0.01).test_client()
    created = client.post("/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]},
                          **_from("10.0.0.9")).get_json()
    gid = created["id"]
    codes = [client.get(f"/games/{gid}/events", **_from("10.0.0.1")).status_code for _ in range(7)]
    assert codes == [200] * 5 + [429] * 2
    refused = client.get("/game-types", **_from("10.0.0.1"))
    assert refused.status_code == 429 and refused.get_json()["details"]["ratelimit"]["key"] == "address"
    assert client.get(f"/games/{gid}", **_from("10.0.0.2")).status_code == 200  # another address
    # a seat's token counts against the token, not the address
    assert client.get(f"/games/{gid}", headers=auth(tokens(created)[0]), **_from("10.0.0.1")).status_code == 200
    streams = []
    for _ in range(3):
        r = client.get(f"/games/{gid}/stream", **_from("10.0.0.3"))
        r.get_data()  # the stream ends after SSE_MAX_SECONDS
        r.close()
        streams.append(r)
    assert [r.status_code for r in streams] == [200, 200, 429]
    assert streams[2].get_json()["details"]["ratelimit"]["key"] == "stream"


def test_creation_is_limited_per_address_token_or_not(redis_url):
    client = _app(redis_url, ADDRESS_CREATE_LIMIT=3, ADDRESS_WINDOW_S=60).test_client()
    body = {"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]}
    codes = [client.post("/games", json=body, **_from("10.1.0.1")).status_code for _ in range(3)]
    assert codes == [201] * 3
    for headers in ({}, auth("made-up-token-" + uuid.uuid4().hex)):
        r = client.post("/games", json=body, headers=headers, **_from("10.1.0.1"))
        assert r.status_code == 429 and r.get_json()["details"]["ratelimit"]["key"] == "create", r.get_json()
    assert client.post("/games", json=body, **_from("10.1.0.2")).status_code == 201


def test_failed_authentications_are_limited_per_address(redis_url):
    client = _app(redis_url, ADDRESS_AUTH_FAILURES=3, ADDRESS_WINDOW_S=60).test_client()
    created = create(client, "high-card")
    gid, t = created["id"], tokens(created)
    guesses = [client.get(f"/games/{gid}", headers=auth(f"{gid}.0.guess{i}"), **_from("10.2.0.1")).status_code
               for i in range(3)]
    assert guesses == [401] * 3
    for token in ("another-guess", t[0]):  # even the right token, from that address, until the window ends
        r = client.get(f"/games/{gid}", headers=auth(token), **_from("10.2.0.1"))
        assert r.status_code == 429 and r.get_json()["details"]["ratelimit"]["key"] == "auth_failures"
    assert client.get(f"/games/{gid}", headers=auth(t[0]), **_from("10.2.0.2")).status_code == 200


def test_failed_recovery_codes_passkeys_and_tickets_count_as_failed_authentications(redis_url):
    """Issue 49 (10): 60 wrong recovery codes answered 401 and never 429."""
    client = _app(redis_url, ADDRESS_AUTH_FAILURES=8, ADDRESS_WINDOW_S=60).test_client()
    ann = client.post("/players", json={"name": "Ann"}, **_from("10.4.0.9")).get_json()
    guesser = _from("10.4.0.1")
    failed = [client.post("/recover", json={"code": f"rc.guess{i}"}, **guesser) for i in range(2)]
    failed += [client.post("/passkeys/sign-in", json={"credential": {"id": f"made-up-{i}"}}, **guesser)
               for i in range(2)]
    failed += [client.get(f"/players/me/stream?ticket=guess{i}", **guesser) for i in range(2)]
    # A step-up's refused proof (issue 51) is a failed authentication too, though a 403.
    failed += [client.post("/players/me/step-up", json={"recovery_code": f"rc.guess{i}"}, headers=auth(ann["key"]),
                           **guesser) for i in range(2)]
    assert [(r.status_code, r.get_json()["code"]) for r in failed] == [
        (401, "invalid_recovery_code")] * 2 + [(401, "passkey_refused")] * 2 + [(401, "invalid_ticket")] * 2 + [
        (403, "step_up_refused")] * 2
    for attempt in (lambda: client.post("/recover", json={"code": ann["recovery_code"]}, **guesser),  # even the right code
                    lambda: client.post("/passkeys/sign-in", json={"credential": {}}, **guesser),
                    lambda: client.get("/players/me", headers=auth(ann["key"]), **guesser)):
        r = attempt()
        assert r.status_code == 429 and r.get_json()["details"]["ratelimit"]["key"] == "auth_failures", r.get_json()
    assert client.get("/game-types", **guesser).status_code == 200  # what presents no credential goes on
    assert client.post("/recover", json={"code": ann["recovery_code"]}, **_from("10.4.0.2")).status_code == 201


def test_behind_a_trusted_proxy_the_forwarded_address_is_the_one_limited(redis_url):
    client = _app(redis_url, ADDRESS_READ_LIMIT=2, ADDRESS_WINDOW_S=60, TRUSTED_PROXIES="10.9.0.1").test_client()
    for client_ip in ("203.0.113.5", "203.0.113.6"):
        codes = [client.get("/game-types", headers={"X-Forwarded-For": client_ip}, **_from("10.9.0.1")).status_code
                 for _ in range(3)]
        assert codes == [200, 200, 429]
    # from an untrusted peer the header is ignored: the peer is limited, whatever it claims
    codes = [client.get("/game-types", headers={"X-Forwarded-For": f"198.51.100.{i}"}, **_from("10.9.0.2")).status_code
             for i in range(3)]
    assert codes == [200, 200, 429]


def test_processes_share_the_budget_through_redis(redis_client):
    """Two API processes (two limiters on one Redis) together admit at least the limit, and
    at most a tenth of it more."""
    from api.http.ratelimit import RateLimiter

    prefix = f"rl{uuid.uuid4().hex[:6]}:"
    a, b = (RateLimiter(redis_client, prefix, limit=50, window_s=3600) for _ in range(2))
    allowed = sum(1 for i in range(200) if not (a if i % 2 else b).retry_after("token:x"))
    assert 50 <= allowed <= 50 + 50 // 10 - 1
    assert a.retry_after("token:x") > 0 and b.retry_after("token:x") > 0
    assert not a.retry_after("token:other")  # every token has its own budget


@pytest.fixture
def limited_server(redis_url, tmp_path):
    from tests.robustness.servers import ApiServer

    api = ApiServer(redis_url, f"rlh{uuid.uuid4().hex[:6]}:", tmp_path, api_only=True, web_workers=2,
                    RATE_LIMIT=100, RATE_WINDOW_S=3600).start()
    yield api
    api.stop()


@pytest.mark.process
def test_concurrent_requests_of_one_token_are_counted_once(limited_server, redis_client):
    """Two bursts of 40 concurrent requests (gevent serves them at once in each web process),
    then the rest of the budget: the token gets every one of its 100 requests, and Redis counts
    each request once. Before: such bursts were counted 112-366 times, answered 429s, and the
    token then got 36 of its 100."""
    base = limited_server.base
    created = requests.post(f"{base}/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]},
                            timeout=15).json()
    gid, token = created["id"], tokens(created)[0]
    codes: list = []
    lock = threading.Lock()
    sessions = [requests.Session() for _ in range(40)]
    for s in sessions:
        s.get(f"{base}/health", timeout=15)  # a warm keep-alive connection each (health is not limited)

    def one(s, barrier):
        barrier.wait()
        status = s.get(f"{base}/games/{gid}", headers=auth(token), timeout=30).status_code
        with lock:
            codes.append(status)

    for _ in range(2):
        barrier = threading.Barrier(len(sessions))
        threads = [threading.Thread(target=one, args=(s, barrier)) for s in sessions]
        for th in threads:
            th.start()
        for th in threads:
            th.join()
    assert codes.count(200) == 80, codes
    with requests.Session() as s:
        rest = [s.get(f"{base}/games/{gid}", headers=auth(token), timeout=30).status_code for _ in range(30)]
    assert rest[:20] == [200] * 20, rest  # the whole budget, every time
    assert rest.count(200) <= 20 + 10 and rest[-1] == 429  # two processes: at most a tenth more
    # Redis counted each request at most once (before: 112-366 for 110)
    prefix = limited_server.env["KEY_PREFIX"]
    counted = sum(int(redis_client.get(k)) for k in redis_client.scan_iter(f"{prefix}rate:token:*"))
    assert 100 <= counted <= 110, counted
    for s in sessions:
        s.close()
