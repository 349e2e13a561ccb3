"""A new game and a claim are in the players' games and the lobby when their answer arrives: their after-append steps run before it (GameService.append_platform), while a move's
run after it (api/games/deferred.py). The deferred thread is held busy throughout, so a step
left to it could not have run by the reads."""
from __future__ import annotations

import threading

from tests.api.helpers import auth
from tests.lobby.helpers import claim, listed, open_game, player


def games_of(client, key, status):
    r = client.get(f"/players/me/games?status={status}&limit=100", headers=auth(key))
    assert r.status_code == 200, r.get_json()
    return [g["id"] for g in r.get_json()["games"]]


def test_a_new_game_and_a_claim_are_listed_when_answered(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    held, release = threading.Event(), threading.Event()

    def hold():
        held.set()
        release.wait(60)

    app.extensions["games"].defer(hold)  # the deferred thread waits until the end of the test
    try:
        assert held.wait(10)
        gid = open_game(client, ann["key"])["id"]
        assert gid in games_of(client, ann["key"], "waiting")
        assert gid in [g["id"] for g in listed(client, "/games?status=waiting&limit=100")]
        assert claim(client, gid, 1, bob["key"]).status_code == 201
        assert gid in games_of(client, bob["key"], "active") and gid in games_of(client, ann["key"], "active")
    finally:
        release.set()
