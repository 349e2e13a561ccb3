"""Quick matchmaking: seekers of the same wishes and close ratings are paired into one game, each
taken once whatever races (many at once, across two server processes), leaving races pairing
cleanly, and windows that widen with waiting."""
from __future__ import annotations

import random
import threading
import uuid
from concurrent.futures import ThreadPoolExecutor

import pytest
import redis
import requests

from api.matchmaking.seeks import Seeks
from tests.api.helpers import auth
from tests.conftest import wait_for
from tests.lobby.helpers import player


@pytest.fixture(scope="module")
def app(redis_url):
    from app import create_app

    prefix = f"mm{uuid.uuid4().hex[:6]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "TESTING": True, "RATE_LIMIT": 1_000_000})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)


def test_two_seekers_of_one_wish_meet_in_a_game_and_are_told(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    first = client.post("/matchmaking", json={"type": "splendor", "seats": 2}, headers=auth(ann["key"]))
    assert first.status_code == 201 and first.get_json()["status"] == "searching"
    assert first.get_json()["waiting"] == 1
    second = client.post("/matchmaking", json={"type": "splendor", "seats": 2}, headers=auth(bob["key"]))
    assert second.status_code == 201 and second.get_json()["status"] == "matched"
    gid = second.get_json()["game_id"]
    mine = client.get("/matchmaking", headers=auth(ann["key"])).get_json()
    assert mine["status"] == "matched" and mine["game_id"] == gid
    game = client.get(f"/games/{gid}").get_json()
    assert sorted(s["name"] for s in game["seats"]) == ["Ann", "Bob"] and game["status"] == "active"
    # the players' games are written after the answer (api/games/deferred.py): read until there
    assert wait_for(lambda: gid in [g["id"] for g in client.get(
        "/players/me/games", headers=auth(ann["key"])).get_json()["games"]])
    # told in the player's stream's inbox
    stream = client.get("/players/me/stream?last_event_id=0", headers=auth(bob["key"]), buffered=False)
    text = b""
    for chunk in stream.response:
        text += chunk
        if b"event: matched" in text:
            break
    stream.close()
    assert gid.encode() in text
    # leaving after the pairing is refused, as is a seek that is gone
    r = client.delete("/matchmaking", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (409, "already_matched")


def test_different_wishes_never_meet_and_leaving_works(client):
    cy, dee = player(client, "Cy"), player(client, "Dee")
    client.post("/matchmaking", json={"type": "splendor", "seats": 2, "rated": False}, headers=auth(cy["key"]))
    r = client.post("/matchmaking", json={"type": "splendor", "seats": 2}, headers=auth(dee["key"]))
    assert r.get_json()["status"] == "searching"
    assert client.delete("/matchmaking", headers=auth(cy["key"])).status_code == 204
    r = client.get("/matchmaking", headers=auth(cy["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "not_seeking")
    assert client.delete("/matchmaking", headers=auth(dee["key"])).status_code == 204


def test_bad_seeks_are_clear_and_change_nothing(client, app):
    eve = player(client, "Eve")
    for body, expected in (({"type": "chess"}, (422, "unknown_game_type")),
                           ({"type": "splendor", "seats": 9}, (400, "invalid_seats")),
                           ({"type": "splendor", "options": {"nope": 1}}, (400, "invalid_options")),
                           ({"type": "splendor", "extra": 1}, (400, "validation_error"))):
        r = client.post("/matchmaking", json=body, headers=auth(eve["key"]))
        assert (r.status_code, r.get_json()["code"]) == expected, (body, r.get_json())
    assert client.get("/matchmaking", headers=auth(eve["key"])).status_code == 404
    assert client.post("/matchmaking", json={"type": "splendor"}).status_code == 401


def test_windows_widen_with_waiting(redis_url):
    seeks = Seeks(redis.Redis.from_url(redis_url), f"mmw{uuid.uuid4().hex[:6]}:")
    wishes = {"type": "splendor", "seats": 2}
    seeks.join("p1", {"pool": wishes}, wishes, 1500, now=0)
    seeks.join("p2", {"pool": wishes}, wishes, 1800, now=0)
    windows, ttl = (100.0, 25.0, 1000.0), 600_000
    assert seeks.pair("pool", 2, 1_000, windows, ttl) == []  # 300 apart; windows 125
    assert seeks.pair("pool", 2, 7_900, windows, ttl) == []  # 297.5
    assert sorted(seeks.pair("pool", 2, 8_000, windows, ttl)) == ["p1", "p2"]  # 300 = 100 + 25 x 8
    assert seeks.seek_of("p1")["status"] == "pairing"
    seeks.join("p3", {"pool": wishes}, wishes, 1500, now=0)
    assert seeks.pair("pool", 2, 700_000, windows, ttl) == [] and seeks.seek_of("p3") is None  # expired


def test_many_seekers_racing_across_two_server_processes_are_each_matched_once(http_server):
    """200 seekers of random wishes, seeking at once through two gunicorn processes (and some
    leaving at once): nobody in two games, every game of one pool's wishes, and nobody left
    waiting beside a compatible seeker."""
    base = http_server
    people = [requests.post(f"{base}/players", json={"name": f"S{i}"}, timeout=10).json() for i in range(200)]
    rng = random.Random(7)
    wishes = [{"type": "splendor", "seats": rng.choice([2, 3]), "rated": rng.choice([True, False])} for _ in people]
    leaving = set(rng.sample(range(200), 20))
    barrier = threading.Barrier(16)

    def seek(i):
        if i < 16:
            barrier.wait()
        r = requests.post(f"{base}/matchmaking", json=wishes[i], headers=auth(people[i]["key"]), timeout=30)
        assert r.status_code == 201, r.text
        if i in leaving:
            left = requests.delete(f"{base}/matchmaking", headers=auth(people[i]["key"]), timeout=30)
            assert left.status_code in (204, 409), left.text
        return r.json()

    with ThreadPoolExecutor(16) as pool:
        list(pool.map(seek, range(200)))
    status = [requests.get(f"{base}/matchmaking", headers=auth(p["key"]), timeout=10) for p in people]
    games: dict[str, list[int]] = {}
    for i, r in enumerate(status):
        if r.status_code == 200 and r.json()["status"] == "matched":
            games.setdefault(r.json()["game_id"], []).append(i)
    for gid, members in games.items():
        game = requests.get(f"{base}/games/{gid}", timeout=10).json()
        assert sorted(s["player"] for s in game["seats"]) == sorted(people[i]["id"] for i in members)
        assert len({(wishes[i]["seats"], wishes[i]["rated"]) for i in members}) == 1
        assert len(members) == wishes[members[0]]["seats"]
    seated = [i for members in games.values() for i in members]
    assert len(seated) == len(set(seated))  # nobody in two games
    # everyone rated 1500 (newcomers): a pool never holds a full group left waiting
    waiting: dict[tuple, int] = {}
    for i, r in enumerate(status):
        if r.status_code == 200 and r.json()["status"] == "searching":
            key = (wishes[i]["seats"], wishes[i]["rated"])
            waiting[key] = waiting.get(key, 0) + 1
    assert all(n < seats for (seats, _), n in waiting.items()), waiting
    assert not any(r.status_code == 200 and r.json()["status"] == "pairing" for r in status)


def test_the_reconciler_s_pass_pairs_windows_widened_since(app, client):
    """Two seekers 200 points apart wait (windows of 100 at first); once they have waited 10 s
    (windows of 350) the pass the reconciler runs pairs them and makes their game."""
    import time

    services = app.extensions["services"]
    seeks = services.matchmaker.seeks
    fay, gus = player(client, "Fay"), player(client, "Gus")
    wishes = {"type": "splendor", "seats": 2, "rated": True, "options": {}, "clock": None}
    now = int(time.time() * 1000)
    seeks.join(fay["id"], {"far": wishes}, wishes, 1500, now)
    seeks.join(gus["id"], {"far": wishes}, wishes, 1700, now)
    assert services.pair_seeks() == 0
    seeks.join(fay["id"], {"far": wishes}, wishes, 1500, now - 10_000)
    seeks.join(gus["id"], {"far": wishes}, wishes, 1700, now - 10_000)
    assert services.pair_seeks() == 1
    fays = client.get("/matchmaking", headers=auth(fay["key"])).get_json()
    assert fays["status"] == "matched"
    assert client.get("/matchmaking", headers=auth(gus["key"])).get_json()["game_id"] == fays["game_id"]
    assert "far" not in seeks.pools()  # an empty pool is forgotten


def test_a_range_of_seats_waits_in_each_size_and_is_taken_once(client):
    """`max_seats`: a seek for 2 to 4 seats waits for a game of any of those sizes; taken by one,
    it leaves the others (the next pairing there passes it over), and nobody is in two games."""
    clock = {"per_move_s": 77}  # pools of this test's own
    ann, bob, cy = (player(client, n) for n in ("Ann", "Bob", "Cy"))

    def seek(who, seats, most=None):
        body = {"type": "splendor", "seats": seats, "clock": clock, **({"max_seats": most} if most else {})}
        r = client.post("/matchmaking", json=body, headers=auth(who["key"]))
        assert r.status_code == 201, r.get_json()
        return r.get_json()

    first = seek(ann, 2, 4)
    assert first["status"] == "searching" and first["wishes"]["seats"] == 2 and first["wishes"]["max_seats"] == 4
    assert seek(bob, 3)["status"] == "searching"  # 3 seats: Ann would, but nobody else yet
    third = seek(cy, 3)
    assert third["status"] == "matched"  # Ann, Bob and Cy: a game of 3
    game = client.get(f"/games/{third['game_id']}").get_json()
    assert sorted(s["name"] for s in game["seats"]) == ["Ann", "Bob", "Cy"]
    # Ann's waits at 2 and 4 are gone with her: a seeker of 2 does not find her there.
    dee, eve = player(client, "Dee"), player(client, "Eve")
    assert seek(dee, 2)["status"] == "searching"
    r = client.get("/matchmaking", headers=auth(ann["key"])).get_json()
    assert r["status"] == "matched" and r["game_id"] == third["game_id"]
    # Two ranges meet at their largest size the pool can make now: 2 to 4 beside Dee's 2.
    assert seek(eve, 2, 4)["status"] == "matched"
    assert client.get("/matchmaking", headers=auth(dee["key"])).get_json()["status"] == "matched"
    r = client.post("/matchmaking", json={"type": "splendor", "seats": 3, "max_seats": 2},
                    headers=auth(dee["key"]))
    assert (r.status_code, r.get_json()["code"]) == (400, "invalid_seats")


def test_seeks_a_crashed_maker_left_pairing_wait_again_and_pair(app, client):
    """The process that took a group died before making its game: after PAIRING_STALE_S the
    reconciler's pass puts the seeks back in their pools, and they pair into one game."""
    from api.matchmaking.pairing import PAIRING_STALE_S, WIDEN_PER_S, WIDEST, WINDOW

    clock = {"per_move_s": 61}  # pools of this test's own
    jo, kim = player(client, "Jo"), player(client, "Kim")
    r = client.post("/matchmaking", json={"type": "splendor", "seats": 3, "clock": clock}, headers=auth(jo["key"]))
    client.post("/matchmaking", json={"type": "splendor", "seats": 2, "max_seats": 3, "clock": clock},
                headers=auth(kim["key"]))
    matchmaker = app.extensions["matchmaker"]
    seeks = matchmaker.seeks
    pool = r.get_json()["wishes"] and seeks.seek_of(jo["id"])["pool"]
    now = int(__import__("time").time() * 1000)
    # A third seeker's maker takes the group of three, then dies (no game made).
    lee = player(client, "Lee")
    made = seeks.seek_of(jo["id"])["made"][pool]
    seeks.join(lee["id"], {pool: made}, made, 1500, now)
    taken = seeks.pair(pool, 3, now, (WINDOW, WIDEN_PER_S, WIDEST), 600_000)
    assert sorted(taken) == sorted([jo["id"], kim["id"], lee["id"]])
    assert client.get("/matchmaking", headers=auth(jo["key"])).get_json()["status"] == "pairing"
    assert matchmaker.repair(now + 1000) == 0  # not stale yet
    assert matchmaker.repair(now + PAIRING_STALE_S * 1000 + 1) == 3
    status = client.get("/matchmaking", headers=auth(kim["key"])).get_json()
    assert status["status"] == "searching" and status["wishes"]["max_seats"] == 3  # its range kept
    assert matchmaker.pair(pool, made) == 1
    game = client.get("/matchmaking", headers=auth(jo["key"])).get_json()
    assert game["status"] == "matched"
    assert client.get("/matchmaking", headers=auth(kim["key"])).get_json()["game_id"] == game["game_id"]


def test_matched_records_expire(app, client, redis_client):
    """Issue 49 (13): a `matched` record was kept in Redis for good. The reconciler's pass deletes
    it MATCHED_KEPT_S after the match (a player's newer seek stays), and GET /matchmaking stops
    naming the game then."""
    import time
    from unittest import mock

    from api.matchmaking.pairing import MATCHED_KEPT_S

    clock = {"per_move_s": 62}  # pools of this test's own
    mo, ned, ola = player(client, "Mo"), player(client, "Ned"), player(client, "Ola")
    for who in (mo, ned):
        r = client.post("/matchmaking", json={"type": "splendor", "seats": 2, "clock": clock}, headers=auth(who["key"]))
    assert r.get_json()["status"] == "matched"
    matchmaker = app.extensions["matchmaker"]
    seekers = matchmaker.seeks._seekers()
    now = int(time.time() * 1000)
    assert matchmaker.repair(now + 1000) == 0
    assert redis_client.hexists(seekers, mo["id"]) and redis_client.hexists(seekers, ned["id"])  # kept a while
    # Ned seeks again (a record of its own, not matched); Mo's matched record grows old.
    client.post("/matchmaking", json={"type": "splendor", "seats": 2, "clock": {"per_move_s": 63}},
                headers=auth(ned["key"]))
    later = now + MATCHED_KEPT_S * 1000 + 1000
    with mock.patch("api.matchmaking.pairing._now", return_value=later):
        assert client.get("/matchmaking", headers=auth(mo["key"])).status_code == 404  # past its keeping
        matchmaker.repair(later)
    assert not redis_client.hexists(seekers, mo["id"])
    assert client.get("/matchmaking", headers=auth(ned["key"])).get_json()["status"] == "searching"
    assert client.get("/matchmaking", headers=auth(ola["key"])).status_code == 404
