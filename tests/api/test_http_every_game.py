"""Every hosted game played to its end over a real HTTP server (`python app.py`: gunicorn,
RQ workers, reconciler): a person plays the moves the API lists, bots and the system play
through the workers. Every response is checked against openapi.yaml."""
from __future__ import annotations

import random
import uuid
from urllib.parse import urlparse

import pytest
import requests

from domain import registry
from tests.api.helpers import short_options
from tests.api.spec import check_response
from tests.conftest import wait_for

HOSTED = [g for g in registry.all_games() if g.name != "high-card"]


class Http:
    """requests, with every answer checked against the spec."""

    def __init__(self, base):
        self.base = base
        self.session = requests.Session()

    def call(self, method, path, token=None, **kwargs):
        headers = kwargs.pop("headers", {})
        if token:
            headers["Authorization"] = f"Bearer {token}"
        r = self.session.request(method, self.base + path, headers=headers, timeout=30, **kwargs)
        mimetype = r.headers.get("Content-Type", "").split(";")[0]
        body = r.json() if "json" in mimetype else None
        check_response(method, urlparse(r.url).path, r.status_code, mimetype, body)
        return r.status_code, body


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.name)
def test_a_person_and_bots_play_to_the_end_over_http(http_server, game):
    # Shorter games where the rules allow it (one round of Witches, 20 of Fairy Tile): the full
    # length is played by the in-process tests (test_play_every_game.py).
    http = Http(http_server)
    bot = list(game.bots)[-1]
    seats = [{"name": "Ann"}] + [{"bot": bot}] * (game.min_seats - 1)
    status, created = http.call("POST", "/games", json={"type": game.name, "seats": seats,
                                                        "options": short_options(game), "seed": 3})
    assert status == 201
    gid, token = created["id"], created["seats"][0]["token"]
    rng = random.Random(3)
    for _ in range(5000):
        _, state = http.call("GET", f"/games/{gid}", token)
        if state["status"] == "finished":
            break
        if 0 not in state["to_act"]:
            version = state["version"]
            wait_for(lambda: http.call("GET", f"/games/{gid}")[1]["version"] != version, timeout=30, interval=0.01)
            continue
        _, listed = http.call("GET", f"/games/{gid}/moves?limit=5000", token)
        status, _ = http.call("POST", f"/games/{gid}/moves", token,
                              json={"expected_version": listed["version"], "move": rng.choice(listed["moves"])},
                              headers={"Idempotency-Key": uuid.uuid4().hex})
        assert status in (201, 409)
    assert state["status"] == "finished" and state["result"]["winners"] is not None
    _, history = http.call("GET", f"/games/{gid}/events?limit=1000")
    assert [e["version"] for e in history["events"]] == list(range(1, len(history["events"]) + 1))
