"""Redis SIGKILLed while the archiver moves games (a private Redis, `appendfsync always`, restarted
from its append-only file): every finished game ends in exactly one place, archived once, each
read of it the same to the byte as before, and Redis holding only its marker."""
from __future__ import annotations

import threading
import time
import uuid

import pytest

from domain import registry
from tests.archive.test_archived_reads import _app, answers, play, redis_keys
from tests.conftest import wait_for
from tests.robustness.servers import RedisServer
from workers.archiver import Archiver

# The tier (tests/tiers.py): starts a Redis of its own and kills it.
pytestmark = pytest.mark.process

# 3 archived before the kill and 9 after it: the kill lands mid-sweep (asserted: a pass failed).
# 30 games (as before) cost 25 s of CPU and 125 s here under load; 12: 2.4 s and 8-12 s.
GAMES = 12


def test_redis_killed_mid_archiving_loses_and_doubles_nothing(tmp_path, monkeypatch):
    # A kill between a game's lease and its move leaves the game to the next pass once the lease
    # ends: 60 s in production, 2 s here (the same path, without a minute's wait).
    monkeypatch.setattr("workers.archiver.LEASE_MS", 2000)
    redis_server = RedisServer(tmp_path / "redis").start()
    url, prefix = f"sqlite:///{tmp_path}/archive.sqlite3", f"ark{uuid.uuid4().hex[:6]}:"
    try:
        app = _app(redis_server.url, url, prefix)
        made = [play(app, registry.get("high-card"), seed) for seed in range(GAMES)]
        before = {m["id"]: answers(app, m) for m in made}
        service = app.extensions["games"]
        archiver = Archiver(service.store, service.games, after_s=0)
        stop, errors, passes = threading.Event(), [], []

        def sweep():  # as the reconciler does: a pass, again and again, through the outage
            while not stop.is_set():
                try:
                    passes.append(archiver(limit=3))
                    if not passes[-1]:  # nothing due, or leased: the reconciler waits its interval
                        time.sleep(0.05)  # (a busy loop cost 35 CPU-s here against `appendfsync always`)
                except Exception as e:  # Redis away: the next pass tries again
                    errors.append(type(e).__name__)
                    time.sleep(0.05)

        thread = threading.Thread(target=sweep, daemon=True)
        thread.start()
        wait_for(lambda: sum(p.get("archived", 0) for p in passes) >= 3, timeout=60)
        redis_server.kill()  # mid-sweep: a game half-moved, perhaps
        time.sleep(1.0)
        redis_server.start()
        store = service.store
        wait_for(lambda: not store.archive_due(int(time.time() * 1000), 1000), timeout=60)
        stop.set()
        thread.join(30)
        assert errors, "the kill hit no pass"
        assert store.archive.stats()[0] == GAMES  # each game archived once
        cold = _app(redis_server.url, url, prefix)
        for m in made:
            assert [k for k in redis_keys(app, m["id"]) if ":lease:" not in k] == [store.marker_key(m["id"])]
            assert answers(cold, m) == before[m["id"]]
    finally:
        redis_server.stop()
