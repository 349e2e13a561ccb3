"""The per-address limit of live streams is one client's, whichever process it reaches: two API
processes (bare gunicorn, one gevent worker each) on one Redis share it through leases
(api/live/leases.py), and the slots of a process that dies without closing its streams free
themselves once their lease runs out."""
from __future__ import annotations

import http.client
import json
import os
import signal
import time
import uuid

import pytest
import requests

from tests.conftest import wait_for
from tests.robustness.servers import ApiServer

# The tier (tests/tiers.py): `servers` starts two `python app.py`.
pytestmark = pytest.mark.process

LIMIT = 3
LEASE_S = 2


@pytest.fixture
def servers(redis_url, tmp_path_factory):
    prefix = f"lease{uuid.uuid4().hex[:6]}:"
    logs = tmp_path_factory.mktemp("lease-logs")
    pair = [ApiServer(redis_url, prefix, logs, api_only=True, web_workers=1, SSE_MAX_STREAMS_PER_ADDRESS=LIMIT,
                      SSE_STREAM_LEASE_S=LEASE_S) for _ in range(2)]
    try:
        for server in pair:
            server.start()
        yield pair
    finally:
        for server in pair:
            server.stop()


class Opened:
    """One stream's answer on a connection of its own, held open until close()."""

    def __init__(self, base: str, gid: str):
        host, port = base.removeprefix("http://").split(":")
        self.connection = http.client.HTTPConnection(host, int(port), timeout=10)
        self.connection.request("GET", f"/games/{gid}/stream")
        self.response = self.connection.getresponse()
        self.status_code = self.response.status
        self.headers = self.response.headers
        if self.status_code == 200:
            assert self.response.read1(65536).startswith(b"id: ")  # the state frame: the stream is open
        else:
            self.body = self.response.read()
            self.connection.close()

    def json(self):
        return json.loads(self.body)

    @property
    def text(self):
        return getattr(self, "body", b"").decode()

    def close(self):
        self.connection.close()


def _open(base: str, gid: str) -> Opened:
    return Opened(base, gid)


def _worker_pid(master: int) -> int:
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    if int(f.read().rsplit(")", 1)[1].split()[1]) == master:
                        return int(entry)
            except (OSError, IndexError, ValueError):
                continue
    raise AssertionError(f"no worker of {master}")


def test_two_processes_share_one_addresss_stream_limit(servers):
    a, b = servers
    created = requests.post(f"{a.base}/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]},
                            timeout=10).json()
    gid = created["id"]
    held = []
    try:
        held += [_open(a.base, gid), _open(a.base, gid), _open(b.base, gid)]
        assert [r.status_code for r in held] == [200, 200, 200]
        for base in (a.base, b.base):  # each process holds fewer than 3, the address holds 3
            r = _open(base, gid)
            assert r.status_code == 429, r.text
            assert r.json()["code"] == "too_many_streams" and r.headers["Retry-After"]
        held.pop(0).close()  # a slot given back on one process is free on the other
        wait_for(lambda: _retry_open(b.base, gid, held), timeout=10)
        assert _open(a.base, gid).status_code == 429

        # A process that dies holding streams (its worker killed: no close, no release)...
        worker = _worker_pid(a.proc.pid)
        os.kill(worker, signal.SIGKILL)
        assert _open(b.base, gid).status_code == 429  # ...holds its slots until the lease ends,
        time.sleep(LEASE_S * 2)  # (b's own stream lives on: its lease is renewed meanwhile)
        fresh = [_open(b.base, gid) for _ in range(LIMIT - 2)]
        assert [r.status_code for r in fresh] == [200] * (LIMIT - 2)
        held += fresh
        assert _open(b.base, gid).status_code == 429
        # An idle stream gets its keep-alives (SSE_KEEPALIVE_S 0.5 s; the hub's tick writes them).
        got = b""
        while b": keep-alive" not in got:
            got += fresh[0].response.read1(65536)
    finally:
        for r in held:
            r.close()


def _retry_open(base, gid, held) -> bool:
    r = _open(base, gid)
    if r.status_code == 200:
        held.append(r)
        return True
    r.close()
    return False
