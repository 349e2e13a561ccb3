"""Rematch: once a game is over, anyone seated in it asks for a new waiting game of the same
type, options and bots, each player's seat kept for them for 10 minutes; the finished game
names it, and the players' streams tell them."""
from __future__ import annotations

import uuid

from tests.api.helpers import auth, move, read
from tests.conftest import wait_for
from tests.lobby.helpers import claim, open_game, player
from tests.lobby.test_player_stream import Stream


def _play_high_card_to_end(client, gid, keys):
    def step():
        game = read(client, gid)
        if game["status"] == "finished":
            return True
        for key in keys:
            moves = client.get(f"/games/{gid}/moves", headers=auth(key)).get_json()
            if moves["moves"]:
                move(client, gid, key, moves["moves"][0], moves["version"], uuid.uuid4().hex)
        return False

    wait_for(step, timeout=30, interval=0.05)


def test_a_rematch_keeps_the_players_seats_for_them(client, app, workers):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    gid = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"bot": "random"}], type_="high-card",
                    options={"rounds": 1})["id"]
    r = client.post(f"/games/{gid}/rematch", headers=auth(ann["key"]))
    assert r.status_code == 409 and r.get_json()["code"] == "game_not_over"
    claim(client, gid, 1, bob["key"])
    _play_high_card_to_end(client, gid, [ann["key"], bob["key"]])
    stream = Stream(client, "/players/me/stream", {**auth(bob["key"]), "Last-Event-ID": "0"})
    try:
        assert client.post(f"/games/{gid}/rematch", headers=auth(cy["key"])).status_code == 403  # not seated
        r = client.post(f"/games/{gid}/rematch", headers=auth(ann["key"]))
        assert r.status_code == 201, r.get_json()
        new = r.get_json()["id"]
        assert client.post(f"/games/{gid}/rematch", headers=auth(bob["key"])).get_json() == {"id": new}
        assert read(client, gid)["rematch"] == new
        assert stream.until("rematch", gid)[-1][2]["rematch"] == new
    finally:
        stream.close()
    game = read(client, new)
    assert game["status"] == "waiting" and game["type"] == "high-card"
    assert [s.get("reserved_for") for s in game["seats"][:2]] == [ann["id"], bob["id"]]
    assert game["seats"][2]["bot"] == "random"
    r = claim(client, new, 0, cy["key"])
    assert r.status_code == 409 and r.get_json()["code"] == "seat_reserved"
    assert claim(client, new, 0, ann["key"]).status_code == 201
    assert claim(client, new, 1, bob["key"]).get_json()["status"] == "active"
