"""End to end over a real HTTP server: `python app.py` (gunicorn + gevent, RQ workers, the
reconciler) against the tests' Redis, driven with `requests`, including the live stream."""
from __future__ import annotations

import requests

from tests.api.helpers import sse_events


def test_bots_play_a_whole_game_over_http_and_the_stream_tells_it(http_server):
    r = requests.post(f"{http_server}/games", json={"type": "high-card", "seats": [{"bot": "random"}, {"bot": "bold"}]})
    assert r.status_code == 201
    gid = r.json()["id"]
    with requests.get(f"{http_server}/games/{gid}/stream", stream=True, timeout=30) as stream:
        assert stream.headers["Content-Type"].startswith("text/event-stream")
        seen = []
        for event, id_, data in sse_events(stream):
            seen.append((event, id_))
            if event == "end":
                break
    assert seen[0][0] == "state"
    versions = [i for e, i in seen if e == "game_event"]
    assert versions == list(range(seen[0][1] + 1, seen[0][1] + 1 + len(versions)))
    final = requests.get(f"{http_server}/games/{gid}").json()
    assert final["status"] == "finished" and final["version"] == (versions[-1] if versions else seen[0][1])


def test_the_stream_resumes_after_last_event_id_and_hides_others_cards(http_server):
    r = requests.post(f"{http_server}/games", json={"type": "high-card", "seats": [{"name": "Ann"}, {"bot": "random"}],
                                              "options": {"rounds": 1}})
    created = r.json()
    token = created["seats"][0]["token"]
    gid = created["id"]
    headers = {"Authorization": f"Bearer {token}", "Last-Event-ID": "2"}
    with requests.get(f"{http_server}/games/{gid}/stream", headers=headers, stream=True, timeout=30) as stream:
        first = next(sse_events(stream))
    assert first[0] == "game_event" and first[1] == 3  # the deal, no state first, nothing twice
    cards = first[2]["data"]["cards"]
    assert cards[0].startswith("hc-") and cards[1] is None


def test_spec_is_served(http_server):
    r = requests.get(f"{http_server}/openapi.yaml")
    assert r.status_code == 200 and "openapi:" in r.text
