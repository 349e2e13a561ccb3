"""The games API over the Flask test client against a real Redis, on the High Card test game."""
from __future__ import annotations

import json

from tests.api.helpers import auth, create, move, read, tokens


def test_game_types_lists_every_hosted_game(client):
    body = client.get("/game-types").get_json()
    names = [t["type"] for t in body["game_types"]]
    assert "high-card" in names
    hc = next(t for t in body["game_types"] if t["type"] == "high-card")
    assert hc["min_seats"] == 2 and hc["max_seats"] == 4
    assert hc["options"][0]["name"] == "rounds"


def test_create_answers_ids_versions_and_one_token_per_person(client):
    created = create(client, seats=[{"name": "Ann"}, {"bot": "random"}, {"name": "Cy"}])
    assert created["version"] == 3  # game_created + the two setup events
    assert [s["seat"] for s in created["seats"]] == [0, 1, 2]
    assert created["seats"][1]["token"] is None and created["seats"][1]["bot"] == "random"
    assert created["seats"][0]["token"] and created["seats"][2]["token"]


def test_a_seat_sees_its_own_card_only(client):
    created = create(client, seed=3)
    t = tokens(created)
    mine = read(client, created["id"], t[0])
    assert mine["you"] == 0 and mine["view"]["hand"].startswith("hc-1-")
    spectator = read(client, created["id"])
    assert spectator["you"] is None and spectator["view"]["hand"] is None
    other = read(client, created["id"], t[1])
    assert other["view"]["hand"] != mine["view"]["hand"]
    assert mine["view"]["hand"] not in json.dumps(other)


def test_moves_lists_what_the_seat_may_send(client):
    created = create(client)
    t = tokens(created)
    r = client.get(f"/games/{created['id']}/moves", headers=auth(t[0])).get_json()
    assert r["version"] == 3
    assert {"type": "bid", "chips": 0} in r["moves"]
    assert client.get(f"/games/{created['id']}/moves").get_json()["moves"] == []


def test_a_move_appends_and_answers_the_new_version(client):
    created = create(client)
    t = tokens(created)
    r = move(client, created["id"], t[0], {"type": "bid", "chips": 1}, 3)
    assert r.status_code == 201, r.get_json()
    body = r.get_json()
    assert body["version"] == 4
    assert body["events"][0]["type"] == "bid" and body["events"][0]["data"]["chips"] == 1


def test_simultaneous_moves_do_not_conflict(client):
    created = create(client)
    t = tokens(created)
    assert move(client, created["id"], t[0], {"type": "bid", "chips": 1}, 3).status_code == 201
    # Seat 1 decided at version 3 too: other seats' bids cannot change its choice.
    r = move(client, created["id"], t[1], {"type": "bid", "chips": 2}, 3)
    assert r.status_code == 201, r.get_json()


def test_stale_version_is_a_conflict_with_the_current_version(client):
    created = create(client, seats=[{"name": "A"}, {"name": "B"}], options={"rounds": 2})
    t = tokens(created)
    gid = created["id"]
    move(client, gid, t[0], {"type": "bid", "chips": 0}, 3)
    move(client, gid, t[1], {"type": "bid", "chips": 0}, 4)
    # the system must score now; nobody may move (unless a worker of the session, started by an
    # earlier test on the same queue, scored first: then version 5 is stale)
    r = move(client, gid, t[0], {"type": "bid", "chips": 0}, 5)
    assert (r.status_code, r.get_json()["code"]) in ((422, "not_your_turn"), (409, "version_conflict"))
    r = move(client, gid, t[0], {"type": "bid", "chips": 0}, 2)
    assert r.status_code == 409
    body = r.get_json()
    current = client.get(f"/games/{gid}").get_json()["version"]
    assert body["code"] == "version_conflict" and 5 <= body["version"] <= current
    assert r.mimetype == "application/problem+json"


def test_rejected_moves_append_nothing(client):
    created = create(client)
    t = tokens(created)
    gid = created["id"]
    for bad in ({"type": "bid", "chips": 7}, {"type": "fly"}, {"chips": 1}):
        r = move(client, gid, t[0], bad, 3)
        assert r.status_code == 422, r.get_json()
        assert r.get_json()["version"] == 3
    assert read(client, gid)["version"] == 3


def test_idempotent_retry_answers_the_same_and_appends_once(client):
    created = create(client)
    t = tokens(created)
    gid = created["id"]
    first = move(client, gid, t[0], {"type": "bid", "chips": 1}, 3, key="k1")
    again = move(client, gid, t[0], {"type": "bid", "chips": 1}, 3, key="k1")
    assert first.status_code == again.status_code == 201
    assert first.get_json() == again.get_json()
    assert read(client, gid)["version"] == 4
    other = move(client, gid, t[0], {"type": "bid", "chips": 2}, 3, key="k1")
    assert other.status_code == 422 and other.get_json()["code"] == "idempotency_key_reused"


def test_tokens_are_checked(client):
    created = create(client)
    gid = created["id"]
    other_game = create(client)
    r = move(client, gid, tokens(other_game)[0], {"type": "bid", "chips": 0}, 3)
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_token"
    r = client.post(f"/games/{gid}/moves", json={"expected_version": 3, "move": {"type": "bid", "chips": 0}})
    assert r.status_code == 401 and r.get_json()["code"] == "token_required"
    r = client.get(f"/games/{gid}", headers={"Authorization": "Basic abc"})
    assert r.status_code == 401


def test_bad_requests_are_clear_problems(client):
    r = client.post("/games", data="{not json", content_type="application/json")
    assert r.status_code == 400 and r.get_json()["code"] == "malformed_json"
    r = client.post("/games", json={"type": "chess", "seats": [{"name": "A"}, {"name": "B"}]})
    assert r.status_code == 422 and r.get_json()["code"] == "unknown_game_type"
    r = client.post("/games", json={"type": "high-card", "seats": [{"name": "A"}]})
    assert r.status_code == 400 and r.get_json()["code"] == "invalid_seats"
    r = client.post("/games", json={"type": "high-card", "seats": [{"name": "A"}, {"bot": "genius"}]})
    assert r.status_code == 400 and r.get_json()["code"] == "unknown_bot"
    r = client.post("/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}], "colour": 1})
    assert r.status_code == 400 and r.get_json()["code"] == "validation_error"
    r = client.post("/games", json={"type": "high-card", "seats": [{"name": "A"}, {"name": "B"}],
                                    "options": {"rounds": 99}})
    assert r.status_code == 400 and r.get_json()["code"] == "invalid_options"
    r = client.get("/games/nope")
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_game"
    r = client.post("/games", data="x" * 100_000, content_type="application/json")
    assert r.status_code == 413 and r.get_json()["code"] == "body_too_large"
    created = create(client)
    r = client.get(f"/games/{created['id']}/events?limit=100000")
    assert r.status_code == 400 and r.get_json()["code"] == "validation_error"


def test_history_is_redacted_per_viewer_and_pages(client):
    created = create(client, seed=11)
    t = tokens(created)
    gid = created["id"]
    page = client.get(f"/games/{gid}/events?after=0&limit=2").get_json()
    assert [e["version"] for e in page["events"]] == [1, 2]
    assert page["events"][0]["type"] == "game_created" and "seed" not in page["events"][0]["data"]
    dealt = client.get(f"/games/{gid}/events?after=2", headers=auth(t[1])).get_json()["events"][0]
    assert dealt["data"]["cards"][0] is None and dealt["data"]["cards"][1].startswith("hc-")


def test_state_at_a_past_version(client):
    created = create(client)
    t = tokens(created)
    gid = created["id"]
    move(client, gid, t[0], {"type": "bid", "chips": 2}, 3)
    past = client.get(f"/games/{gid}/state?version=3", headers=auth(t[0])).get_json()
    assert past["version"] == 3 and past["view"]["has_bid"] == [False, False]
    now = client.get(f"/games/{gid}/state?version=4", headers=auth(t[0])).get_json()
    assert now["view"]["has_bid"] == [True, False]
    r = client.get(f"/games/{gid}/state?version=99")
    assert r.status_code == 404 and r.get_json()["code"] == "version_out_of_range"


def test_dry_run_judges_without_appending(client):
    created = create(client)
    t = tokens(created)
    gid = created["id"]
    r = client.post(f"/games/{gid}/moves?dry_run=true", json={"expected_version": 3, "move": {"type": "bid", "chips": 1}},
                    headers=auth(t[0]))
    assert r.status_code == 200 and r.get_json() == {"valid": True, "version": 3}
    r = client.post(f"/games/{gid}/moves?dry_run=true", json={"expected_version": 3, "move": {"type": "bid", "chips": 9}},
                    headers=auth(t[0]))
    assert r.status_code == 422
    assert read(client, gid)["version"] == 3


def test_health_checks_redis(client):
    assert client.get("/health").get_json() == {"status": "ok", "redis": "ok"}


def test_setup_serves_a_summary_of_its_many_plays_and_previews_a_play(client):
    created = create(client, "setup", [{"name": "A"}, {"name": "B"}], seed=4)
    t = tokens(created)
    gid = created["id"]
    listed = client.get(f"/games/{gid}/moves?limit=1", headers=auth(t[0])).get_json()
    assert listed["total"] > 1 and len(listed["moves"]) == 1
    assert listed["summary"]["play_count"] + listed["summary"]["swap_count"] == listed["total"]
    play = next(m for m in client.get(f"/games/{gid}/moves?limit=5000", headers=auth(t[0])).get_json()["moves"]
                if m["type"] == "play")
    r = client.post(f"/games/{gid}/moves?dry_run=true", json={"expected_version": listed["version"], "move": play},
                    headers=auth(t[0]))
    assert r.status_code == 200
    assert r.get_json()["preview"]["ok"] is True and r.get_json()["preview"]["points"] >= 1
    assert read(client, gid)["version"] == listed["version"]
