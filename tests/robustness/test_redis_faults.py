"""Redis faults, against a private redis-server run with the project's recommended setting
(`appendonly yes`, `appendfsync always`: a write is in the append-only file, fsynced, before
Redis answers it) and a real `python app.py` (gunicorn + gevent, RQ workers, reconciler):

- Redis stopped while the API serves: every request that needs it answers a 503
  problem+json with Retry-After, promptly; nothing is half-written; Redis back, the API (and
  its workers) recover without a restart.
- Redis killed (SIGKILL) under a load of moves and restarted from its append-only file: every
  move answered 201 is there, at its version; clients that got a 503 retry with the same
  Idempotency-Key and get exactly one event each.
"""
from __future__ import annotations

import threading
import time
import uuid

import pytest
import requests

from tests.conftest import wait_for
from tests.robustness.helpers import (
    auth,
    check_history_accounts_for_every_answer,
    create,
    history,
    is_problem,
    post_move,
    read,
    session,
    sse_events,
    tokens,
)
from tests.robustness.servers import APPENDFSYNC, ApiServer, RedisServer

# The tier (tests/tiers.py): `stack` starts a Redis of its own and `python app.py`.
pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def stack(tmp_path_factory):
    redis_server = RedisServer(tmp_path_factory.mktemp("faulty-redis")).start()
    api = ApiServer(redis_server.url, "faults:", tmp_path_factory.mktemp("faults-logs"))
    try:
        api.start()
        yield redis_server, api
    finally:
        api.stop()
        redis_server.stop()


def test_the_private_redis_runs_with_the_recommended_fsync_setting(stack, tmp_path):
    redis_server, _ = stack
    config = redis_server.client().config_get("append*")
    assert config["appendonly"] == "yes" and config["appendfsync"] == APPENDFSYNC == "always"
    # and the Redis `python app.py` starts for itself (no REDIS_URL) is run the same way
    from events import local_redis

    url, proc = local_redis.start(tmp_path / "own")
    try:
        import redis

        own = redis.Redis.from_url(url).config_get("append*")
        assert own["appendonly"] == "yes" and own["appendfsync"] == "always"
    finally:
        proc.terminate()
        proc.wait(timeout=10)


def _unavailable(r):
    assert r.status_code == 503, (r.status_code, r.text[:300])
    assert is_problem(r) and r.json()["code"] == "store_unavailable"
    assert int(r.headers["Retry-After"]) > 0


def test_redis_stopped_then_back_every_request_503_then_recovery_without_restart(stack):
    redis_server, api = stack
    base = api.base
    created = create(base, "splendor", [{"name": "Ann"}, {"bot": "greedy"}], seed=9)
    gid, t = created["id"], tokens(created)
    listed = session().get(f"{base}/games/{gid}/moves", headers=auth(t[0])).json()
    assert post_move(base, gid, t[0], listed["moves"][0], listed["version"]).status_code == 201
    wait_for(lambda: read(base, gid)["to_act"] == [0], timeout=30)  # the bot answered
    version = read(base, gid)["version"]
    listed = session().get(f"{base}/games/{gid}/moves", headers=auth(t[0])).json()

    redis_server.stop()
    key = uuid.uuid4().hex
    requests_during_outage = [
        lambda: session().get(f"{base}/health"),
        lambda: session().get(f"{base}/games/{gid}"),
        lambda: session().get(f"{base}/games/{gid}", headers=auth(t[0])),
        lambda: session().get(f"{base}/games/{gid}/moves", headers=auth(t[0])),
        lambda: session().get(f"{base}/games/{gid}/events"),
        lambda: session().get(f"{base}/games/{gid}/state?version={version}"),
        lambda: session().get(f"{base}/games/{gid}/stream", timeout=10),
        lambda: session().post(f"{base}/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]}),
        lambda: post_move(base, gid, t[0], listed["moves"][0], version, key),
        lambda: session().post(f"{base}/games/{gid}/moves?dry_run=true", headers=auth(t[0]),
                               json={"expected_version": version, "move": listed["moves"][0]}),
    ]
    for _ in range(2):  # twice: every web worker's connections have seen the outage
        for send in requests_during_outage:
            started = time.monotonic()
            _unavailable(send())
            assert time.monotonic() - started < 5, "a 503 must come promptly"
    assert session().get(f"{base}/game-types").status_code == 200  # needs no Redis

    redis_server.start()  # from its append-only file
    wait_for(lambda: session().get(f"{base}/health").status_code == 200, timeout=30, interval=0.2)
    assert read(base, gid, t[0])["version"] == version, "nothing was half-written"
    # the move refused during the outage can be sent again, with the same key, and counts once
    r = post_move(base, gid, t[0], listed["moves"][0], version, key)
    assert r.status_code == 201, r.text
    assert post_move(base, gid, t[0], listed["moves"][0], version, key).json() == r.json()
    # the workers came back too: the bot answers
    wait_for(lambda: read(base, gid)["version"] > version + 1, timeout=45, interval=0.1)


def test_redis_killed_under_load_loses_no_acknowledged_move(stack):
    redis_server, api = stack
    base = api.base
    games = []
    for seed in range(4):
        created = create(base, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=100 + seed)
        games.append((created["id"], tokens(created)))
    stop = threading.Event()
    answers = {gid: [] for gid, _ in games}
    outcomes = {"201": 0, "503": 0, "conn": 0}
    lock = threading.Lock()

    def play(gid, seat_tokens):
        for _ in range(2000):
            if stop.is_set():
                return
            try:
                game = session().get(f"{base}/games/{gid}", timeout=10)
                if game.status_code != 200:
                    with lock:
                        outcomes["503" if game.status_code == 503 else "conn"] += 1
                    time.sleep(0.05)
                    continue
                seat = game.json()["to_act"][0]
                listed = session().get(f"{base}/games/{gid}/moves", headers=auth(seat_tokens[seat]), timeout=10)
                if listed.status_code != 200:
                    with lock:
                        outcomes["503" if listed.status_code == 503 else "conn"] += 1
                    continue
                listed = listed.json()
            except requests.RequestException:
                with lock:
                    outcomes["conn"] += 1
                continue
            move, version, key = listed["moves"][0], listed["version"], uuid.uuid4().hex
            for _attempt in range(200):  # the same request until it has a definite answer
                try:
                    r = post_move(base, gid, seat_tokens[seat], move, version, key, timeout=10)
                except requests.RequestException:
                    with lock:
                        outcomes["conn"] += 1
                    time.sleep(0.05)
                    continue
                if r.status_code == 503:
                    with lock:
                        outcomes["503"] += 1
                    time.sleep(0.05)
                    continue
                assert r.status_code == 201, (r.status_code, r.text)  # one client per game: no conflict
                with lock:
                    outcomes["201"] += 1
                answers[gid].append((seat, r.json()))
                break
            else:
                raise AssertionError("a retried move never got a definite answer")

    threads = [threading.Thread(target=play, args=g) for g in games]
    for th in threads:
        th.start()
    try:
        wait_for(lambda: sum(len(a) for a in answers.values()) >= 20, timeout=30)
        redis_server.kill()  # SIGKILL mid-load: no shutdown, no flush
        time.sleep(1.0)
        redis_server.start()
        before = sum(len(a) for a in answers.values())
        wait_for(lambda: sum(len(a) for a in answers.values()) >= before + 20, timeout=45)
    finally:
        stop.set()
        for th in threads:
            th.join(timeout=60)
    assert outcomes["503"] + outcomes["conn"] > 0, "the kill did not hit any request"
    for gid, seat_tokens in games:
        histories = {seat: history(base, gid, tok) for seat, tok in seat_tokens.items()}
        check_history_accounts_for_every_answer(histories, answers[gid], set(seat_tokens))


def test_a_live_stream_outlives_a_redis_outage_and_misses_nothing(stack):
    redis_server, api = stack
    base = api.base
    created = create(base, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=12)
    gid, t = created["id"], tokens(created)
    with requests.get(f"{base}/games/{gid}/stream", headers=auth(t[1]), stream=True, timeout=30) as stream:
        events = sse_events(stream)
        kind, version, _ = next(events)
        assert kind == "state"
        redis_server.stop()
        time.sleep(1.5)  # the stream keeps the connection with comments meanwhile
        redis_server.start()
        wait_for(lambda: session().get(f"{base}/health").status_code == 200, timeout=30, interval=0.2)
        listed = session().get(f"{base}/games/{gid}/moves", headers=auth(t[0])).json()
        r = post_move(base, gid, t[0], listed["moves"][0], listed["version"])
        assert r.status_code == 201, r.text
        kind, id_, data = next(events)
        assert (kind, id_) == ("game_event", version + 1) and data["actor"] == 0


def test_a_player_stream_outlives_redis_killed_and_restarted(stack):
    """The hub's reader follows the player's inbox; Redis killed (SIGKILL) under it and started
    again from its append-only file, the reader reconnects (its failed read is retried on a new
    connection, from the inbox position it holds) and the stream carries on."""
    redis_server, api = stack
    base = api.base
    ann = session().post(f"{base}/players", json={"name": "Ann"}).json()
    bob = session().post(f"{base}/players", json={"name": "Bob"}).json()
    with requests.get(f"{base}/players/me/stream", headers=auth(ann["key"]), stream=True, timeout=30) as stream:
        lines = stream.iter_lines(decode_unicode=True)
        assert next(lines) == "retry: 1000"
        redis_server.kill()
        time.sleep(1.5)
        redis_server.start()
        wait_for(lambda: session().get(f"{base}/health").status_code == 200, timeout=30, interval=0.2)
        created = session().post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                                 headers=auth(ann["key"])).json()
        r = session().post(f"{base}/games/{created['id']}/seats/1/claim", headers=auth(bob["key"]))
        assert r.status_code in (200, 201), r.text
        kinds = []
        for line in lines:
            if line.startswith("event: "):
                kinds.append(line[7:])
                if line == "event: your_turn":
                    break
        assert kinds == ["seat_claimed", "game_started", "your_turn"]
