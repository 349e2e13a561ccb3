"""Webhooks through a Redis SIGKILL: a private Redis (appendfsync always) killed under a load
of moves on games with subscriptions, and restarted from its append-only file, beneath a real
`python app.py` (its webhook worker's dispatcher, the reconciler). Every acknowledged move
reaches every subscription; the first arrival of each message is in version order (a message
may come again, under its id, as at-least-once allows, never a new one older than one already
sent); what was owed when Redis died arrives within 10 s of its return (a dead holder's lease
is 5 s, not the minute it was). The receivers take 30 ms an answer, so that deliveries are in
flight, their leases held, when Redis dies."""
from __future__ import annotations

import threading
import time
import uuid

import pytest
import requests

from api.webhooks.signing import new_secret
from tests.api.webhook_receiver import Receiver
from tests.conftest import wait_for
from tests.robustness.helpers import auth, create, history, post_move, session, tokens
from tests.robustness.servers import ApiServer, RedisServer

# The tier (tests/tiers.py): `stack` starts a Redis of its own, `python app.py` and workers.
pytestmark = pytest.mark.process

GAMES = 4
CATCH_UP_S = 10.0


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    redis_server = RedisServer(tmp_path_factory.mktemp("webhook-redis")).start()
    api = ApiServer(redis_server.url, "whf:", tmp_path_factory.mktemp("webhook-faults-logs"),
                    WEBHOOK_RETRY_BASE_S="0.2", WEBHOOK_ALLOW_LOOPBACK="1")
    receiver = Receiver()
    try:
        api.start()
        yield redis_server, api, receiver
    finally:
        receiver.close()
        api.stop()
        redis_server.stop()


def _play(base, gid, seat_tokens, answers, stop):
    """Moves until told to stop, each request repeated (same key) until definitely answered."""
    while not stop.is_set():
        try:
            game = session().get(f"{base}/games/{gid}", timeout=10)
            if game.status_code != 200:
                time.sleep(0.05)
                continue
            if game.json()["status"] != "active":
                return
            seat = game.json()["to_act"][0]
            listed = session().get(f"{base}/games/{gid}/moves", headers=auth(seat_tokens[seat]), timeout=10)
            if listed.status_code != 200:
                continue
            listed = listed.json()
        except requests.RequestException:
            time.sleep(0.05)
            continue
        key = uuid.uuid4().hex
        while True:
            try:
                r = post_move(base, gid, seat_tokens[seat], listed["moves"][0], listed["version"], key, timeout=10)
            except requests.RequestException:
                time.sleep(0.05)
                continue
            if r.status_code == 503:
                time.sleep(0.05)
                continue
            assert r.status_code == 201, (r.status_code, r.text)
            answers.append((time.monotonic(), r.json()["version"]))
            break
        time.sleep(0.1)


def test_webhooks_keep_order_and_catch_up_after_redis_is_killed(stack):
    redis_server, api, receiver = stack
    base = api.base
    games = []
    for seed in range(GAMES):
        created = create(base, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=200 + seed)
        secret = new_secret()
        r = session().post(f"{base}/webhooks", headers=auth(created["table_token"]), json={
            "url": receiver.route(f"/{created['id']}", secret, "slow:0.03"), "events": ["game.move"], "secret": secret})
        assert r.status_code == 201, r.text
        games.append((created["id"], tokens(created), created["version"]))
    stop = threading.Event()
    answers = {gid: [] for gid, _, _ in games}
    threads = [threading.Thread(target=_play, args=(base, gid, t, answers[gid], stop)) for gid, t, _ in games]
    for th in threads:
        th.start()
    try:
        wait_for(lambda: sum(len(a) for a in answers.values()) >= 30, timeout=60)
        redis_server.kill()  # SIGKILL mid-load, deliveries in flight
        killed = time.monotonic()
        time.sleep(3.0)
        redis_server.start()
        back = time.monotonic()
        owed = {gid: [v for t, v in a if t < killed] for gid, a in answers.items()}
        before = sum(len(a) for a in answers.values())
        wait_for(lambda: sum(len(a) for a in answers.values()) >= before + 30, timeout=60)
    finally:
        stop.set()
        for th in threads:
            th.join(timeout=60)
    for gid, t, start in games:
        moved = [e["version"] for e in history(base, gid, t[0]) if e["version"] > start]
        expected = [f"{gid}.{v}.move" for v in moved]
        wait_for(lambda: set(expected) <= set(receiver.arrived), timeout=60)
        firsts = list(dict.fromkeys(i for i, _ in receiver.received[f"/{gid}"]))
        assert firsts == expected, f"{gid}: first arrivals out of order or extra: {firsts[:5]}..."
        late = [v for v in owed[gid] if receiver.arrived[f"{gid}.{v}.move"] > back + CATCH_UP_S]
        assert not late, f"{gid}: moves acknowledged before the kill arrived over {CATCH_UP_S} s after Redis was back"
    assert receiver.bad_signatures == []
