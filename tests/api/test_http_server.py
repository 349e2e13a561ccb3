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


def test_a_table_token_plays_a_splendor_game_to_the_end_one_request_per_move(http_server):
    """Pass-and-play over real HTTP: each answer's next_moves is the next move's menu; the
    worker scores the game once nobody is left to play."""
    import random
    import time

    rng = random.Random(4)
    created = requests.post(f"{http_server}/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}],
                                                          "seed": 4}).json()
    gid = created["id"]
    session = requests.Session()
    session.headers["Authorization"] = f"Bearer {created['table_token']}"
    page = session.get(f"{http_server}/games/{gid}/moves").json()
    nxt = {"seat": page["seat"], "version": page["version"], "moves": page["moves"]}
    posts = 0
    while nxt is not None:
        r = session.post(f"{http_server}/games/{gid}/moves?include=next_moves&seat={nxt['seat']}",
                         json={"expected_version": nxt["version"], "move": rng.choice(nxt["moves"])},
                         headers={"Idempotency-Key": f"m{posts}"}, timeout=10)
        assert r.status_code == 201, r.json()
        posts += 1
        nxt = r.json()["next_moves"]
        assert posts < 500
    final = session.get(f"{http_server}/games/{gid}").json()
    for _ in range(100):  # the system's scoring move is the worker's
        if final["status"] == "finished":
            break
        time.sleep(0.1)
        final = session.get(f"{http_server}/games/{gid}").json()
    assert final["status"] == "finished" and final["result"]["winners"]
    events = session.get(f"{http_server}/games/{gid}/events?after={created['version']}&limit=1000").json()["events"]
    assert len({e["version"] for e in events if e["actor"] != "system"}) >= posts  # every move landed
    assert events[-1]["actor"] == "system"  # then the scoring


def test_metrics_add_up_every_process_including_the_workers_turn_delay(http_server):
    """gunicorn's web workers and the RQ workers count into one scrape (multiprocess mode)."""
    import time

    from prometheus_client.parser import text_string_to_metric_families

    created = requests.post(f"{http_server}/games", json={"type": "high-card",
                                                           "seats": [{"bot": "random"}, {"bot": "bold"}]}).json()
    deadline = time.monotonic() + 30
    while requests.get(f"{http_server}/games/{created['id']}").json()["status"] != "finished":
        assert time.monotonic() < deadline
        time.sleep(0.1)
    text = requests.get(f"{http_server}/metrics").text
    found = {f.name: f for f in text_string_to_metric_families(text)}
    delays = [s for s in found["game_turn_delay_seconds"].samples
              if s.name.endswith("_count") and s.labels["game_type"] == "high-card" and s.labels["actor"] == "bot"]
    assert delays and sum(s.value for s in delays) >= 2
    moves = [s for s in found["game_moves_appended"].samples if s.labels.get("actor") == "bot"]
    assert sum(s.value for s in moves) >= 2
    assert any(s.labels.get("route") == "/games" and s.labels.get("status") == "201"
               for s in found["http_requests"].samples)
