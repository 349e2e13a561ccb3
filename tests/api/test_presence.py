"""Presence (issue 35): a seat is here while it holds a live stream of the game, in whichever
web process holds it (`python app.py` runs two), and no longer once the stream is closed; a
spectator's stream makes no seat here, a bot's seat never is, an unknown game is a 404."""
from __future__ import annotations

import requests

from tests.conftest import wait_for


def _here(base, game_id) -> list[bool]:
    r = requests.get(f"{base}/games/{game_id}/presence", timeout=5)
    assert r.status_code == 200, r.text
    return [s["here"] for s in r.json()["seats"]]


def test_a_seat_is_here_while_its_stream_is_open(http_server):
    base = http_server
    ann, bob = (requests.post(f"{base}/players", json={"name": n}, timeout=5).json()["key"] for n in ("Ann", "Bob"))
    game = requests.post(f"{base}/games", json={"type": "witches", "seats": [{"me": True}, {"open": True}, {"bot": "random"}]},
                         headers={"Authorization": f"Bearer {ann}"}, timeout=5).json()
    gid = game["id"]
    assert requests.post(f"{base}/games/{gid}/seats/1/claim", headers={"Authorization": f"Bearer {bob}"}, timeout=5).status_code == 201
    assert _here(base, gid) == [False, False, False]
    watching = requests.get(f"{base}/games/{gid}/stream", stream=True, timeout=10)  # a spectator
    assert watching.status_code == 200
    ticket = requests.post(f"{base}/games/{gid}/stream-tickets", headers={"Authorization": f"Bearer {bob}"}, timeout=5).json()
    bobs = requests.get(base + ticket["stream"], stream=True, timeout=10)
    assert bobs.status_code == 200
    try:
        wait_for(lambda: _here(base, gid) == [False, True, False], timeout=10)
        anns = requests.get(f"{base}/games/{gid}/stream", headers={"Authorization": f"Bearer {ann}"}, stream=True, timeout=10)
        wait_for(lambda: _here(base, gid) == [True, True, False], timeout=10)
        anns.close()
        wait_for(lambda: _here(base, gid) == [False, True, False], timeout=15)  # closed: gone at once, not after the lease
    finally:
        bobs.close()
        watching.close()
    wait_for(lambda: _here(base, gid) == [False, False, False], timeout=15)


def test_an_unknown_game_has_no_presence(http_server):
    for gid in ("nosuchgame123", "not%20an%20id", "x" * 65):
        r = requests.get(f"{http_server}/games/{gid}/presence", timeout=5)
        assert r.status_code == 404 and r.json()["code"] == "unknown_game", (gid, r.text)
        assert r.headers["Content-Type"] == "application/problem+json"


def test_without_shared_leases_a_process_counts_its_own_streams():
    from api.live.stream_limits import StreamLimits

    limits = StreamLimits(per_process=10, per_address=0, per_seat=0, shared=None)
    release = limits.acquire("10.0.0.1", ("g1", 1))
    assert limits.present("g1", 3) == [False, True, False]
    assert limits.present("g2", 2) == [False, False]
    release()
    assert limits.present("g1", 3) == [False, False, False]
