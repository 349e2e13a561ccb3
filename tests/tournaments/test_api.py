"""The tournaments' HTTP operations (issue 52) against the session's Redis: creation with bot
entrants, the listing and its filters, a tournament's rules, standings and rounds, joining,
withdrawing, the NDJSON history, and their refusals (nothing appended)."""
from __future__ import annotations

import time
import uuid

import orjson
import pytest

from api.tournaments.verify import verify
from tests.api.helpers import auth
from tests.lobby.helpers import player


@pytest.fixture(scope="module")
def prefix():
    return f"tour{uuid.uuid4().hex[:6]}:"


@pytest.fixture(scope="module")
def app(redis_url, prefix):
    from app import create_app

    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "RATE_LIMIT": 1_000_000})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)


def _events(client, tid):
    r = client.get(f"/tournaments/{tid}/events")
    assert r.status_code == 200 and r.mimetype == "application/x-ndjson"
    return [orjson.loads(line) for line in r.data.splitlines()]


def test_a_tournament_made_started_read_and_listed(client):
    ann = player(client, "Ann")
    body = {"type": "splendor", "format": "swiss", "rounds": 3, "start": "now",
            "entrants": [{"bot": "random"}, {"bot": "greedy"}, {"bot": "greedy"}]}
    r = client.post("/tournaments", json=body, headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    assert r.headers["Location"] == f"/tournaments/{made['id']}"
    # its shareable page (which the apps open) is the web client's, and serves it
    assert made["links"] == {"web": f"http://localhost/tournament/{made['id']}", "api": f"http://localhost/tournaments/{made['id']}"}
    page = client.get(f"/tournament/{made['id']}", headers={"Accept": "text/html"})
    assert page.status_code == 200 and page.mimetype == "text/html" and b"tournaments.js" in page.data
    assert made["status"] == "running" and made["rules"]["algorithm"] == {"name": "groups-by-score", "version": 2}
    first = made["rounds"][0]
    assert len(first["tables"]) == 1 and len(first["byes"]) == 1 and first["tables"][0]["game_id"]
    game = client.get(f"/games/{first['tables'][0]['game_id']}").get_json()
    assert [s.get("bot") for s in game["seats"]] == [e.split(":")[1].split("#")[0] for e in first["tables"][0]["seats"]]
    events = _events(client, made["id"])
    assert [e["type"] for e in events][:5] == ["tournament_created"] + ["entrant_entered"] * 3 + ["round_paired"]
    assert all(v["inputs"] and v["tables"] for v in verify(events))
    assert client.get(f"/tournaments/{made['id']}").get_json()["standings"][0]["rank"] == 1
    listed = client.get("/tournaments?status=running&type=splendor").get_json()["tournaments"]
    assert made["id"] in [t["id"] for t in listed]
    assert made["id"] not in [t["id"] for t in client.get("/tournaments?status=finished").get_json()["tournaments"]]


def test_join_withdraw_and_the_refusals(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    later = int(time.time() * 1000) + 3_600_000
    r = client.post("/tournaments", json={"type": "witches", "format": "round_robin", "seats": 3, "start": later,
                                          "entrants": [{"bot": "random"}]}, headers=auth(ann["key"]))
    assert r.status_code == 201 and r.get_json()["status"] == "upcoming"
    tid = r.get_json()["id"]
    r = client.post(f"/tournaments/{tid}/join", headers=auth(bob["key"]))
    assert r.status_code == 200 and f"player:{bob['id']}" in [s["entrant"] for s in r.get_json()["standings"]]
    r = client.post(f"/tournaments/{tid}/join", headers={**auth(bob["key"]), "Accept-Language": "ko"})
    assert r.status_code == 409 and r.get_json()["code"] == "already_entered"
    assert r.get_json()["detail"] == "이미 이 토너먼트에 참가했습니다."
    assert client.post(f"/tournaments/{tid}/withdraw", headers=auth(bob["key"])).status_code == 200
    r = client.post(f"/tournaments/{tid}/withdraw", headers=auth(bob["key"]))
    assert r.status_code == 409 and r.get_json()["code"] == "not_entered"
    before = len(_events(client, tid))
    r = client.post(f"/tournaments/{tid}/join")
    assert r.status_code == 401 and "WWW-Authenticate" in r.headers
    assert client.get("/tournaments/nope").get_json()["code"] == "unknown_tournament"
    bad = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 0, "seats": 9},
                      headers=auth(ann["key"]))
    assert bad.status_code == 400 and set(bad.get_json()["details"]["fields"]) == {"rounds", "seats"}
    bad = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 2,
                                            "entrants": [{"bot": "nobody"}]}, headers=auth(ann["key"]))
    assert bad.status_code == 400
    assert client.post("/tournaments", json={"type": "nogame", "format": "swiss", "rounds": 2},
                       headers=auth(ann["key"])).status_code == 422
    assert len(_events(client, tid)) == before


def test_a_wrong_clock_or_option_is_refused_before_anything_is_written(client):
    ann = player(client, "Ann")
    before = client.get("/tournaments?limit=100").get_json()["tournaments"]
    r = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 2,
                                          "clock": {"per_move_s": -5}}, headers=auth(ann["key"]))
    assert r.status_code == 400 and r.get_json()["code"] == "invalid_clock"
    r = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 2,
                                          "options": {"no_such_option": 1}}, headers=auth(ann["key"]))
    assert r.status_code == 400 and r.get_json()["code"] == "invalid_options"
    assert client.get("/tournaments?limit=100").get_json()["tournaments"] == before


def test_entry_conditions_refuse_a_player_outside_them(client):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    later = int(time.time() * 1000) + 3_600_000
    r = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 2, "start": later,
                                          "invited": [bob["id"]]}, headers=auth(ann["key"]))
    tid = r.get_json()["id"]
    r = client.post(f"/tournaments/{tid}/join", headers={**auth(cy["key"]), "Accept-Language": "ko"})
    assert r.status_code == 403 and r.get_json()["code"] == "entry_refused"
    assert client.post(f"/tournaments/{tid}/join", headers=auth(bob["key"])).status_code == 200
    r = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 2, "start": later,
                                          "min_rating": 1800}, headers=auth(ann["key"]))
    r = client.post(f"/tournaments/{r.get_json()['id']}/join", headers=auth(cy["key"]))
    assert r.status_code == 403 and r.get_json()["details"]["rating"] == 0.0


def test_the_verify_tool_recomputes_a_tournament_from_the_servers_redis(client, redis_url, prefix, monkeypatch,
                                                                          capsys):
    from tools import tournaments as tool

    ann = player(client, "Ann")
    r = client.post("/tournaments", json={"type": "witches", "format": "swiss", "seats": 3, "rounds": 2,
                                          "entrants": [{"bot": "random"}] * 4 + [{"bot": "careful"}] * 3},
                    headers=auth(ann["key"]))
    from api.settings import of_process

    monkeypatch.setenv("REDIS_URL", redis_url)
    monkeypatch.setenv("KEY_PREFIX", prefix)
    of_process.cache_clear()  # the process's settings are read once: read ours, then forget them
    try:
        assert tool.main(["verify", r.get_json()["id"]]) == 0
        assert "round 1: inputs ok, tables ok" in capsys.readouterr().out
        assert tool.main(["verify", "no-such-tournament"]) == 1
    finally:
        of_process.cache_clear()


def test_the_organiser_adjusts_a_result_and_the_standings_follow(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    r = client.post("/tournaments", json={"type": "splendor", "format": "swiss", "rounds": 3,
                                          "entrants": [{"bot": "random"}, {"bot": "greedy"}]}, headers=auth(ann["key"]))
    made = r.get_json()
    tid, seats = made["id"], made["rounds"][0]["tables"][0]["seats"]
    body = {"kind": "set_result", "round": 1, "table": 1, "places": {seats[0]: 1, seats[1]: 2}, "reason": "adjudicated"}
    r = client.post(f"/tournaments/{tid}/adjustments", json=body, headers=auth(bob["key"]))
    assert r.status_code == 403 and r.get_json()["code"] == "organiser_required"
    r = client.post(f"/tournaments/{tid}/adjustments", json=body, headers=auth(ann["key"]))
    assert r.status_code == 200
    shown = r.get_json()
    assert {s["entrant"]: s["points"] for s in shown["standings"]} == {seats[0]: 2.0, seats[1]: 0.0}
    assert len(shown["rounds"]) == 2  # the round done, the next was paired
    r = client.post(f"/tournaments/{tid}/adjustments", json={**body, "kind": "void_game", "places": {}},
                    headers=auth(ann["key"]))
    assert {s["points"] for s in r.get_json()["standings"]} == {0.0}
    before = len(_events(client, tid))
    r = client.post(f"/tournaments/{tid}/adjustments", json={**body, "table": 9}, headers=auth(ann["key"]))
    assert r.status_code == 400
    r = client.post(f"/tournaments/{tid}/adjustments", json={**body, "places": {seats[0]: 1}}, headers=auth(ann["key"]))
    assert r.status_code == 400
    assert len(_events(client, tid)) == before
    assert [e["kind"] for e in _events(client, tid) if e["type"] == "result_adjusted"] == ["set_result", "void_game"]


def test_the_listing_is_paged_by_cursor_newest_first_and_a_rare_filter_still_has_its_next(client, monkeypatch):
    from api.tournaments import service

    ann = player(client, "Ann")
    later = int(time.time() * 1000) + 3_600_000
    made = []
    for n in range(5):  # the newest last; one arena among four swiss
        body = {"type": "setup", "format": "arena" if n == 1 else "swiss", "start": later + n,
                **({"duration_s": 600} if n == 1 else {"rounds": 2})}
        r = client.post("/tournaments", json=body, headers=auth(ann["key"]))
        assert r.status_code == 201, r.get_json()
        made.append(r.get_json()["id"])
    seen, url = [], "/tournaments?type=setup&status=upcoming&limit=2"
    while url:
        page = client.get(url).get_json()
        assert len(page["tournaments"]) <= 2
        seen += [t["id"] for t in page["tournaments"]]
        url = page["next"]
    assert [t for t in seen if t in made] == made[::-1]  # each once, the newest first
    assert client.get("/tournaments?cursor=x.y").status_code == 400

    # A page reads at most LIST_SCAN past its filters: the arena lies beyond 2 of them, so the
    # first page is empty but says where to go on, and the next finds it.
    monkeypatch.setattr(service, "LIST_SCAN", 2)
    first = client.get("/tournaments?type=setup&format=arena").get_json()
    assert first["tournaments"] == [] and first["next"]
    assert [t["id"] for t in client.get(first["next"]).get_json()["tournaments"]] == [made[1]]
