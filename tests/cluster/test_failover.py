"""Failover: a primary is SIGKILLed during a stream of moves; its replica is promoted.

With REPLICAS_ACK=1 a move is answered 201 only once the replica online has it (WAIT 1), so
every 201 is in the game's history after the promotion; the API answers 503 (never 500) while
the slot has no primary, and 201 again once the replica has taken over, though it has no
replica of its own (degraded: /health/ready and /metrics say so; events/replication.py). A
cluster of its own (the session's keeps its shape for the other tests)."""
from __future__ import annotations

import threading
import time
import uuid

import pytest
from redis.cluster import key_slot

from tests.cluster.cluster import Cluster
from tests.conftest import wait_for


@pytest.fixture(scope="module")
def own_cluster(queue_url):
    c = Cluster().start()
    yield c
    c.stop()


def replication(client) -> dict:
    """/health/ready's replication report (in `details` when not ready: no workers run here)."""
    body = client.get("/health/ready").get_json()
    return body["replication"] if "replication" in body else body["details"]["replication"]


def test_every_acknowledged_move_survives_the_loss_of_its_primary(own_cluster, queue_url, monkeypatch):
    from app import create_app

    monkeypatch.setenv("REPLICAS_ACK", "1")
    monkeypatch.setenv("REPLICAS_ACK_TIMEOUT_MS", "500")
    prefix = f"fo{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": own_cluster.url, "QUEUE_REDIS_URL": queue_url, "KEY_PREFIX": prefix,
                      "TURN_QUEUE": f"{prefix}turns", "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "ALLOW_CLIENT_SEEDS": True, "DEFER_AFTER_APPEND": False})
    client = app.test_client()
    games = []
    for i in range(6):
        r = client.post("/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}], "seed": i})
        assert r.status_code == 201, r.get_json()
        games.append(r.get_json())
    slot_of = {g["id"]: key_slot(f"{prefix}game:{{{g['id']}}}:events".encode()) for g in games}
    victim = own_cluster.node_for_key(f"{prefix}game:{{{games[0]['id']}}}:events")
    on_victim_node = {g["id"] for g in games
                      if own_cluster.node_for_key(f"{prefix}game:{{{g['id']}}}:events").port == victim.port}
    assert replication(client) == {"replicas_ack": 1, "degraded": []}
    replica = own_cluster.replicas_of(victim)[0]

    answers: list = []  # (time, game, status, body)
    stop = threading.Event()

    def play(game):
        gid, seat_tokens = game["id"], {s["seat"]: s["token"] for s in game["seats"] if "token" in s}
        while not stop.is_set():
            view = client.get(f"/games/{gid}")
            if view.status_code != 200:
                answers.append((time.monotonic(), gid, view.status_code, view.get_json()))
                time.sleep(0.05)
                continue
            seat, version = view.get_json()["to_act"][0], view.get_json()["version"]
            headers = {"Authorization": f"Bearer {seat_tokens[seat]}"}
            listed = client.get(f"/games/{gid}/moves", headers=headers)
            if listed.status_code != 200:
                answers.append((time.monotonic(), gid, listed.status_code, listed.get_json()))
                time.sleep(0.05)
                continue
            move = listed.get_json()["moves"][0]
            r = client.post(f"/games/{gid}/moves", headers={**headers, "Idempotency-Key": uuid.uuid4().hex},
                            json={"expected_version": version, "move": move})
            answers.append((time.monotonic(), gid, r.status_code, r.get_json()))
            if r.status_code != 201:
                time.sleep(0.05)

    threads = [threading.Thread(target=play, args=(g,), daemon=True) for g in games]
    for t in threads:
        t.start()
    time.sleep(1.5)
    killed_at = time.monotonic()
    victim.kill()
    wait_for(lambda: replica.client().info("replication")["role"] == "master"
             and replica.client().cluster("info")["cluster_state"] == "ok", timeout=30, interval=0.05)
    promoted_at = time.monotonic()
    time.sleep(6.0)  # long enough to see the promoted primary, which has no replica, take moves
    stop.set()
    for t in threads:
        t.join(timeout=30)

    statuses = {status for _, _, status, _ in answers}
    assert statuses <= {200, 201, 503}, statuses
    accepted = [(gid, body) for _, gid, status, body in answers if status == 201]
    assert len([1 for at, *_ in answers if at < killed_at]) > 5
    assert any(at > promoted_at and status == 201 for at, _, status, _ in answers), "no move after the failover"
    on_victim = {gid for gid, slot in slot_of.items() if slot == slot_of[games[0]["id"]]}
    assert on_victim
    # The lost primary's games take moves again soon after the promotion, replica or none.
    moved_again = {gid for at, gid, status, _ in answers if status == 201 and at > promoted_at + 3}
    assert on_victim_node <= moved_again, on_victim_node - moved_again
    degraded = replication(client)["degraded"]
    assert degraded == [{"primary": f"127.0.0.1:{replica.port}", "online_replicas": 0}], degraded
    assert "store_primaries_degraded 1.0" in client.get("/metrics").get_data(as_text=True)
    # Every 201 is in the history read after the promotion (once per game: the play has stopped).
    histories = {gid: {e["version"]: e for e in client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]}
                 for gid in {gid for gid, _ in accepted}}
    for gid, body in accepted:
        events = histories[gid]
        for e in body["events"]:
            assert e["version"] in events and events[e["version"]]["type"] == e["type"], (gid, e["version"])
    # 503 only while a slot had no primary (and the clients' view of it caught up: 3 s).
    unavailable = [at for at, _, status, _ in answers if status == 503]
    assert all(killed_at <= at <= promoted_at + 3 for at in unavailable), \
        [round(at - killed_at, 2) for at in unavailable if not killed_at <= at <= promoted_at + 3]
    print(f"failover: promoted {promoted_at - killed_at:.2f} s after the kill; {len(accepted)} moves accepted, "
          f"{len(unavailable)} answered 503")
