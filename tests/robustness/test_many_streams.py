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
from tests.robustness.servers import ApiServer

STREAMS = 1000
MOVES = 50
DROPPED = 100  # watchers whose connection is cut after 10 events, then after 30


@pytest.fixture
def server(redis_url, tmp_path_factory):
    if raise_open_files_limit() < STREAMS + 500:
        pytest.skip("the open-files limit is too low for 1,000 streams")
    prefix = f"many{uuid.uuid4().hex[:6]}:"
    api = ApiServer(redis_url, prefix, tmp_path_factory.mktemp("many-logs"), web_workers=2,
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
                await asyncio.sleep(0.05)  # a crowd arrives, not one burst the accept queue drops
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
            r = http.post(f"{base}/games/{gid}/moves?include=next_moves&seat={page['seat']}",
                          json={"expected_version": version, "move": rng.choice(page["moves"])},
                          headers={**table, "Idempotency-Key": uuid.uuid4().hex}, timeout=10)
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
