"""Replacing a player key (POST /players/me/keys) reaches what the old key opened (issue 28):
its game and player streams end within a second or two, on every web process (two apps on one
Redis stand for two processes), and the stream tickets it asked for open nothing. Streams opened
with a seat's token, or with the new key, go on."""
from __future__ import annotations

import time
import uuid

import pytest

from tests.api.helpers import auth
from tests.lobby.helpers import claim, open_game, player

ENDS_WITHIN_S = 4.0  # the hubs poll the rotations every tick (SSE_KEEPALIVE_S here: 0.2 s)


@pytest.fixture(scope="module")
def apps(redis_url):
    """Two web processes' apps on one Redis and key prefix."""
    from app import create_app

    prefix = f"keyrot{uuid.uuid4().hex[:6]}:"
    config = {"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
              "SSE_KEEPALIVE_S": 0.2, "SSE_MAX_SECONDS": 30, "TESTING": True, "RATE_LIMIT": 1_000_000}
    return create_app(config), create_app(config)


def _clients(apps):
    from tests.api.spec import SpecCheckingClient

    return [SpecCheckingClient(a, a.response_class, use_cookies=True) for a in apps]


class Reading:
    """A stream read in this thread, a chunk at a time (a keep-alive comes every 0.2 s)."""

    def __init__(self, client, url, headers):
        self.response = client.get(url, headers=headers, buffered=False)
        assert self.response.status_code == 200, self.response.get_data()
        self.chunks, self.text, self.ended = iter(self.response.response), "", False

    def ended_within(self, seconds) -> bool:
        """Reads for up to `seconds`: whether the stream ended meanwhile."""
        deadline = time.monotonic() + seconds
        while not self.ended and time.monotonic() < deadline:
            try:
                chunk = next(self.chunks)
            except StopIteration:
                self.ended = True
                break
            self.text += chunk.decode() if isinstance(chunk, bytes) else chunk
        return self.ended

    def close(self):
        self.response.close()


def _seated_game(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    created = open_game(client, ann["key"])
    assert claim(client, created["id"], 1, bob["key"]).status_code == 201
    return ann, bob, created


def test_a_replaced_key_ends_its_streams_on_every_process(apps):
    here, there = _clients(apps)
    ann, bob, created = _seated_game(here)
    gid = created["id"]
    game_ticket = here.post(f"/games/{gid}/stream-tickets", headers=auth(ann["key"])).get_json()["stream"]
    player_ticket = here.post("/players/me/stream-tickets", headers=auth(ann["key"])).get_json()["stream"]
    old = [Reading(there, f"/games/{gid}/stream", auth(ann["key"])),
           Reading(there, "/players/me/stream", auth(ann["key"])),
           Reading(here, f"/games/{gid}/stream", auth(ann["key"]))]
    kept = [Reading(there, f"/games/{gid}/stream", auth(created["seats"][0]["token"])),  # a seat's token
            Reading(there, "/players/me/stream", auth(bob["key"]))]  # another player's key
    try:
        time.sleep(0.5)  # the streams are open and idle
        rotated = here.post("/players/me/keys", headers=auth(ann["key"]))
        assert rotated.status_code == 201
        new_key = rotated.get_json()["key"]
        for stream in old:
            assert stream.ended_within(ENDS_WITHIN_S), "a stream of the replaced key is still open"
            assert "the player key of this stream was replaced" in stream.text
        assert not any(stream.ended_within(0.5) for stream in kept)
        # what the old key asked for opens nothing; the new key's streams open
        for url in (game_ticket, player_ticket):
            r = there.get(url)
            assert r.status_code == 401 and r.get_json()["code"] == "invalid_ticket", url
            assert "replaced" in r.get_json()["detail"]
        assert there.get("/players/me/stream", headers=auth(ann["key"])).status_code == 401
        fresh = Reading(there, "/players/me/stream", auth(new_key))
        kept.append(fresh)
        assert not fresh.ended_within(1.0)
    finally:
        for stream in old + kept:
            stream.close()


def test_a_ticket_of_the_new_key_opens_its_stream(apps):
    here, there = _clients(apps)
    ann, _, created = _seated_game(here)
    new_key = here.post("/players/me/keys", headers=auth(ann["key"])).get_json()["key"]
    for url in (here.post(f"/games/{created['id']}/stream-tickets", headers=auth(new_key)).get_json()["stream"],
                here.post("/players/me/stream-tickets", headers=auth(new_key)).get_json()["stream"]):
        stream = Reading(there, url, {})
        try:
            assert not stream.ended_within(0.5)
        finally:
            stream.close()


def _lines_until_end(response, seconds) -> tuple[bool, str]:
    """Reads a real server's stream for up to `seconds` (keep-alives every 0.5 s): (ended, text)."""
    deadline, text = time.monotonic() + seconds, ""
    for line in response.iter_lines(decode_unicode=True):
        text += line + "\n"
        if time.monotonic() > deadline:
            return False, text
    return True, text


def test_on_the_real_server_the_streams_of_a_replaced_key_end(http_server):
    """gunicorn with gevent and two web processes: the direct path, and a stream on either."""
    import requests

    def post(path, key, json=None):
        r = requests.post(f"{http_server}{path}", json=json, headers=auth(key), timeout=10)
        assert r.status_code == 201, r.text
        return r.json()

    ann, bob = post("/players", None, {"name": "Ann"}), post("/players", None, {"name": "Bob"})
    gid = post("/games", ann["key"], {"type": "splendor", "seats": [{"me": True}, {"open": True}]})["id"]
    post(f"/games/{gid}/seats/1/claim", bob["key"])
    opened = [requests.get(f"{http_server}{path}", headers=auth(ann["key"]), stream=True, timeout=10)
              for path in (f"/games/{gid}/stream", f"/games/{gid}/stream", "/players/me/stream", "/players/me/stream")]
    try:
        assert [r.status_code for r in opened] == [200] * 4
        time.sleep(0.5)
        rotated_at = time.monotonic()
        post("/players/me/keys", ann["key"])
        for response in opened:
            ended, text = _lines_until_end(response, ENDS_WITHIN_S)
            assert ended and "the player key of this stream was replaced" in text, text[-300:]
        assert time.monotonic() - rotated_at < ENDS_WITHIN_S
    finally:
        for response in opened:
            response.close()
