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
    assert r.json["checks"] == {"redis": "ok", "workers": "ok", "reconciler": "ok"}


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
