"""`python -m tools.archive` on a deployment made before the archive: every finished game is
archived (reads unchanged), the unfinished ones are left, a second run has nothing to do, and
it says Redis's memory before and after."""
from __future__ import annotations

import os
import subprocess
import sys
import uuid
from pathlib import Path

import pytest

from domain import registry
from tests.archive.test_archived_reads import _app, answers, play, redis_keys

ROOT = Path(__file__).resolve().parent.parent.parent


def _tool(redis_url, prefix, url):
    env = {**os.environ, "REDIS_URL": redis_url, "KEY_PREFIX": prefix, "ARCHIVE_URL": url,
           "EXTRA_GAME_MODULES": "tests.platform.high_card"}
    done = subprocess.run([sys.executable, "-m", "tools.archive"], cwd=ROOT, env=env, capture_output=True,
                          timeout=300, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    return done


@pytest.mark.process
def test_the_tool_archives_an_older_deployments_finished_games(redis_url, tmp_path):
    url, prefix = f"sqlite:///{tmp_path}/archive.sqlite3", f"art{uuid.uuid4().hex[:6]}:"
    app = _app(redis_url, url, prefix)
    store, client = app.extensions["games"].store, app.test_client()
    made = [play(app, registry.get("high-card"), seed) for seed in (1, 2, 3)]
    live = client.post("/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}]}).get_json()
    store.redis.delete(*[store.due_key(bucket=b) for b in range(store.keys.buckets)])  # as before the archive
    before = [answers(app, m) for m in made]
    log = store.keys.finished_log()
    store.redis.xadd(log, {"g": made[0]["id"], "e": b"{}"})  # a second logging's entry, left in the log
    # A keyspace larger than one step of the sweep's walk over the idempotency records (2,000
    # keys looked at), as a real deployment's: the tool's walk is whole, wherever the sweep's was.
    filler = [f"{prefix}filler:{i}" for i in range(30_000)]
    for i in range(0, len(filler), 5000):
        store.redis.mset({k: b"" for k in filler[i:i + 5000]})
    try:
        done = _tool(redis_url, prefix, url)
    finally:
        for i in range(0, len(filler), 5000):
            store.redis.delete(*filler[i:i + 5000])
    assert "archived: 3" in done.stdout and "unfinished: 1" in done.stdout, done.stdout
    assert "Redis used_memory:" in done.stdout and "3 games" in done.stdout
    assert "3/4 games" in done.stderr or "4/4 games" in done.stderr  # the progress bar
    for m, b in zip(made, before, strict=True):
        assert [k for k in redis_keys(app, m["id"]) if ":lease:" not in k] == [store.marker_key(m["id"])]
        assert answers(_app(redis_url, url, prefix), m) == b
    assert store.version(live["id"]) == live["version"]
    assert store.redis.xlen(log) == 0  # the archived games' entries are the archive's
    assert store.keys.meta(live["id"]) in redis_keys(app, live["id"])  # a game still played stays
    again = _tool(redis_url, prefix, url)
    assert "archived" not in again.stdout.split(";")[1] and "unfinished: 1" in again.stdout, again.stdout
