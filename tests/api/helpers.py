"""Small helpers for API tests: create a game, send moves, read as a seat."""
from __future__ import annotations

import uuid


def auth(token):
    return {"Authorization": f"Bearer {token}"} if token else {}


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
