"""Players (keys, names, rotation), the lobby's listing and a player's games."""
from __future__ import annotations

import uuid

from tests.api.helpers import auth, move, read
from tests.conftest import settled, wait_for
from tests.lobby.helpers import claim, listed, open_game, player


def test_a_player_key_is_shown_once_and_rotates(client, app):
    ann = player(client, "Ann")
    assert ann["key"].startswith("pk.") and ann["id"] and ann["name"] == "Ann"
    me = client.get("/players/me", headers=auth(ann["key"])).get_json()
    assert me == {"id": ann["id"], "name": "Ann", "bot": False, "links": ann["links"]}
    r = client.patch("/players/me", json={"name": "Annie"}, headers=auth(ann["key"]))
    assert r.get_json()["name"] == "Annie"
    rotated = client.post("/players/me/keys", headers=auth(ann["key"]))
    assert rotated.status_code == 201
    new = rotated.get_json()["key"]
    old = client.get("/players/me", headers=auth(ann["key"]))
    assert old.status_code == 401 and old.get_json()["code"] == "invalid_player_key"
    assert client.get("/players/me", headers=auth(new)).get_json()["name"] == "Annie"
    # only hashes are stored
    players = app.extensions["players"]
    stored = [k for k in players.redis.scan_iter(f"{players.prefix}player*")]
    for key in stored:
        kind = players.redis.type(key)
        if kind == b"hash":
            assert new.encode() not in b"".join(players.redis.hgetall(key).values())
        assert new.encode() not in key


def test_player_requests_need_a_player_key(client):
    assert client.get("/players/me").get_json()["code"] == "token_required"
    assert client.get("/players/me", headers=auth("pk.nonsense")).get_json()["code"] == "invalid_player_key"
    r = client.post("/players", json={"name": "\u202eevil"})
    assert r.status_code == 400 and r.get_json()["code"] == "validation_error"
    r = client.post("/players", json={"name": "A", "admin": True})
    assert r.status_code == 400


def test_the_lobby_lists_open_public_games_newest_first_with_a_next_link(client, app):
    kind = "high-card"  # a type few other tests list games of
    host = player(client, "Host")
    made = [open_game(client, host["key"], [{"me": True}, {"open": True}], type_=kind)["id"] for _ in range(5)]
    hidden = open_game(client, host["key"], [{"me": True}, {"open": True}], type_=kind, private=True)["id"]

    def waiting_ids():
        ids, url = [], f"/games?status=waiting&type={kind}&limit=2"
        while url:
            page = client.get(url).get_json()
            assert len(page["games"]) <= 2
            ids += [g["id"] for g in page["games"]]
            url = page["next"]
        return ids

    wait_for(lambda: set(made) <= set(waiting_ids()))
    settled(app)  # the private game's feed too (it runs after the answer): its absence is then no accident of timing
    ids = waiting_ids()
    assert [i for i in ids if i in made] == made[::-1] and hidden not in ids
    # Once its last seat is taken it leaves the waiting list for the active one.
    claim(client, made[0], 1, player(client, "Bob")["key"])
    wait_for(lambda: made[0] not in waiting_ids())
    wait_for(lambda: made[0] in [g["id"] for g in client.get(f"/games?status=active&type={kind}&limit=100")
                                 .get_json()["games"]])


def test_listing_rejects_bad_queries(client):
    for query in ("status=bogus", "limit=0", "limit=101", "cursor=xyz", "type=%00", "extra=1"):
        r = client.get(f"/games?{query}")
        assert r.status_code == 400 and r.get_json()["code"] == "validation_error", query


def test_my_games_say_where_it_is_my_turn(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    claim(client, gid, 1, bob["key"])

    def mine(key, query=""):
        return [(g["id"], g["my_turn"]) for g in client.get(f"/players/me/games?{query}", headers=auth(key))
                .get_json()["games"]]

    wait_for(lambda: (gid, True) in mine(ann["key"], "status=active&my_turn=true"))
    wait_for(lambda: (gid, False) in mine(bob["key"], "status=active"))  # each player's list follows on its own
    assert gid not in [g for g, _ in mine(bob["key"], "my_turn=true")]
    game = read(client, gid, ann["key"])
    legal = client.get(f"/games/{gid}/moves", headers=auth(ann["key"])).get_json()["moves"]
    assert move(client, gid, ann["key"], legal[0], game["version"], uuid.uuid4().hex).status_code == 201
    wait_for(lambda: (gid, True) in mine(bob["key"], "my_turn=true"))
    assert gid not in [g for g, _ in mine(ann["key"], "my_turn=true")]
    page = client.get("/players/me/games?limit=1", headers=auth(ann["key"])).get_json()
    assert len(page["games"]) == 1 and page["next"] and "cursor=" in page["next"]


def test_a_next_link_keeps_the_query_url_encoded(app):
    from api.http.requests import cursor_link

    with app.test_request_context("/games?type=a%26b+c&limit=1&cursor=9.old"):
        assert cursor_link("/games", (5, "g1")) == "/games?type=a%26b+c&limit=1&cursor=5.g1"
        assert cursor_link("/games", None) is None


def test_a_bot_account_is_shown_as_one_at_the_table_and_in_the_lobby(client):
    r = client.post("/players", json={"name": "Deep Gem", "bot": True})
    assert r.status_code == 201 and r.get_json()["bot"] is True
    bot_key = r.get_json()["key"]
    assert client.get("/players/me", headers={"Authorization": f"Bearer {bot_key}"}).get_json()["bot"] is True
    refused = client.post("/players", json={"name": "X", "bot": "yes"})
    assert refused.status_code == 400 and refused.get_json()["code"] == "validation_error"
    ann = client.post("/players", json={"name": "Ann"}).get_json()
    assert ann["bot"] is False
    made = client.post("/games", headers={"Authorization": f"Bearer {ann['key']}"},
                       json={"type": "splendor", "seats": [{"me": True}, {"open": True}, {"open": True}]}).get_json()
    r = client.post(f"/games/{made['id']}/seats/1/claim", headers={"Authorization": f"Bearer {bot_key}"})
    assert r.status_code == 201, r.get_json()
    # the lobby's index is placed after the append, off the request: under load it lags
    entry = wait_for(lambda: next((g for g in listed(client, "/games?status=waiting&type=splendor&limit=50")
                                   if g["id"] == made["id"] and g["seats"][1].get("bot_account")), None))
    seats = client.get(f"/games/{made['id']}").get_json()["seats"]
    for shown in (entry["seats"], seats):
        assert shown[1]["bot_account"] is True and "bot_account" not in shown[0] and "bot_account" not in shown[2]
    own = client.post("/games", headers={"Authorization": f"Bearer {bot_key}"},
                      json={"type": "splendor", "seats": [{"me": True}, {"bot": "random"}]}).get_json()
    assert client.get(f"/games/{own['id']}").get_json()["seats"][0]["bot_account"] is True
