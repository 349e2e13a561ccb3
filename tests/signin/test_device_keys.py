"""Keys per device and the recovery code (issue 36): a player holds several named keys, lists
them without their secrets, revokes one without touching the others (its streams and tickets end
as a rotated key's do), and a recovery code, shown once and used once, makes a new key."""
from __future__ import annotations

import threading
import time

import requests

from tests.api.helpers import auth, step_up
from tests.conftest import wait_for
from tests.lobby.helpers import claim, open_game, player
from tests.lobby.test_key_rotation import ENDS_WITHIN_S, _lines_until_end


def _keys(client, key):
    r = client.get("/players/me/keys", headers=auth(key))
    assert r.status_code == 200, r.get_json()
    return r.get_json()["keys"]


def test_a_player_holds_a_key_per_device_and_lists_them_without_secrets(client):
    ann = player(client, "Ann")
    made = client.post("/players/me/keys", json={"name": "Ann's phone"}, headers=auth(ann["key"]))
    assert made.status_code == 201, made.get_json()
    phone = made.get_json()
    assert phone["key"].startswith("pk.") and phone["key"] != ann["key"] and phone["name"] == "Ann's phone"
    assert made.headers["Location"] == f"/players/me/keys/{phone['id']}"
    # Both work, as the same player.
    assert client.get("/players/me", headers=auth(phone["key"])).get_json()["id"] == ann["id"]
    listed = _keys(client, phone["key"])
    assert [k["name"] for k in listed] == ["first key", "Ann's phone"]
    assert [k["current"] for k in listed] == [False, True]
    assert all(k["last_used"] is not None for k in listed)  # each authenticated a request
    text = str(listed)
    assert ann["key"] not in text and phone["key"] not in text and "key" not in listed[0]


def test_revoking_one_key_leaves_the_others(client):
    ann = player(client, "Ann")
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()
    step_up(client, ann["key"], ann["recovery_code"])
    assert client.delete(f"/players/me/keys/{phone['id']}", headers=auth(ann["key"])).status_code == 204
    refused = client.get("/players/me", headers=auth(phone["key"]))
    assert refused.status_code == 401 and refused.get_json()["code"] == "invalid_player_key"
    assert client.get("/players/me", headers=auth(ann["key"])).status_code == 200
    assert [k["name"] for k in _keys(client, ann["key"])] == ["first key"]
    again = client.delete(f"/players/me/keys/{phone['id']}", headers=auth(ann["key"]))
    assert again.status_code == 404 and again.get_json()["code"] == "unknown_key"


def test_another_players_key_id_is_unknown_and_revokes_nothing(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    bobs = _keys(client, bob["key"])[0]["id"]
    r = client.delete(f"/players/me/keys/{bobs}", headers=auth(ann["key"]))
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_key"
    assert client.get("/players/me", headers=auth(bob["key"])).status_code == 200


def test_bad_key_requests_are_refused_and_change_nothing(client):
    ann = player(client, "Ann")
    for body in ({"name": ""}, {"name": "x" * 41}, {"name": "a", "extra": 1}, {"nom": "a"}):
        r = client.post("/players/me/keys", json=body, headers=auth(ann["key"]))
        assert r.status_code == 400 and r.get_json()["code"] == "validation_error", body
    assert len(_keys(client, ann["key"])) == 1
    assert client.post("/players/me/keys", json={"name": "a"}).status_code == 401
    for _ in range(19):
        assert client.post("/players/me/keys", json={"name": "d"}, headers=auth(ann["key"])).status_code == 201
    full = client.post("/players/me/keys", json={"name": "one too many"}, headers=auth(ann["key"]))
    assert full.status_code == 409 and full.get_json()["code"] == "too_many_keys"
    assert len(_keys(client, ann["key"])) == 20


def test_a_rotation_keeps_the_keys_name_and_the_other_keys(client):
    ann = player(client, "Ann")
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()
    rotated = client.post("/players/me/keys", headers=auth(phone["key"])).get_json()["key"]
    assert client.get("/players/me", headers=auth(phone["key"])).status_code == 401
    listed = _keys(client, rotated)
    assert [(k["id"], k["name"]) for k in listed][1] == (phone["id"], "phone")
    assert client.get("/players/me", headers=auth(ann["key"])).status_code == 200


def test_a_key_of_a_player_made_before_keys_per_device_still_works_and_is_listed(client, app, redis_client):
    """A player hash with its one `key` field (and its index entry), as the server wrote before."""
    from api.games.callers import hash_token

    prefix = app.extensions["settings"].key_prefix
    key = "pk.legacy-" + str(time.time_ns())
    pid = f"pOld{time.time_ns()}"
    redis_client.hset(f"{prefix}player:{{{pid}}}", mapping={"name": "Old", "key": hash_token(key), "bot": 0})
    redis_client.set(f"{prefix}player-key:{hash_token(key)}", pid)
    assert client.get("/players/me", headers=auth(key)).get_json()["id"] == pid
    assert [k["name"] for k in _keys(client, key)] == ["first key"]
    assert redis_client.hget(f"{prefix}player:{{{pid}}}", "key") is None  # moved into the ring


# ---- the recovery code ------------------------------------------------------------------------

def test_a_recovery_code_makes_a_new_key_once_and_gives_the_next(client):
    ann = player(client, "Ann")
    code = ann["recovery_code"]
    assert code.startswith("rc.")
    r = client.post("/recover", json={"code": code, "name": "new laptop"})
    assert r.status_code == 201, r.get_json()
    recovered = r.get_json()
    assert recovered["id"] == ann["id"] and recovered["recovery_code"] != code
    assert client.get("/players/me", headers=auth(recovered["key"])).get_json()["id"] == ann["id"]
    assert "new laptop" in [k["name"] for k in _keys(client, recovered["key"])]
    used = client.post("/recover", json={"code": code})
    assert used.status_code == 401 and used.get_json()["code"] == "invalid_recovery_code"
    assert client.post("/recover", json={"code": recovered["recovery_code"]}).status_code == 201


def test_a_new_recovery_code_replaces_the_old(client):
    ann = player(client, "Ann")
    step_up(client, ann["key"], ann["recovery_code"])
    r = client.post("/players/me/recovery-code", headers=auth(ann["key"]))
    assert r.status_code == 201
    fresh = r.get_json()["recovery_code"]
    old = client.post("/recover", json={"code": ann["recovery_code"]})
    assert old.status_code == 401 and old.get_json()["code"] == "invalid_recovery_code"
    assert client.post("/recover", json={"code": fresh}).status_code == 201


def test_bad_recovery_requests_are_refused(client):
    for body, code in (({}, "validation_error"), ({"code": ""}, "validation_error"), ({"code": "x" * 101}, "validation_error"),
                       ({"code": "rc.nope"}, "invalid_recovery_code"), ({"code": "pk.nope"}, "invalid_recovery_code")):
        r = client.post("/recover", json=body)
        assert r.get_json()["code"] == code, body


def test_two_requests_racing_with_one_code_get_one_key(http_server):
    ann = requests.post(f"{http_server}/players", json={"name": "Ann"}, timeout=10).json()
    answers, start = [], threading.Barrier(4)

    def recover():
        start.wait()
        answers.append(requests.post(f"{http_server}/recover", json={"code": ann["recovery_code"]}, timeout=10))
    threads = [threading.Thread(target=recover) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(r.status_code for r in answers) == [201, 401, 401, 401]


def test_requests_racing_for_the_last_keys_never_make_more_than_twenty(http_server):
    ann = requests.post(f"{http_server}/players", json={"name": "Ann"}, timeout=10).json()
    for _ in range(17):  # 18 held: 2 places left for 8 racers
        requests.post(f"{http_server}/players/me/keys", json={"name": "d"}, headers=auth(ann["key"]), timeout=10)
    answers, start = [], threading.Barrier(8)

    def add():
        start.wait()
        answers.append(requests.post(f"{http_server}/players/me/keys", json={"name": "racer"},
                                     headers=auth(ann["key"]), timeout=10).status_code)
    threads = [threading.Thread(target=add) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    held = requests.get(f"{http_server}/players/me/keys", headers=auth(ann["key"]), timeout=10).json()["keys"]
    assert len(held) <= 20 and answers.count(201) == len(held) - 18, (answers, len(held))
    assert set(answers) <= {201, 409}


# ---- revoking ends what the key opened --------------------------------------------------------

def test_on_the_real_server_revoking_a_key_ends_its_streams_and_tickets_only(http_server):
    def post(path, key, json=None):
        r = requests.post(f"{http_server}{path}", json=json, headers=auth(key), timeout=10)
        assert r.status_code == 201, r.text
        return r.json()

    ann, bob = post("/players", None, {"name": "Ann"}), post("/players", None, {"name": "Bob"})
    phone = post("/players/me/keys", ann["key"], {"name": "phone"})
    gid = post("/games", ann["key"], {"type": "splendor", "seats": [{"me": True}, {"open": True}]})["id"]
    post(f"/games/{gid}/seats/1/claim", bob["key"])
    tickets = [post(f"/games/{gid}/stream-tickets", phone["key"])["stream"],
               post("/players/me/stream-tickets", phone["key"])["stream"]]
    opened = [requests.get(f"{http_server}{path}", headers=auth(phone["key"]), stream=True, timeout=10)
              for path in (f"/games/{gid}/stream", "/players/me/stream")]
    kept = requests.get(f"{http_server}/players/me/stream", headers=auth(ann["key"]), stream=True, timeout=10)
    try:
        assert [r.status_code for r in [*opened, kept]] == [200] * 3
        time.sleep(0.5)
        assert requests.post(f"{http_server}/players/me/step-up", json={"recovery_code": ann["recovery_code"]},
                             headers=auth(ann["key"]), timeout=10).status_code == 201
        r = requests.delete(f"{http_server}/players/me/keys/{phone['id']}", headers=auth(ann["key"]), timeout=10)
        assert r.status_code == 204
        for response in opened:
            ended, text = _lines_until_end(response, ENDS_WITHIN_S)
            assert ended and "the player key of this stream was replaced" in text, text[-300:]
        for url in tickets:
            refused = requests.get(f"{http_server}{url}", timeout=10)
            assert refused.status_code == 401 and refused.json()["code"] == "invalid_ticket"
        ended, _ = _lines_until_end(kept, 1.5)
        assert not ended  # the first key's stream goes on
        assert requests.get(f"{http_server}/players/me", headers=auth(ann["key"]), timeout=10).status_code == 200
    finally:
        for response in [*opened, kept]:
            response.close()


def test_seats_and_games_follow_the_player_not_the_key(client):
    """A game made with one device's key is played with another's."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()
    created = open_game(client, ann["key"])
    assert claim(client, created["id"], 1, bob["key"]).status_code == 201
    # the players' games are written after the answer (api/games/deferred.py): read until there
    assert wait_for(lambda: [g["id"] for g in client.get(
        "/players/me/games", headers=auth(phone["key"])).get_json()["games"]] == [created["id"]])
