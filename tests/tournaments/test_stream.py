"""A tournament live (issue 52): `GET /tournaments/{id}/stream` sends its events as they are
appended, anonymously, each named by its type with its stream id; a reconnect with
Last-Event-ID (or `?last_event_id=`) resumes after it, none missed; a bad cursor or an unknown
tournament is refused before a stream opens. Against the session's Redis."""

from __future__ import annotations

import json
import threading
import uuid

import orjson
import pytest

from tests.api.helpers import auth
from tests.apps import redis_app, spec_client
from tests.lobby.helpers import player


@pytest.fixture(scope="module")
def app(redis_url):
    return redis_app(redis_url, f"tst{uuid.uuid4().hex[:6]}:", SSE_KEEPALIVE_S=0.5, SSE_MAX_SECONDS=30)


@pytest.fixture
def client(app):
    return spec_client(app)


def _frames(client, url, count, headers=None, then=None):
    """The first `count` events of the stream, as (id, event name, data); `then` runs once the
    stream is open (what it appends must arrive on it)."""
    r = client.get(url, headers=headers or {}, buffered=False)
    assert r.status_code == 200 and r.mimetype == "text/event-stream", r.get_data()
    found: list[tuple[str, str, dict]] = []
    try:
        for chunk in r.response:
            if then is not None:
                threading.Thread(target=then).start()
                then = None
            for frame in chunk.decode().split("\n\n"):
                if frame.startswith("id: "):
                    lines = dict(line.split(": ", 1) for line in frame.split("\n"))
                    found.append((lines["id"], lines["event"], json.loads(lines["data"])))
            if len(found) >= count:
                return found
    finally:
        r.close()
    return found


def test_the_stream_replays_resumes_and_follows_a_tournament_anonymously(app, client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    r = client.post(
        "/tournaments",
        json={
            "type": "splendor",
            "format": "swiss",
            "rounds": 2,
            "start": 4_102_444_800_000,
            "entrants": [{"bot": "random"}],
        },
        headers=auth(ann["key"]),
    )
    assert r.status_code == 201
    tid = r.get_json()["id"]
    url = f"/tournaments/{tid}/stream"
    history = [orjson.loads(line) for line in client.get(f"/tournaments/{tid}/events").data.splitlines()]
    replay = _frames(client, url, len(history), {"Last-Event-ID": "0"})
    assert [(name, data) for _, name, data in replay] == [(e["type"], e) for e in history]
    # resumed after the first: the others, none missed (the query's form too)
    again = _frames(client, f"{url}?last_event_id={replay[0][0]}", len(history) - 1)
    assert [i for i, _, _ in again] == [i for i, _, _ in replay[1:]]
    # from now: what is appended once the stream is open (Bob's entry), and nothing before
    live = _frames(
        client, url, 1, then=lambda: app.test_client().post(f"/tournaments/{tid}/join", headers=auth(bob["key"]))
    )
    assert [(name, data["entrant"]) for _, name, data in live] == [("entrant_entered", f"player:{bob['id']}")]
    assert _place(live[0][0]) > _place(replay[-1][0])


def _place(stream_id):
    return tuple(int(x) for x in stream_id.split("-"))


def test_a_bad_cursor_or_an_unknown_tournament_is_refused(client):
    r = client.get("/tournaments/nosuchtourney/stream")
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_tournament")
    ann = player(client, "Ann")
    tid = client.post(
        "/tournaments",
        json={"type": "splendor", "format": "swiss", "rounds": 1, "start": 4_102_444_800_000},
        headers=auth(ann["key"]),
    ).get_json()["id"]
    for headers, query in (
        ({"Last-Event-ID": "yesterday"}, ""),
        ({}, "?last_event_id=1-x"),
        ({"Last-Event-ID": "0"}, "?last_event_id="),
    ):
        r = client.get(f"/tournaments/{tid}/stream{query}", headers=headers)
        assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")
