"""A move that is appended stays a success: if Redis fails right after the append (enqueueing
the bot's next turn, saving a snapshot), the move is durable and answered 201, not a 503 that
says "nothing was changed"; the reconciler enqueues the turn that was missed."""
from __future__ import annotations

import uuid

import pytest
import redis
from rq import Queue

from tests.api.helpers import auth
from workers.queueing import job_id
from workers.reconciler import reconcile_once


@pytest.fixture
def app(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"after{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "TESTING": True, "RATE_LIMIT": 1_000_000})
    app.test_client_class = SpecCheckingClient
    return app


def test_a_redis_failure_after_the_append_still_answers_201_and_the_reconciler_enqueues_the_turn(app, redis_client):
    client = app.test_client()
    service = app.extensions["games"]
    scheduler = service.scheduler
    created = client.post("/games", json={"type": "splendor", "seats": [{"name": "Ann"}, {"bot": "greedy"}],
                                          "seed": 4}).get_json()
    gid, token = created["id"], created["seats"][0]["token"]
    listed = client.get(f"/games/{gid}/moves", headers=auth(token)).get_json()

    def broken(*args):
        raise redis.ConnectionError("Redis went away after the append")

    service.scheduler = broken
    try:
        first = client.post(f"/games/{gid}/moves", json={"expected_version": listed["version"], "move": listed["moves"][0]},
                            headers={**auth(token), "Idempotency-Key": "after-1"})
    finally:
        service.scheduler = scheduler
    assert first.status_code == 201, first.get_json()
    version = first.get_json()["version"]
    assert client.get(f"/games/{gid}").get_json()["version"] == version
    again = client.post(f"/games/{gid}/moves", json={"expected_version": listed["version"], "move": listed["moves"][0]},
                        headers={**auth(token), "Idempotency-Key": "after-1"})
    assert again.status_code == 201 and again.get_json() == first.get_json()
    assert reconcile_once(service, scheduler) >= 1
    queued = Queue(app.config["TURN_QUEUE"], connection=redis_client).get_job_ids()
    assert job_id(app.config["KEY_PREFIX"], gid, version, 1) in queued
