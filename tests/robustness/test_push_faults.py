"""Web Push through a killed webhook worker (issue 49, item 3), with real processes: a private
Redis, a webhook worker and the reconciler (`python -m workers`), the web app in this process and
a push service of the tests' own (tests/api/push_service.py).

The issue's reproduction: the webhook worker, idle, blocks in RQ's BLMOVE; frozen (SIGSTOP)
there, Redis still moves the next push job into RQ's intermediate queue on its behalf; SIGKILLed
then, the job stays `queued` in name only. Every later notice of that player found it "waiting"
and queued nothing, for the ~11 minutes until RQ's maintenance failed it; then the device got
every stale `your_turn` at once. Now the job is replaced (workers/queueing lost_job) by the
reconciler's push sweep within a pass once the dead worker's sending lease (if it held one) has
expired, and a `your_turn` its game has moved past is not sent."""
from __future__ import annotations

import os
import signal
import time
import uuid

import pytest
import redis
from rq import Queue

from tests.api.helpers import read
from tests.api.push_service import PushService
from tests.api.test_web_push import play, started_game, subscribe
from tests.conftest import wait_for
from tests.lobby.helpers import player
from tests.robustness.servers import RedisServer, WorkerProcess
from workers.push import LOOK_AGAIN_MS

# The tier (tests/tiers.py): a Redis of its own, worker processes killed.
pytestmark = pytest.mark.process

# Shorter than production's 5 s each (docs/operators.md), so the recovery below takes seconds.
DRAIN_S, QUEUED_GRACE_S, DEADLINE_S = 1.0, 1.0, 3.0
# A dead holder's sending lease (PUSH_DRAIN_S + the attempt's deadline + 2 s: the worker may be
# frozen mid-push), then the sweep's next look (LOOK_AGAIN_MS, 5 s) past a queued job's grace.
RECOVERED_S = DRAIN_S + DEADLINE_S + 2 + LOOK_AGAIN_MS / 1000 + QUEUED_GRACE_S


def _blocked_fresh(client: redis.Redis) -> bool:
    """The worker waits in a BLMOVE issued less than 5 s ago (RQ's lasts 15 s): frozen now,
    it is still blocked when the next job comes."""
    return any(c.get("cmd") == "blmove" and "b" in c.get("flags", "") and int(c.get("idle", 99)) <= 5
               for c in client.client_list())


def test_a_push_job_lost_with_a_killed_worker_is_sent_within_a_sweep_and_no_stale_turn_is(tmp_path):
    server = RedisServer(tmp_path / "redis").start()
    prefix = f"pf{uuid.uuid4().hex[:6]}:"
    key_file = str(tmp_path / "vapid_private.pem")
    env = {"WEBHOOK_QUEUE": f"{prefix}webhooks", "PUSH_ALLOW_LOOPBACK": "1", "VAPID_KEY_FILE": key_file,
           "RECONCILE_INTERVAL": "0.5", "PUSH_DEADLINE_S": str(DEADLINE_S), "PUSH_DRAIN_S": str(DRAIN_S),
           "PUSH_QUEUED_GRACE_S": str(QUEUED_GRACE_S)}
    procs: list[WorkerProcess] = []
    service = PushService()
    try:
        from app import create_app

        app = create_app({"REDIS_URL": server.url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                          "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                          "DEFER_AFTER_APPEND": False, "PUSH_ALLOW_LOOPBACK": True, "VAPID_KEY_FILE": key_file,
                          "PUSH_QUEUED_GRACE_S": QUEUED_GRACE_S})
        client = app.test_client()
        service.server_key = client.get("/push/vapid-public-key").get_json()["public_key"]
        worker = WorkerProcess(server.url, prefix, "webhooks", tmp_path, **env)
        procs += [worker, WorkerProcess(server.url, prefix, "reconciler", tmp_path, **env)]
        ann, bob = player(client, "Ann"), player(client, "Bob")
        ann_phone, bob_phone = service.device(), service.device()
        subscribe(client, ann["key"], ann_phone)
        subscribe(client, bob["key"], bob_phone)
        gid, turns = started_game(client, ann, bob)
        start = turns[0][1]
        wait_for(lambda: ann_phone.payloads("your_turn", gid), timeout=30)  # the worker is up and idle
        keys = {0: ann["key"], 1: bob["key"]}

        redis_client = server.client()
        wait_for(lambda: _blocked_fresh(redis_client), timeout=30, interval=0.1)
        os.kill(worker.pid, signal.SIGSTOP)
        play(client, gid, keys, 1)  # Ann moves: Bob's turn (start + 1); both players' push jobs queued
        intermediate = Queue(f"{prefix}webhooks", connection=redis_client).intermediate_queue_key
        wait_for(lambda: redis_client.llen(intermediate) == 1)
        # The frozen worker popped the first of the two (by player id): that player's pushes stall.
        popped = redis_client.lindex(intermediate, 0).decode()
        victim, other = (bob, ann) if popped.endswith(bob["id"]) else (ann, bob)
        assert popped.endswith(victim["id"])
        phones = {ann["id"]: ann_phone, bob["id"]: bob_phone}
        # Then the victim's turn again, after a move of the other: each one has a your_turn it
        # has played since (Bob: start + 1; Ann, if Bob is the victim: start + 2) and the victim
        # is owed its turn now. Those notices find the popped job "waiting".
        play(client, gid, keys, 2 if victim is bob else 1)
        now = read(client, gid)
        assert now["to_act"] == [0 if victim is ann else 1]
        worker.kill()  # SIGKILL: the popped job is left `queued` in the intermediate queue
        killed = time.monotonic()
        procs.append(WorkerProcess(server.url, prefix, "webhooks", tmp_path, **env))

        def versions(who):
            return [p["version"] for p in phones[who["id"]].payloads("your_turn", gid)]

        wait_for(lambda: now["version"] in versions(victim), timeout=RECOVERED_S + 20)
        recovered_s = time.monotonic() - killed
        print(f"pushes recovered {recovered_s:.1f} s after the kill ({'Bob' if victim is bob else 'Ann'}'s job lost)")
        time.sleep(2.0)  # anything else owed would have come by now
        if victim is bob:
            assert versions(bob) == [start + 3], "Bob's turn now, not the one he has played since"
            assert versions(ann) == [start], "not Ann's turn she has played since"
        else:
            assert versions(ann) == [start, start + 2]
            assert versions(bob) == [], "not Bob's turn he has played since"
        assert recovered_s < RECOVERED_S, f"the lost push job stalled the pushes {recovered_s:.1f} s"
    finally:
        for proc in procs:
            if proc.proc.poll() is None:
                try:
                    os.kill(proc.pid, signal.SIGCONT)
                except ProcessLookupError:
                    pass
                proc.stop()
        service.close()
        server.stop()
    assert not service.problems, service.problems


BATCH = 24  # notices waiting for one registration: more than one push job's look, fewer than BATCH in sending.py
KILLED_AT = 9  # the service's answer to this one comes while Redis is away


def test_a_redis_killed_mid_batch_loses_no_push_and_doubles_at_most_the_one_in_flight(tmp_path):
    """Issue 54: a webhook worker is pushing a batch of a phone's notices through FCM (its fake)
    when the Redis is SIGKILLed, between the service's taking a notice and the cursor's save, and
    started again (its append-only file: what was acknowledged stays). Every notice reaches the
    phone, in order; only the one in flight is sent twice (docs/apps.md: at least once, at most
    one notice doubled per registration and outage). The sending lease, whose release failed
    with Redis away, is freed by its holder once Redis is back: the pushes go on at once, not
    after the lease's time (made longer here, 67 s, than the wait for the last push: held to its
    expiry, as it was, the test fails)."""
    import json
    from collections import Counter

    from events.memory_store import InMemoryEventStore
    from tests import fakes
    from tests.api.fcm_service import FcmService

    server = RedisServer(tmp_path / "redis").start()
    prefix = f"pk{uuid.uuid4().hex[:6]}:"
    fcm = FcmService()
    killed = {"at": None}
    deliver = fcm._deliver

    def deliver_then_kill(device, message):
        deliver(device, message)
        if len(device.received) == KILLED_AT and killed["at"] is None:
            server.kill()  # the service took it; its answer reaches a sender whose Redis is gone
            killed["at"] = time.monotonic()

    fcm._deliver = deliver_then_kill
    env = {"WEBHOOK_QUEUE": f"{prefix}webhooks", "RECONCILE_INTERVAL": "0.5", "PUSH_DEADLINE_S": "60",
           "FCM_CREDENTIALS": json.dumps(fcm.credentials()), "FCM_URL": fcm.origin}
    procs: list[WorkerProcess] = []
    try:
        services = fakes.services(InMemoryEventStore(), redis=server.client(), key_prefix=prefix,
                                  webhook_queue=f"{prefix}webhooks", fcm_credentials=env["FCM_CREDENTIALS"],
                                  fcm_url=fcm.origin)
        phone = fcm.device()
        sub, _ = services.pushes.subs.add_native("p1", "fcm", phone.token, "en")
        players = services.players
        now = int(time.time() * 1000)
        for n in range(BATCH):
            players.write_inbox(players.redis, "p1", {"type": "game_started", "game_id": f"g{n:02d}",
                                                      "game_type": "splendor", "version": 1, "seat": 0, "at": now})
        procs += [WorkerProcess(server.url, prefix, "webhooks", tmp_path, **env),
                  WorkerProcess(server.url, prefix, "reconciler", tmp_path, **env)]
        services.pushes.enqueue("p1")
        wait_for(lambda: killed["at"] is not None, timeout=60)
        time.sleep(1.0)  # an outage: the sender's save, its retries and the sweep all fail meanwhile
        server.start()
        started = time.monotonic()
        games = [f"g{n:02d}" for n in range(BATCH)]
        wait_for(lambda: {p["game_id"] for p in phone.payloads()} == set(games), timeout=50)
        recovered_s = time.monotonic() - started
        wait_for(lambda: services.pushes.subs.cursor("p1", sub.id) == players.inbox_last_id("p1"), timeout=30)
        time.sleep(1.0)  # anything sent again would have come by now
        said = [p["game_id"] for p in phone.payloads()]
        doubled = {g: n for g, n in Counter(said).items() if n > 1}
        print(f"{len(said)} pushes for {BATCH} notices, the last {recovered_s:.1f} s after Redis was back; "
              f"doubled: {doubled}")
        assert set(doubled) <= {games[KILLED_AT - 1]} and all(n == 2 for n in doubled.values()), doubled
        assert list(dict.fromkeys(said)) == games, "in order"
        assert not services.pushes.subs.removed("p1") and services.pushes.subs.failure("p1", sub.id) is None
    finally:
        for proc in procs:
            proc.stop()
        fcm.close()
        server.stop()
    assert not fcm.problems, fcm.problems
