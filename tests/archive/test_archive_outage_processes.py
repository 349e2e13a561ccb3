"""Issue 49, item 14, with real processes: `python app.py` (its own Redis, gunicorn, a turn
worker, the reconciler) on an archive in PostgreSQL, which is then stopped (a relay of the
test's own between them is taken down: every connection broken, new ones refused; the
machine's server untouched). The node stays ready through the outage (before, the reconciler's
heartbeat stopped with the first failing sweep and `/health/ready` answered 503 for the whole
outage, 11 s after the stop), naming the archive degraded, and is whole again once it is back."""
from __future__ import annotations

import time
from urllib.parse import urlsplit, urlunsplit

import pytest
import requests

from tests.archive.tcp_proxy import TcpProxy
from tests.archive.test_archived_reads import _postgres_schema
from tests.platform.processes import AppProcess

pytestmark = pytest.mark.process

# The reconciler's heartbeat lives 5 passes, at least RECONCILER_HEARTBEAT_MIN_S (10 s by default):
# 3 s here, so the outage outlasts it twice within the probes below.
PASS_S, HEARTBEAT_S = 0.5, 3
# Each web process reads the archive's state at most every ArchiveCheck.every_s (5 s): the probes
# last that and more than twice the heartbeat's life.
PROBES_S = 7.0


def _ready(app: AppProcess) -> tuple[int, dict]:
    r = requests.get(f"{app.base}/health/ready", timeout=5)
    body = r.json()
    return r.status_code, body.get("checks") or body.get("details", {}).get("checks", {})


def _until(app: AppProcess, done, timeout_s: float) -> tuple[int, dict]:
    deadline = time.monotonic() + timeout_s
    while True:
        found = _ready(app)
        if done(*found) or time.monotonic() > deadline:
            return found
        time.sleep(0.5)


def test_a_node_stays_ready_while_its_postgresql_archive_is_stopped(tmp_path, postgres_url):
    direct = urlsplit(_postgres_schema(postgres_url))
    proxy = TcpProxy((direct.hostname or "127.0.0.1", direct.port or 5432)).up()
    url = urlunsplit(direct._replace(netloc=f"{direct.username}@127.0.0.1:{proxy.port}"))
    app = AppProcess(tmp_path, ARCHIVE_URL=url, RECONCILE_INTERVAL=PASS_S, RECONCILER_HEARTBEAT_MIN_S=HEARTBEAT_S)
    try:
        app.start().wait_healthy(60)
        status, checks = _until(app, lambda s, c: s == 200, 60)
        assert (status, checks.get("archive")) == (200, "ok"), checks
        proxy.down()
        seen = []
        deadline = time.monotonic() + PROBES_S
        while time.monotonic() < deadline:
            seen.append(_ready(app))
            time.sleep(0.5)
        assert all(status == 200 for status, _ in seen), [s for s in seen if s[0] != 200][:1]
        last = seen[-1][1]
        assert last["archive"].startswith("degraded"), last
        assert last["reconciler"].startswith("degraded: sweeps failing") and "archive" in last["reconciler"], last
        proxy.up()
        status, checks = _until(app, lambda s, c: c.get("archive") == "ok" and c.get("reconciler") == "ok", 30)
        assert status == 200 and (checks["archive"], checks["reconciler"]) == ("ok", "ok"), checks
    finally:
        app.close()
        proxy.down()
