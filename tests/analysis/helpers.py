"""Finished games with a person's decisions in them, played through the API and the real turn
workers: the person (a player's key) makes a few moves, then resigns (the bots finish a game
that still has enough seats)."""
from __future__ import annotations

from tests.api.helpers import auth, move, read
from tests.conftest import wait_for
from tests.lobby.helpers import player

# Each type with its seats and options: as short as a whole game allows.
GAMES = {
    "splendor": ([{"bot": "random"}], {}),
    "witches": ([{"bot": "random"}, {"bot": "random"}], {"rounds": 1}),
    "setup": ([{"bot": "random"}], {}),
    "fairy-tile": ([{"bot": "random"}], {}),
    "smallworld-of-warcraft": ([{"bot": "random"}], {}),
}
DECISIONS = 3  # the person's moves before resigning


def person_game(client, type_: str, seed: int = 7, decisions: int = DECISIONS, finish: bool = True):
    """(game id, the person's player, the versions it decided at): seat 0 is the person."""
    ann = player(client, "Ann")
    bots, options = GAMES[type_]
    r = client.post("/games", json={"type": type_, "seats": [{"me": True}, *bots], "options": options,
                                    "seed": seed}, headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    gid, decided = r.get_json()["id"], []
    for _ in range(decisions):
        game = wait_for(lambda: _my_turn_or_over(client, gid, ann["key"]), timeout=60)
        if game["status"] != "active":
            break
        moves = client.get(f"/games/{gid}/moves", headers=auth(ann["key"])).get_json()["moves"]
        r = move(client, gid, ann["key"], moves[0], game["version"])
        assert r.status_code == 201, r.get_json()
        # The version its events were appended at (a simultaneous phase may append a move
        # decided earlier, after the others' passes: Witches)
        decided.append(r.get_json()["version"] - len(r.get_json()["events"]))
    if finish and read(client, gid)["status"] == "active":
        r = client.post(f"/games/{gid}/resign", headers=auth(ann["key"]))
        assert r.status_code == 200, r.get_json()
        wait_for(lambda: read(client, gid)["status"] != "active", timeout=120, interval=0.1)
    return gid, ann, decided


def _my_turn_or_over(client, gid, key):
    game = read(client, gid, key)
    return game if game["status"] != "active" or 0 in game["to_act"] else None


def analysed(client, gid, timeout=120.0):
    """The analysis once done (polling as a client told `202` would)."""
    def done():
        r = client.get(f"/games/{gid}/analysis")
        assert r.status_code in (200, 202), r.get_json()
        return r.get_json() if r.status_code == 200 and r.get_json()["status"] == "done" else None
    return wait_for(done, timeout=timeout, interval=0.2)
