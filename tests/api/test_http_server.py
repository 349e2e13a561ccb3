"""End to end over a real HTTP server: `python app.py` (gunicorn + gevent, RQ workers, the
reconciler) against the tests' Redis, driven with `requests`, including the live stream."""
from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import uuid

import pytest
import requests

from tests.conftest import ROOT, wait_for


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(redis_url):
    port = _free_port()
    prefix = f"http{uuid.uuid4().hex[:6]}:"
    env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "HOST": "127.0.0.1",
           "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns", "WEB_WORKERS": "2",
           "EXTRA_GAME_MODULES": "tests.platform.high_card", "SSE_KEEPALIVE_S": "0.5",
           "PYTHONPATH": str(ROOT), "RATE_LIMIT": "1000000"}
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"

    def up():
        try:
            return requests.get(f"{base}/health", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    wait_for(up, timeout=60, interval=0.2)
    yield base
    proc.terminate()
    proc.wait(timeout=20)


def sse_events(response):
    """Parses an SSE response into (event, id, data) tuples as they arrive."""
    event, id_, data = None, None, []
    for line in response.iter_lines(decode_unicode=True):
        if line == "":
            if event:
                yield event, id_, json.loads("\n".join(data))
            event, id_, data = None, None, []
        elif line.startswith("event: "):
            event = line[7:]
        elif line.startswith("id: "):
            id_ = int(line[4:])
        elif line.startswith("data: "):
            data.append(line[6:])


def test_bots_play_a_whole_game_over_http_and_the_stream_tells_it(server):
    r = requests.post(f"{server}/games", json={"type": "high-card", "seats": [{"bot": "random"}, {"bot": "bold"}]})
    assert r.status_code == 201
    gid = r.json()["id"]
    with requests.get(f"{server}/games/{gid}/stream", stream=True, timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        seen = []
        for event, id_, data in sse_events(stream):
            seen.append((event, id_))
            if event == "end":
                break
    assert seen[0][0] == "state"
    versions = [i for e, i in seen if e == "game_event"]
    assert versions == list(range(seen[0][1] + 1, seen[0][1] + 1 + len(versions)))
    final = requests.get(f"{server}/games/{gid}").json()
    assert final["status"] == "finished" and final["version"] == (versions[-1] if versions else seen[0][1])


def test_the_stream_resumes_after_last_event_id_and_hides_others_cards(server):
    r = requests.post(f"{server}/games", json={"type": "high-card", "seats": [{"name": "Ann"}, {"bot": "random"}],
                                              "options": {"rounds": 1}})
    created = r.json()
    token = created["seats"][0]["token"]
    gid = created["id"]
    headers = {"Authorization": f"Bearer {token}", "Last-Event-ID": "2"}
    with requests.get(f"{server}/games/{gid}/stream", headers=headers, stream=True, timeout=30) as stream:
        first = next(sse_events(stream))
    assert first[0] == "game_event" and first[1] == 3  # the deal, no state first, nothing twice
    cards = first[2]["data"]["cards"]
    assert cards[0].startswith("hc-") and cards[1] is None


def test_spec_is_served(server):
    r = requests.get(f"{server}/openapi.yaml")
    assert r.status_code == 200 and "openapi:" in r.text
