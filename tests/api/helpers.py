"""Small helpers for API tests: create a game, send moves, read as a seat."""
from __future__ import annotations

import json
import uuid


def auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


def short_options(game) -> dict:
    """Options for a shorter game, where a test needs a whole game but not a long one: the
    game's fewest rounds (one round holds every kind of secret and event there is), or a round limit: 20 rounds of Fairy Tile (instead of 100, some
    850 events at four seats) hold tiles laid from the pile, cards told and drawn, pages turned
    and magic used."""
    for option in game.options:
        if option.name == "rounds" and option.type == "integer":
            return {"rounds": max(1, option.minimum or 1)}
        if option.name == "round_limit" and option.type == "integer":
            return {"round_limit": max(20, option.minimum or 20)}
    return {}


def create(client, type_="high-card", seats=None, **extra):
    seats = seats or [{"name": "Ann"}, {"name": "Bob"}]
    r = client.post("/games", json={"type": type_, "seats": seats, **extra})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def tokens(created):
    return {s["seat"]: s["token"] for s in created["seats"] if s["token"]}


def read(client, gid, token=None):
    r = client.get(f"/games/{gid}", headers=auth(token))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def move(client, gid, token, move_, version, key=None):
    headers = auth(token)
    headers["Idempotency-Key"] = key or uuid.uuid4().hex
    return client.post(f"/games/{gid}/moves", json={"expected_version": version, "move": move_}, headers=headers)


def sse_events(response):
    """Parses a streamed SSE response into (event, id, data) as they arrive (comments skipped)."""
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


def step_up(client, key, recovery_code):
    """A step-up grant for `key` (issue 51), proved with the player's recovery code."""
    r = client.post("/players/me/step-up", json={"recovery_code": recovery_code}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()
