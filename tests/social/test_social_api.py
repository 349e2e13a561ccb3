"""Follows, friends with their presence, followers, privacy and challenges through the API
(issue 53), the relations kept as events whose fold is the projection the reads use."""
from __future__ import annotations

from tests.api.helpers import auth
from tests.conftest import settled, wait_for
from tests.lobby.helpers import claim, player


def _inbox(app, player_id):
    return [e for _, e in app.extensions["players"].inbox_after(player_id, "0-0", 100)]


def test_follow_twice_makes_friends_listed_with_their_presence(app, client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    r = client.post(f"/players/{bob['id']}/follow", headers=auth(ann["key"]))
    assert r.status_code == 200 and r.get_json() == {"player": bob["id"], "following": True,
                                                     "followed_by": False, "blocked": False}
    assert client.get("/players/me/friends", headers=auth(ann["key"])).get_json() == {"friends": []}
    followers = client.get("/players/me/followers", headers=auth(bob["key"])).get_json()["followers"]
    assert followers == [{"id": ann["id"], "name": "Ann", "bot": False}]
    assert client.post(f"/players/{ann['id']}/follow", headers=auth(bob["key"])).get_json()["followed_by"]
    friends = client.get("/players/me/friends", headers=auth(ann["key"])).get_json()["friends"]
    assert friends == [{"id": bob["id"], "name": "Bob", "bot": False, "online": False, "playing": False,
                        "game": None}]
    # Bob plays a public game (with a bot) and opens his player stream: Ann sees him online, playing it
    game = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"bot": "random"}]},
                       headers=auth(bob["key"])).get_json()
    stream = client.get("/players/me/stream", headers=auth(bob["key"]), buffered=False)
    try:
        def seen():  # the player's games are written after the answer (api/games/deferred.py)
            friend = client.get("/players/me/friends", headers=auth(ann["key"])).get_json()["friends"][0]
            return (friend["online"], friend["playing"], friend["game"]) == (True, True, game["id"])
        assert wait_for(seen)
    finally:
        stream.close()
    # unfollowing ends the friendship; a second unfollow changes nothing
    assert client.delete(f"/players/{ann['id']}/follow", headers=auth(bob["key"])).status_code == 204
    assert client.delete(f"/players/{ann['id']}/follow", headers=auth(bob["key"])).status_code == 204
    assert client.get("/players/me/friends", headers=auth(ann["key"])).get_json() == {"friends": []}
    following = client.get("/players/me/following", headers=auth(ann["key"])).get_json()["following"]
    assert [p["id"] for p in following] == [bob["id"]]
    social = app.extensions["social"]
    assert [e["type"] for e in social.events() if e["player"] in (ann["id"], bob["id"])] == [
        "followed", "followed", "unfollowed"]
    rebuilt = social.rebuilt()  # the fold of the stream says what the projection says
    assert ((ann["id"], bob["id"]) in rebuilt.follows, (bob["id"], ann["id"]) in rebuilt.follows) == (True, False)


def test_privacy_settings_say_who_may_follow_and_challenge(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    assert client.get("/players/me/privacy", headers=auth(bob["key"])).get_json() == {
        "follow": "everyone", "challenge": "everyone", "message": "friends"}
    r = client.patch("/players/me/privacy", json={"follow": "nobody", "challenge": "friends"}, headers=auth(bob["key"]))
    assert r.status_code == 200 and r.get_json() == {"follow": "nobody", "challenge": "friends", "message": "friends"}
    r = client.post(f"/players/{bob['id']}/follow", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "not_allowed_by_player")
    r = client.post(f"/players/{bob['id']}/challenge", json={"type": "splendor"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "not_allowed_by_player")
    assert "도전" not in r.get_json()["detail"]
    ko = client.post(f"/players/{bob['id']}/challenge", json={"type": "splendor"},
                     headers={**auth(ann["key"]), "Accept-Language": "ko"}).get_json()
    assert ko["code"] == "not_allowed_by_player" and "공개 범위" in ko["detail"]
    for bad in ({}, {"follow": "maybe"}, {"colour": "red"}):
        r = client.patch("/players/me/privacy", json=bad, headers=auth(bob["key"]))
        assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")
    r = client.post(f"/players/{ann['id']}/follow", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (422, "self_relation")
    r = client.post("/players/nobody-has-this-id/follow", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_player")


def test_a_challenge_keeps_the_friends_seat_and_tells_them(app, client):
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    r = client.post(f"/players/{bob['id']}/challenge", json={"type": "splendor", "rated": False},
                    headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    assert made["challenged"] == bob["id"] and made["reserved_seat"] == 1 and made["status"] == "waiting"
    game = client.get(f"/games/{made['id']}").get_json()
    assert game["seats"][0]["name"] == "Ann" and game["seats"][1]["name"] is None
    told = [e for e in _inbox(app, bob["id"]) if e["type"] == "challenged"]
    assert told and told[-1]["game_id"] == made["id"] and told[-1]["by"] == ann["id"]
    assert told[-1]["your_seat"] == 1
    # the seat is Bob's: Cat cannot take it; Bob takes it with his key and the game starts
    r = claim(client, made["id"], 1, cat["key"])
    assert (r.status_code, r.get_json()["code"]) == (409, "seat_reserved")
    r = claim(client, made["id"], 1, bob["key"])
    assert r.status_code == 201 and r.get_json()["status"] == "active"
    # not listed in the lobby (a private game), once the start's feed has run (after the answer)
    settled(app)
    assert made["id"] not in [g["id"] for g in client.get("/games?status=active").get_json()["games"]]
    r = client.post(f"/players/{bob['id']}/challenge", json={"type": "no-such-game"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (422, "unknown_game_type")
    r = client.post(f"/players/{ann['id']}/challenge", json={"type": "splendor"}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (422, "self_relation")


def test_the_challenge_notice_is_said_and_pushed_in_the_players_language():
    from api.push import messages
    from api.words import notices

    entry = {"type": "challenged", "game_id": "g1", "game_type": "splendor", "version": 1, "at": 1, "seat": 0,
             "name": "Ann", "by": "a", "your_seat": 1}
    assert notices.said(entry, "en")["text"] == "Splendor: Ann challenges you."
    assert "Ann 님이 도전을 신청했습니다" in notices.said(entry, "ko")["text"]
    assert messages.pushed(entry) and messages.headers(entry, 60)["Urgency"] == "high"


def test_a_challenged_player_declines_and_the_challenger_is_told(app, client):
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    made = client.post(f"/players/{bob['id']}/challenge", json={"type": "splendor"}, headers=auth(ann["key"])).get_json()
    before = client.get(f"/games/{made['id']}").get_json()
    # only the challenged player declines (in the caller's language); nothing is written otherwise
    for who in (cat, ann):
        r = client.post(f"/games/{made['id']}/decline", headers={**auth(who["key"]), "Accept-Language": "ko"})
        assert (r.status_code, r.get_json()["code"]) == (404, "unknown_challenge")
        assert "도전이 없습니다" in r.get_json()["detail"]
    r = client.post(f"/games/{made['id']}/decline")
    assert (r.status_code, r.get_json()["code"]) == (401, "token_required")
    assert client.get(f"/games/{made['id']}").get_json()["version"] == before["version"]
    r = client.post(f"/games/{made['id']}/decline", headers=auth(bob["key"]))
    assert r.status_code == 204, r.get_json()
    game = client.get(f"/games/{made['id']}").get_json()
    assert game["status"] == "aborted"
    told = [e for e in _inbox(app, ann["id"]) if e["type"] == "challenge_declined"]
    assert [(e["game_id"], e["by"], e["name"]) for e in told] == [(made["id"], bob["id"], "Bob")]
    # answered once: a second decline, or one of a game that was never a challenge, is refused
    r = client.post(f"/games/{made['id']}/decline", headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_challenge")
    other = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]}, headers=auth(ann["key"])).get_json()
    r = client.post(f"/games/{other['id']}/decline", headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_challenge")


def test_the_declined_notice_is_said_in_the_players_language():
    from api.words import notices

    entry = {"type": "challenge_declined", "game_id": "g1", "game_type": "splendor", "version": 2, "at": 1, "seat": 1,
             "name": "Bob", "by": "b"}
    assert notices.said(entry, "en")["text"] == "Splendor: Bob declined your challenge."
    assert "Bob 님이 도전을 거절했습니다" in notices.said(entry, "ko")["text"]
