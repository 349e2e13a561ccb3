"""The sync after a gap (issue 54): `GET /players/me/sync?since=<cursor>` over a scripted stretch
of play. Ann's phone reads the sync, goes offline while Ann plays on her laptop and Bob plays
and invites her to a second game, then comes back: its one sync holds exactly what Ann's
player stream (her laptop's, open throughout) carried meanwhile, but the `your_turn`s her own
moves made stale since, and the games waiting on her now with their versions.

(A stream resumed with `Last-Event-ID` from its process's ring may still send a `your_turn` that
went stale after the ring framed it; the sync reads the inbox, as a resume from the store does,
and never does.)"""
from __future__ import annotations

import uuid

from tests.api.helpers import auth, move, read
from tests.conftest import settled
from tests.lobby.helpers import claim, open_game, player
from tests.lobby.test_player_stream import Stream


def sync(client, key, since=None, **params):
    settled(client.application)
    query = {**({"since": since} if since is not None else {}), **params}
    r = client.get("/players/me/sync", query_string=query, headers=auth(key))
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def play_one(client, gid, keys):
    """The first legal move of whoever is to act; the version after it."""
    game = read(client, gid)
    seat = game["to_act"][0]
    listed = client.get(f"/games/{gid}/moves", headers=auth(keys[seat])).get_json()
    assert move(client, gid, keys[seat], listed["moves"][0], listed["version"], uuid.uuid4().hex).status_code == 201
    return read(client, gid)["version"]


def key(entry_id):
    ms, _, seq = entry_id.partition("-")
    return int(ms), int(seq)


def read_until(stream, last_id, seen=None):
    """The stream's events up to the one of id `last_id` (none if it was read already), added to
    `seen` (the events it read before)."""
    seen = [] if seen is None else seen
    start = len(seen)
    while not (seen and key(seen[-1][1]) >= key(last_id)) and last_id != "0-0":
        seen.append(stream.next())
    return seen[start:]


def newest(app, player_id):
    """The id of the player's newest inbox entry once every append's feed has run. Read too soon,
    it may be an older entry's, and the one written next a `your_turn` already stale (Ann moved
    meanwhile) that the stream never frames: a wait for it would run out at SSE_MAX_SECONDS."""
    settled(app)
    return app.extensions["players"].inbox_last_id(player_id)


def test_a_sync_after_a_gap_returns_what_the_player_stream_carried(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    keys = {0: ann["key"], 1: bob["key"]}
    live = Stream(client, "/players/me/stream", auth(ann["key"]))  # her laptop's tab, open throughout
    try:
        first = sync(client, ann["key"])
        assert first["notices"] == [] and first["reset"] is False and first["my_turn"] == []
        g1 = open_game(client, ann["key"])["id"]
        assert claim(client, g1, 1, bob["key"]).status_code == 201
        heard: list = []  # what the laptop's stream carried
        # framed before Ann's move makes her first your_turn stale: a stream that reads an entry
        # already stale skips it, and a wait for its id would run out (a loaded host, stop 66)
        read_until(live, newest(app, ann["id"]), heard)
        play_one(client, g1, keys)
        online = sync(client, ann["key"], first["cursor"])  # the phone, still online
        assert [n["type"] for n in online["notices"]][:2] == ["seat_claimed", "game_started"]
        cursor = online["cursor"]
        read_until(live, newest(app, ann["id"]), heard)

        # The phone goes offline. Ann plays on her laptop, Bob plays and opens a game for her.
        for _ in range(5):  # Bob, Ann, Bob, Ann, Bob: Ann to act at the end
            play_one(client, g1, keys)
            read_until(live, newest(app, ann["id"]), heard)
        g2 = open_game(client, bob["key"])["id"]
        assert claim(client, g2, 1, ann["key"]).status_code == 201
        g3 = open_game(client, bob["key"])["id"]  # waits for a second seat: not Ann's
        g4 = open_game(client, ann["key"])["id"]  # Ann's, waiting for a player
        read_until(live, newest(app, ann["id"]), heard)
        carried = [e for e in heard if key(e[1]) > key(cursor)]

        back = sync(client, ann["key"], cursor)
        assert back["reset"] is False and back["more"] is False
        assert back["cursor"] == newest(app, ann["id"])
        # Exactly what the laptop's stream carried while the phone was away, but the turns that
        # are no longer hers (her laptop moved in them since): the same ids, kinds and data.
        current = {g: read(client, g)["version"] for g in {e[2].get("game_id") for e in carried} if g}
        expected = [e for e in carried if not (e[0] == "your_turn" and e[2]["version"] < current[e[2]["game_id"]])]
        assert [(n["type"], n["id"], {k: v for k, v in n.items() if k != "id"}) for n in back["notices"]] == expected
        assert len(expected) < len(carried), "Ann's laptop moves made some of her turns stale"
        assert {n["game_id"] for n in back["notices"]} >= {g1, g2}

        # The games waiting on her now, with their versions: as her games' listing says.
        mine = client.get("/players/me/games?my_turn=true&limit=100", headers=auth(ann["key"])).get_json()["games"]
        assert [(g["id"], g["version"]) for g in back["my_turn"]] == [(g["id"], g["version"]) for g in mine]
        assert all(g["version"] == read(client, g["id"])["version"] for g in back["my_turn"])
        assert g1 in [g["id"] for g in back["my_turn"]]
        assert [g["id"] for g in back["waiting"]] == [g4] and g3 not in str(back)

        again = sync(client, ann["key"], back["cursor"])
        assert again["notices"] == [] and again["cursor"] == back["cursor"]
        paged = sync(client, ann["key"], cursor, limit=2)
        assert paged["more"] is True and len(paged["notices"]) <= 2
        assert sync(client, ann["key"], "1-0")["reset"] is True  # before anything kept: some may be lost
        assert sync(client, ann["key"], "0")["reset"] is False
    finally:
        live.close()

