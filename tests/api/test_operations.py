"""What an operator reads: readiness and liveness probes, Prometheus metrics, request ids."""
from __future__ import annotations

import uuid

from prometheus_client.parser import text_string_to_metric_families

from tests.conftest import wait_for


def families(text: str) -> dict:
    return {f.name: f for f in text_string_to_metric_families(text)}


def sample(family, **labels) -> float:
    return sum(s.value for s in family.samples
               if s.name.endswith(("_total", "_count")) or s.name == family.name
               if all(s.labels.get(k) == v for k, v in labels.items()))


def test_liveness_answers(client):
    r = client.get("/health/live")
    assert r.status_code == 200 and r.json == {"status": "ok"}


def test_ready_once_workers_and_reconciler_heartbeat(client, workers):
    r = wait_for(lambda: (lambda resp: resp if resp.status_code == 200 else None)(client.get("/health/ready")),
                 timeout=20)
    assert r.json["checks"] == {"redis": "ok", "workers": "ok", "reconciler": "ok", "archive": "ok"}


def test_not_ready_names_what_is_missing(redis_url):
    """An app whose queue no worker serves and whose reconciler never ran."""
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"nr{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns", "TESTING": True})
    app.test_client_class = SpecCheckingClient
    r = app.test_client().get("/health/ready")
    assert r.status_code == 503 and r.mimetype == "application/problem+json"
    assert r.json["code"] == "not_ready" and r.headers["Retry-After"]
    checks = r.json["details"]["checks"]
    assert checks["redis"] == "ok" and checks["workers"] != "ok" and checks["reconciler"] != "ok"
    assert "reconciler" in r.json["detail"] and "workers" in r.json["detail"]


def test_metrics_parse_and_count_requests_moves_and_conflicts(client):
    before = families(client.get("/metrics").get_data(as_text=True))
    created = client.post("/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]}).json
    gid, token = created["id"], created["seats"][0]["token"]
    auth = {"Authorization": f"Bearer {token}"}
    move = client.get(f"/games/{gid}/moves", headers=auth).json["moves"][0]
    assert client.post(f"/games/{gid}/moves", json={"expected_version": created["version"], "move": move},
                       headers=auth).status_code == 201
    stale = client.post(f"/games/{gid}/moves", json={"expected_version": created["version"], "move": move},
                        headers=auth)
    assert stale.status_code in (409, 422)
    r = client.get("/metrics")
    assert r.status_code == 200 and r.mimetype == "text/plain"
    after = families(r.get_data(as_text=True))

    def grew(name, **labels):
        was = sample(before[name], **labels) if name in before else 0
        return sample(after[name], **labels) - was

    assert grew("game_moves_appended", game_type="splendor", actor="person") == 1
    assert grew("http_requests", route="/games/<game_id>/moves", method="POST", status="201") == 1
    assert grew("http_request_duration_seconds", route="/games/<game_id>/moves", method="POST") >= 2
    assert grew("game_version_conflicts", kind="stale") >= (1 if stale.status_code == 409 else 0)
    assert sample(after["games_active"]) >= 1
    assert "turn_queue_depth" in after and "live_streams_open" in after and "redis_errors" in after
    assert "analysis_queue_depth" in after  # the analyses wait in a queue of their own (issue 34)
    assert sample(after["analysis_queue_depth"]) == 0  # the analyses queue of their own (issue 34)


def test_request_ids_are_echoed_or_made(client):
    assert client.get("/health", headers={"X-Request-Id": "abc-123"}).headers["X-Request-Id"] == "abc-123"
    made = client.get("/health", headers={"X-Request-Id": "bad id\twith spaces"}).headers["X-Request-Id"]
    assert made != "bad id\twith spaces" and len(made) == 32


def test_made_up_methods_add_no_metric_series(app):
    """A method HTTP does not define is labelled `other`: 1,000 of them, each new, add no series
    to /metrics and no entry to the process's table of labelled children."""
    import random
    import string

    from api.http import observe

    client = app.test_client()  # a 405 to a made-up method is no documented answer: no spec check
    rng = random.Random(28)

    def made_up():
        return "".join(rng.choices(string.ascii_uppercase + string.digits, k=rng.randint(3, 12)))

    def series():
        text = client.get("/metrics").get_data(as_text=True)
        return sum(1 for f in text_string_to_metric_families(text) if f.name.startswith("http_request")
                   for _ in f.samples)

    for path in ("/", "/games", "/nowhere"):  # the `other` series of each answer exist from here
        client.open(path, method=made_up())
    series(), series()  # /metrics' own series too
    before, held = series(), len(observe._counted)
    for i in range(1000):
        assert client.open(("/", "/games", "/nowhere")[i % 3], method=made_up()).status_code in (404, 405)
    assert series() == before and len(observe._counted) == held
    assert sample(families(client.get("/metrics").get_data(as_text=True))["http_requests"], method="other") >= 1003


def _access_lines(redis_url, formatter, *paths):
    """What ACCESS_LOG=1 writes for GETs of `paths`, through `formatter` (api/logs.py's)."""
    import logging

    from api import logs
    from app import create_app

    prefix = f"al{uuid.uuid4().hex[:6]}:"
    client = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                         "TESTING": True, "ACCESS_LOG": True}).test_client()
    written: list[str] = []
    handler = logging.Handler()
    handler.emit = lambda record: written.append(handler.format(record))
    handler.setFormatter(formatter)
    handler.addFilter(logs.ContextFilter())
    log = logging.getLogger("access")
    log.addHandler(handler)
    was, log.level = log.level, logging.INFO
    try:
        for path in paths:
            client.get(path, headers={"X-Request-Id": "req-al"})
    finally:
        log.removeHandler(handler)
        log.setLevel(was)
    return written


SECRET_PATHS = ("/players/me/stream?ticket=tk-SECRET1&last_event_id=0",
                "/games/g1/seats/1/claim?invite=inv-SECRET2",
                "/games?status=waiting&access_token=SECRET3&api%5Fkey=SECRET4&limit=5",
                "/games/a%0Ab")


def test_the_access_log_redacts_secrets_and_gives_json_its_fields(redis_url):
    import json

    from api import logs

    records = [json.loads(line) for line in _access_lines(redis_url, logs.JsonFormatter(), *SECRET_PATHS)]
    assert len(records) == len(SECRET_PATHS)
    assert not any("SECRET" in json.dumps(r) for r in records), records
    stream, claim, listing, odd = records
    assert stream["path"] == "/players/me/stream?ticket=[redacted]&last_event_id=0"
    assert claim["path"] == "/games/g1/seats/1/claim?invite=[redacted]"
    assert listing["path"] == "/games?status=waiting&access_token=[redacted]&api%5Fkey=[redacted]&limit=5"
    assert odd["path"] == "/games/a%0Ab"
    for record in records:
        assert record["method"] == "GET" and isinstance(record["status"], int)
        assert isinstance(record["duration_ms"], float) and record["request_id"] == "req-al"
        assert record["message"] == f"GET {record['path']} {record['status']} {record['duration_ms']:.1f}ms"
    assert stream["status"] == 401 and odd["status"] == 404


def test_the_text_access_log_redacts_secrets_too(redis_url):
    import logging

    from api import logs

    lines = _access_lines(redis_url, logging.Formatter(logs.TEXT_FORMAT), *SECRET_PATHS)
    assert len(lines) == len(SECRET_PATHS) and "SECRET" not in "".join(lines) and "\n" not in "".join(lines)
    assert "GET /games/g1/seats/1/claim?invite=[redacted] " in lines[1]
