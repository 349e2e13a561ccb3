"""Helpers for the lobby's tests: players, open games, claims, listings read page by page."""
from __future__ import annotations

from tests.api.helpers import auth


def player(client, name="Ann"):
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def open_game(client, key=None, seats=None, type_="splendor", **extra):
    seats = seats or [{"me": True}, {"open": True}]
    r = client.post("/games", json={"type": type_, "seats": seats, **extra}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def claim(client, gid, seat, key=None, name=None, invite=None):
    url = f"/games/{gid}/seats/{seat}/claim" + (f"?invite={invite}" if invite else "")
    return client.post(url, json={"name": name} if name else None, headers=auth(key))


def listed(client, url):
    """The games of a listing (`GET /games`, `/games/ended`), page after page by `next`: the
    session's store holds other tests' games, so one page may not reach the one looked for."""
    while url:
        page = client.get(url).get_json()
        yield from page["games"]
        url = page["next"] if page["games"] else None
