"""A crowd of watchers cannot starve moves (issue 13): 1,000 anonymous live streams on one game
of a real `python app.py` (two gevent web workers), then 50 moves from its seats. Every move is
answered 201, /health 200 meanwhile, Redis sees a few connections per process rather than one
per stream, and every stream receives every event once, in order, including the 100 streams
whose connections are cut mid-game and come back with Last-Event-ID during the fan-out."""
from __future__ import annotations

import asyncio
import random
import threading
import time
import uuid

import pytest
import requests

from bench.sse_client import Watcher, raise_open_files_limit
from tests.robustness.helpers import SENDS
from tests.robustness.servers import ApiServer

# The tier (tests/tiers.py): the tests start `python app.py`.
pytestmark = pytest.mark.process

STREAMS = 1000
MOVES = 50
DROPPED = 100  # watchers whose connection is cut after 10 events, then after 30


@pytest.fixture(scope="module")
def server(redis_url, tmp_path_factory):
    """One `python app.py` for the crowd and the slow client (each on a game of its own, the
    crowd's streams all closed when its test ends): a start is some 5 s of CPU here. Its two web
    workers are what the streams are about; of its other workers, one turn worker (the games
    here have no bot and no system move) and no webhook or analysis worker (none is asked for)."""
    if raise_open_files_limit() < STREAMS + 500:
        pytest.skip("the open-files limit is too low for 1,000 streams")
    prefix = f"many{uuid.uuid4().hex[:6]}:"
    api = ApiServer(redis_url, prefix, tmp_path_factory.mktemp("many-logs"), web_workers=2, turn_workers=1,
                    WEBHOOK_WORKERS=0, ANALYSIS_WORKERS=0,
                    SSE_KEEPALIVE_S=5, SSE_MAX_STREAMS_PER_ADDRESS=0, SSE_MAX_STREAMS=2000)
    api.start()
    yield api
    api.stop()


class Crowd:
    """The watchers, on an asyncio loop of their own thread."""

    def __init__(self, port, path, n):
        self.loop = asyncio.new_event_loop()
        self.stop = None
        self.watchers = [Watcher("127.0.0.1", port, path) for _ in range(n)]
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.tasks = self._call(self._start())

    def _call(self, coro, timeout=60):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _start(self):
        self.stop = asyncio.Event()
        tasks = []
        for i, w in enumerate(self.watchers):
            tasks.append(asyncio.ensure_future(w.run(self.stop)))
            if i % 100 == 99:
                await asyncio.sleep(0.15)  # a crowd arriving within the servers' SSE_OPENS_PER_S
        return tasks

    def connected(self):
        return sum(w.connected.is_set() for w in self.watchers)

    def drop(self, watchers):
        self.loop.call_soon_threadsafe(lambda: [w.drop() for w in watchers])

    def close(self):
        async def _stop():
            self.stop.set()
            for w in self.watchers:
                w.drop()
            await asyncio.gather(*self.tasks, return_exceptions=True)

        try:
            self._call(_stop(), timeout=30)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)


def _wait(predicate, timeout, what):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return
        time.sleep(0.1)
    raise AssertionError(f"timed out: {what}")


def test_a_thousand_streams_on_one_game_and_fifty_moves(server, redis_client):
    base = server.base
    http = requests.Session()
    created = http.post(f"{base}/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}],
                                               "seed": 13}).json()
    gid, table = created["id"], {"Authorization": f"Bearer {created['table_token']}"}
    start_version = created["version"]
    clients_before = redis_client.info("clients")["connected_clients"]
    crowd = Crowd(server.port, f"/games/{gid}/stream", STREAMS)
    try:
        _wait(lambda: crowd.connected() == STREAMS, 60, f"{STREAMS} streams open ({crowd.connected()})")
        _wait(lambda: all(w.events for w in crowd.watchers), 30, "every stream's first event")
        assert {(w.events[0][0], w.events[0][1]) for w in crowd.watchers} == {("state", start_version)}
        held = redis_client.info("clients")["connected_clients"] - clients_before
        assert held < 40, f"{held} more Redis connections with {STREAMS} streams open"

        rng = random.Random(13)
        dropped = crowd.watchers[:DROPPED]
        page = http.get(f"{base}/games/{gid}/moves", headers=table).json()
        version = page["version"]
        for n in range(MOVES):
            body, key = {"expected_version": version, "move": rng.choice(page["moves"])}, uuid.uuid4().hex
            for attempt in range(SENDS):  # a keep-alive connection the server closed meanwhile (a
                try:                      # loaded host): the same request, its key, again
                    r = http.post(f"{base}/games/{gid}/moves?include=next_moves&seat={page['seat']}",
                                  json=body, headers={**table, "Idempotency-Key": key}, timeout=30)
                    break
                except requests.exceptions.ConnectionError:
                    if attempt == SENDS - 1:
                        raise
            assert r.status_code == 201, (n, r.status_code, r.text)
            version, page = r.json()["version"], r.json()["next_moves"]
            assert page and page["moves"], "the game ended before 50 moves"
            if n in (10, 30):  # cut 100 connections while the fan-out goes on
                crowd.drop(dropped)
            if n % 10 == 0:
                assert http.get(f"{base}/health", timeout=5).status_code == 200

        expected = list(range(start_version + 1, version + 1))
        assert len(expected) >= MOVES
        _wait(lambda: all(w.ids()[-1:] == [version] for w in crowd.watchers), 60,
              "every stream's last event")
        for i, w in enumerate(crowd.watchers):
            assert w.ids() == expected, f"watcher {i}: {w.ids()[:5]}... ({len(w.ids())} events)"
            assert w.ids("state") == [start_version], f"watcher {i} got the state twice"
        assert all(w.connections >= 2 for w in dropped) and all(w.connections == 1 for w in crowd.watchers[DROPPED:])
        assert http.get(f"{base}/health", timeout=5).status_code == 200
    finally:
        crowd.close()


def test_a_client_that_stops_reading_misses_nothing_and_holds_nobody_up(server, redis_client):
    """A slow client: its socket stops taking bytes while 3 MB of events go out (the reader
    cannot write them all at once: the stream's own greenlet takes over, catching up from the
    store when the ring no longer holds them). Read at last, every event is there once, in
    order; a client reading normally meanwhile had them all at once."""
    import socket

    from events.redis_store import RedisEventStore
    from events.store import NewEvent

    base = server.base
    created = requests.post(f"{base}/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]}).json()
    gid, token = created["id"], created["seats"][0]["token"]
    slow = socket.socket()
    slow.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    slow.connect(("127.0.0.1", server.port))
    slow.sendall(f"GET /games/{gid}/stream HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\n\r\n".encode())
    crowd = Crowd(server.port, f"/games/{gid}/stream", 1)
    crowd.watchers[0].headers["Authorization"] = f"Bearer {token}"
    try:
        _wait(lambda: crowd.watchers[0].events, 30, "the reading client's state")
        store = RedisEventStore(redis_client, server.env["KEY_PREFIX"])
        version, pad = created["version"], "x" * 8000
        for _ in range(8):  # 400 events of 8 kB, as seat 0 sees them: too many for the ring too
            batch = [NewEvent("bid", {"type": "bid", "v": 2, "seat": 0, "chips": 1, "pad": pad}, 0) for _ in range(50)]
            version = store.append(gid, version, batch).version
        expected = list(range(created["version"] + 1, version + 1))
        _wait(lambda: crowd.watchers[0].ids()[-1:] == [version], 30, "the reading client's events")
        assert crowd.watchers[0].ids() == expected
        time.sleep(1)
        slow.settimeout(30)
        received, deadline = b"", time.monotonic() + 120  # keep-alives come every 5 s: recv alone never times out
        while received.count(b"event: game_event") < len(expected):
            ids = [int(line[4:]) for line in received.split(b"\n") if line.startswith(b"id: ")]
            assert time.monotonic() < deadline, (
                f"the slow client has {len(ids)} ids of {len(expected) + 1}: missing "
                f"{sorted(set(expected) - set(ids))[:20]}, repeated {len(ids) - len(set(ids))}, "
                f"{len(received)} bytes, the end: {received[-300:]!r}")
            data = slow.recv(1 << 20)
            assert data, "the server closed the slow client's stream"
            received += data
        ids = [int(line[4:]) for line in received.split(b"\n") if line.startswith(b"id: ")]
        assert ids[0] == created["version"] and ids[1:] == expected  # the state, then each event once
        assert requests.get(f"{base}/health", timeout=5).status_code == 200
    finally:
        slow.close()
        crowd.close()


def test_streams_whose_clients_left_give_their_places_back(redis_url, tmp_path_factory):
    """Clients that vanish while their games are quiet: the keep-alive finds them gone, their
    places are free again (a process holds 20 here), and the server keeps answering."""
    import socket

    api = ApiServer(redis_url, f"gone{uuid.uuid4().hex[:6]}:", tmp_path_factory.mktemp("gone-logs"), api_only=True,
                    web_workers=2, SSE_KEEPALIVE_S=0.3, SSE_MAX_STREAMS=20, SSE_MAX_STREAMS_PER_ADDRESS=0)
    api.start()
    try:
        created = requests.post(f"{api.base}/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]}).json()

        def open_streams(n):
            opened = []
            for _ in range(n):
                s = socket.create_connection(("127.0.0.1", api.port), timeout=10)
                s.sendall(f"GET /games/{created['id']}/stream HTTP/1.1\r\nHost: x\r\n\r\n".encode())
                opened.append((s, s.recv(4096).split(b" ", 2)[1]))
            return opened

        for _ in range(3):
            opened = open_streams(30)  # fits in 2 x 20 however the two workers share them out
            assert [status for _, status in opened].count(b"200") >= 20
            for s, _ in opened:
                s.close()
            time.sleep(1.5)
            started = time.monotonic()
            assert requests.get(f"{api.base}/health", timeout=5).status_code == 200
            assert time.monotonic() - started < 2
        log = open(api.log.name, "rb").read()
        assert b"WORKER TIMEOUT" not in log and b"Traceback" not in log
    finally:
        api.stop()
