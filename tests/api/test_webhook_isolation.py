"""No receiver can stall another's deliveries: a real webhook worker (its dispatcher, real
sender threads) with 100 receivers on 127.0.0.1 that hang every request until their deadline,
and one that answers at once. The healthy subscription's deliveries arrive within a bound far
below one attempt's deadline (a minute here): before the dispatcher, they waited behind the hangs (5 of
8 had not arrived within 60 s). The figure itself, quiet: bench/webhooks.py."""
from __future__ import annotations

import time
import uuid

import pytest

from api.webhooks.signing import new_secret
from tests.api.helpers import auth, create
from tests.api.test_webhooks import subscribe
from tests.api.webhook_receiver import Receiver
from tests.conftest import running_workers, wait_for

# The tier (tests/tiers.py): `iso_app` starts RQ workers.
pytestmark = pytest.mark.process

HANGING = 100
# A hanging attempt lasts a minute here (its idle timeout and deadline), so a healthy delivery
# that waited behind even one would take far past the bound. The bound is generous for a loaded
# 2-core machine: quiet, the deliveries take 10-30 ms; within a full suite run on a host three
# times slower than usual, up to 6.2 s (growing message by message, not a step at a deadline).
HANG_S = 60
BOUND_S = 15.0


@pytest.fixture(scope="module")
def iso_app(redis_url):
    from app import create_app

    prefix = f"whi{uuid.uuid4().hex[:6]}:"
    env = {"WEBHOOK_QUEUE": f"{prefix}webhooks", "WEBHOOK_ALLOW_LOOPBACK": "1",
           "WEBHOOK_TIMEOUT_S": str(HANG_S), "WEBHOOK_DEADLINE_S": str(HANG_S)}
    with running_workers(redis_url, prefix, ("worker", "webhooks", "reconciler"), env):
        yield create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                          "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                          "DEFER_AFTER_APPEND": False})


def _move(client, game):
    seat = client.get(f"/games/{game['id']}").get_json()["to_act"][0]
    listed = client.get(f"/games/{game['id']}/moves?seat={seat}", headers=auth(game["table_token"])).get_json()
    r = client.post(f"/games/{game['id']}/moves?seat={seat}", json={"expected_version": listed["version"],
                    "move": listed["moves"][0]}, headers=auth(game["table_token"]))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def test_a_hundred_hanging_receivers_do_not_delay_a_healthy_one(iso_app):
    client = iso_app.test_client()
    hanging = [Receiver() for _ in range(HANGING)]
    healthy = Receiver()
    try:
        for receiver in hanging:  # each its own destination (port), each with a game to tell
            game = create(client, "splendor", [{"name": "A"}, {"name": "B"}], seed=3)
            secret = new_secret()
            subscribe(client, game["table_token"], receiver.route("/h", secret, "hang"), secret,
                      events=["game.move"])
            _move(client, game)
        wait_for(lambda: sum(r.hanging for r in hanging) >= HANGING // 2)
        game = create(client, "splendor", [{"name": "A"}, {"name": "B"}], seed=4)
        secret = new_secret()
        subscribe(client, game["table_token"], healthy.route("/ok", secret), secret, events=["game.move"])
        sent = {}
        for i in range(12):
            answer = _move(client, game)
            sent[f"{game['id']}.{answer['version']}.move"] = time.monotonic()
            time.sleep(0.25)
        wait_for(lambda: set(sent) <= set(healthy.arrived))
        delays = sorted(healthy.arrived[m] - t for m, t in sent.items())
        assert sum(r.hanging for r in hanging) >= HANGING // 2, "the receivers were hanging meanwhile"
        assert delays[-1] < BOUND_S, f"healthy deliveries took {[round(d, 2) for d in delays]} s"
        ids = [m for m, _ in healthy.received["/ok"]]
        assert ids == sorted(set(ids), key=lambda m: int(m.split(".")[1])), "in order, once each"
    finally:
        for receiver in hanging + [healthy]:
            receiver.close()
