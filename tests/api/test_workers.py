"""Bots and the system play through real RQ worker processes; the reconciler repairs losses."""
from __future__ import annotations

from tests.api.helpers import create, move, read, tokens
from tests.conftest import wait_for


def test_an_all_bot_game_plays_itself_to_the_end(client, workers):
    created = create(client, seats=[{"bot": "random"}, {"bot": "bold"}, {"bot": "random"}])
    game = wait_for(lambda: (g := read(client, created["id"]))["status"] == "finished" and g)
    assert game["result"]["winners"]
    events = client.get(f"/games/{created['id']}/events?limit=1000").get_json()["events"]
    scored = [e for e in events if e["type"] == "scored"]
    assert len(scored) == 3 and all(e["actor"] == "system" for e in scored)
    versions = [e["version"] for e in events]
    assert versions == list(range(1, len(events) + 1))  # no gap, no duplicate


def test_a_person_moves_then_the_bot_and_the_system_follow(client, workers):
    created = create(client, seats=[{"name": "Ann"}, {"bot": "random"}], options={"rounds": 1})
    t = tokens(created)
    gid = created["id"]
    # The bot bids at once on its own; the person bids; then the system scores the round.
    wait_for(lambda: read(client, gid)["view"]["has_bid"][1])
    version = read(client, gid)["version"]
    assert move(client, gid, t[0], {"type": "bid", "chips": 1}, version).status_code == 201
    final = wait_for(lambda: (g := read(client, gid, t[0]))["status"] == "finished" and g)
    assert final["result"]["scores"]
    assert final["view"]["hands"] is not None  # a finished game is open to everyone


def test_the_reconciler_re_enqueues_a_lost_turn(client, workers, app):
    # Simulate the dual-write crash: a game whose bot turn was never enqueued.
    service = app.extensions["games"]
    original = service.scheduler
    service.scheduler = lambda *a: None
    try:
        created = create(client, seats=[{"bot": "random"}, {"bot": "random"}])
    finally:
        service.scheduler = original
    seen = []

    def finished():
        seen.append(read(client, created["id"]))
        return seen[-1]["status"] == "finished"

    try:
        wait_for(finished, timeout=60)
    except AssertionError:
        last = seen[-1]
        alive = [p.poll() is None for p in workers.procs]
        raise AssertionError(f"stalled at version {last['version']}, to act {last['to_act']}; "
                             f"workers and reconciler alive: {alive}")
