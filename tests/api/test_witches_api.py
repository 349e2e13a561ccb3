"""Witches through the API: simultaneous passing (every seat served, all decided on the same
version, none sees another's pass until all have passed), and rounds scored by the worker."""
from __future__ import annotations

import json

from tests.api.helpers import auth, create, move, read, tokens
from tests.conftest import wait_for


def test_every_seat_passes_at_once_and_sees_only_its_own_exchange(client, workers):
    created = create(client, "witches", [{"name": "A"}, {"name": "B"}, {"name": "C"}],
                     options={"rounds": 1}, seed=21)
    t = tokens(created)
    gid = created["id"]
    start = read(client, gid)["version"]
    listed = {s: client.get(f"/games/{gid}/moves", headers=auth(t[s])).get_json() for s in t}
    assert all(listed[s]["version"] == start and listed[s]["moves"] for s in t)
    assert all(m["type"] == "pass_cards" for s in t for m in listed[s]["moves"])
    for seat in (0, 1):
        r = move(client, gid, t[seat], listed[seat]["moves"][0], start)  # all decided at `start`
        assert r.status_code == 201, r.get_json()
    again = move(client, gid, t[0], listed[0]["moves"][1], read(client, gid)["version"])
    assert again.status_code == 422 and again.get_json()["code"] == "already_passed"
    # Seat 2 has not passed: it sees that 0 and 1 did, never which cards.
    before = client.get(f"/games/{gid}/events?after={start}", headers=auth(t[2])).get_json()["events"]
    for event in before:
        assert "cards" not in event["data"]
    passed_by_0 = listed[0]["moves"][0]["cards"]
    view_2 = json.dumps(read(client, gid, t[2]))
    assert not any(json.dumps(card) in view_2 for card in passed_by_0)
    r = move(client, gid, t[2], listed[2]["moves"][0], start)
    assert r.status_code == 201, r.get_json()
    mine = read(client, gid, t[2])["view"]
    assert mine["received"] is not None and mine["passed"] == listed[2]["moves"][0]["cards"]


def test_a_round_is_scored_by_the_worker_as_the_system(client, workers):
    created = create(client, "witches", [{"bot": "careful"}, {"bot": "random"}, {"bot": "random"}],
                     options={"rounds": 1}, seed=8)
    gid = created["id"]
    wait_for(lambda: read(client, gid)["status"] == "finished", timeout=60)
    events = client.get(f"/games/{gid}/events?limit=1000").get_json()["events"]
    scored = [e for e in events if e["type"] == "round_scored"]
    assert len(scored) == 1 and scored[0]["actor"] == "system"
