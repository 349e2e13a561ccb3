"""Seat races: 32 clients claim one open seat at once, over two API process groups sharing one
Redis. Exactly one wins (201, the seat's token); every other is `409 seat_taken`; the history
holds one `seat_claimed`, and the game started once (one `seats_filled`, one deal)."""
from __future__ import annotations

import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest

from tests.robustness.helpers import auth, history, is_problem, read, session
from tests.robustness.servers import ApiServer

CLIENTS = 32


@pytest.fixture(scope="module")
def apis(redis_url, tmp_path_factory):
    prefix = f"seatrace{uuid.uuid4().hex[:6]}:"
    logs = tmp_path_factory.mktemp("seat-race-logs")
    # no webhook or analysis worker: nothing here delivers or analyses (issue 48: two processes less)
    servers = [ApiServer(redis_url, prefix, logs, web_workers=1, turn_workers=1, WEBHOOK_WORKERS=0,
                         ANALYSIS_WORKERS=0),
               ApiServer(redis_url, prefix, logs, api_only=True, web_workers=2)]
    try:
        for s in servers:
            s.start()
        yield [s.base for s in servers]
    finally:
        for s in servers:
            s.stop()


def _players(base, n):
    made = []
    for i in range(n):
        r = session().post(f"{base}/players", json={"name": f"P{i}"}, timeout=15)
        assert r.status_code == 201, r.text
        made.append(r.json())
    return made


def _race(apis, seats, claim_seat):
    base = apis[0]
    host, *claimers = _players(base, CLIENTS + 1)
    created = session().post(f"{base}/games", json={"type": "splendor", "seats": seats},
                             headers=auth(host["key"]), timeout=15).json()
    gid = created["id"]
    barrier = threading.Barrier(CLIENTS, timeout=30)

    def claim(i):
        barrier.wait()
        r = session().post(f"{apis[i % len(apis)]}/games/{gid}/seats/{claim_seat(i)}/claim",
                           headers=auth(claimers[i]["key"]), timeout=30)
        return i, r.status_code, r.json(), is_problem(r)

    with ThreadPoolExecutor(CLIENTS) as pool:
        results = list(pool.map(claim, range(CLIENTS)))
    return gid, claimers, results


def test_32_clients_claim_one_seat_exactly_one_wins(apis):
    gid, claimers, results = _race(apis, [{"me": True}, {"open": True}, {"open": True}], lambda i: 1)
    wins = [(i, body) for i, status, body, _ in results if status == 201]
    assert len(wins) == 1, [s for _, s, _, _ in results]
    for i, status, body, problem in results:
        if status != 201:
            assert status == 409 and problem and body["code"] == "seat_taken", body
    events = history(apis[0], gid)
    assert [e["type"] for e in events] == ["game_created", "seat_claimed"]
    assert events[1]["data"]["player"] == claimers[wins[0][0]]["id"]
    winner_token = wins[0][1]["token"]
    assert read(apis[1], gid, winner_token)["you"] == 1
    assert session().get(f"{apis[1]}/games/{gid}", headers=auth(claimers[wins[0][0]]["key"])).json()["you"] == 1


def test_32_clients_racing_for_the_last_two_seats_start_the_game_once(apis):
    gid, claimers, results = _race(apis, [{"me": True}, {"open": True}, {"open": True}], lambda i: 1 + i % 2)
    wins = [(i, body) for i, status, body, _ in results if status == 201]
    assert sorted(body["seat"] for _, body in wins) == [1, 2], [s for _, s, _, _ in results]
    for _, status, body, problem in results:
        if status != 201:
            assert status == 409 and problem and body["code"] in ("seat_taken", "game_started"), body
    types = [e["type"] for e in history(apis[0], gid)]
    assert types.count("seat_claimed") == 2 and types.count("seats_filled") == 1
    assert types.count("game_started") == 1
    assert read(apis[0], gid)["status"] == "active"
