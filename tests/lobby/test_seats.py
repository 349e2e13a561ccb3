"""Open seats: a waiting game has no deal until its last seat is claimed; every change of seats
is an event of the game's history; the creator holds only the seats it named; bad claims and
leaves are clear 4xx problems that append nothing."""
from __future__ import annotations

import json

import pytest

from tests import fakes
from tests.api.helpers import auth, move, read
from tests.lobby.helpers import claim, open_game, player


def history(client, gid, token=None):
    return client.get(f"/games/{gid}/events?limit=1000", headers=auth(token)).get_json()["events"]


def test_a_waiting_game_has_no_deal_until_its_last_seat_is_claimed(client, app):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    created = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"open": True}])
    gid = created["id"]
    assert created["status"] == "waiting" and created["version"] == 1
    assert [s["token"] is not None for s in created["seats"]] == [True, False, False]
    game = read(client, gid, ann["key"])
    assert game["status"] == "waiting" and game["view"] is None and game["to_act"] == [] and game["you"] == 0
    assert game["seats"][1] == {"seat": 1, "name": None, "bot": None, "open": True, "invite": False}
    assert [e["type"] for e in history(client, gid)] == ["game_created"]
    assert client.get(f"/games/{gid}/moves", headers=auth(ann["key"])).get_json()["moves"] == []

    first = claim(client, gid, 1, bob["key"])
    assert first.status_code == 201 and first.get_json()["status"] == "waiting"
    assert [e["type"] for e in history(client, gid)] == ["game_created", "seat_claimed"]
    assert read(client, gid)["view"] is None

    last = claim(client, gid, 2, cy["key"]).get_json()
    assert last["status"] == "active"
    types = [e["type"] for e in history(client, gid)]
    assert types[:4] == ["game_created", "seat_claimed", "seat_claimed", "seats_filled"]
    assert types[4] == "game_started" and len(types) == last["version"]
    game = read(client, gid, cy["key"])
    assert game["status"] == "active" and game["you"] == 2 and game["view"] is not None
    assert [s["player"] for s in game["seats"]] == [ann["id"], bob["id"], cy["id"]]


def test_the_deal_is_the_one_the_seed_committed_to(client, app):
    """Dealt at the claim from the seed drawn at creation: the same deal a game created full
    with that seed gets."""
    ann, bob = player(client), player(client, "Bob")
    gid = open_game(client, ann["key"], seed=1234)["id"]
    claim(client, gid, 1, bob["key"])
    full = client.post("/games", json={"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}],
                                       "seed": 1234}).get_json()["id"]
    dealt = [e["data"] for e in history(client, gid) if e["type"] == "game_started"]
    assert dealt == [e["data"] for e in history(client, full) if e["type"] == "game_started"]


def test_claimed_tokens_and_player_keys_act_as_their_seat_only(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    created = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"name": "Pat"}])
    gid, table = created["id"], created["table_token"]
    token = claim(client, gid, 1, name="Anon").get_json()["token"]
    game = read(client, gid, token)
    assert game["you"] == 1 and game["seats"][1]["name"] == "Anon" and "player" not in game["seats"][1]
    # The creator's table token holds the seats it named (0 and 2), never the claimed one.
    r = client.get(f"/games/{gid}?seat=1", headers=auth(table))
    assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours"
    assert client.get(f"/games/{gid}?seat=2", headers=auth(table)).get_json()["you"] == 2
    # A player's key is the seat that player sits in; elsewhere a spectator, and it cannot move.
    assert read(client, gid, ann["key"])["you"] == 0
    assert read(client, gid, bob["key"])["you"] is None
    r = move(client, gid, bob["key"], {"type": "take_gems", "colors": ["white"]}, read(client, gid)["version"])
    assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours"
    # The game's history never shows a claimed seat's token, nor its hash.
    body = client.get(f"/games/{gid}/events", headers=auth(token)).get_data(as_text=True)
    assert "token_sha256" not in body and token not in body


def test_replaying_the_history_rebuilds_who_sat_where(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"open": True}])["id"]
    token = claim(client, gid, 1, bob["key"]).get_json()["token"]
    claim(client, gid, 2, name="Zed")
    cold = fakes.service(app.extensions["games"].store)  # no cache: a replay from the events
    game = cold.load(gid)
    assert [(s["name"], s["player"]) for s in game.seats] == [("Ann", ann["id"]), ("Bob", bob["id"]), ("Zed", None)]
    assert cold.seat_for_token(gid, token) == 1
    assert game.started and game.setup_version == game.version


def test_leaving_frees_the_seat_and_its_token(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"open": True}])["id"]
    token = claim(client, gid, 1, bob["key"]).get_json()["token"]
    r = client.post(f"/games/{gid}/seats/1/leave", headers=auth(token))
    assert r.status_code == 200 and r.get_json()["status"] == "waiting"
    assert read(client, gid)["seats"][1]["open"] is True
    assert client.get(f"/games/{gid}", headers=auth(token)).status_code == 401  # the token went with it
    assert [e["type"] for e in history(client, gid)][-1] == "seat_left"
    # claimed again, by the player's key this time, and left with the key
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    assert client.post(f"/games/{gid}/seats/1/leave", headers=auth(bob["key"])).status_code == 200


def test_invite_seats_need_the_code(client, app):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    created = open_game(client, ann["key"], [{"me": True}, {"invite": True}])
    gid, code = created["id"], created["invite_code"]
    r = claim(client, gid, 1, bob["key"], invite="wrong")
    assert r.status_code == 403 and r.get_json()["code"] == "invalid_invite"
    r = claim(client, gid, 1, bob["key"])
    assert r.status_code == 403 and r.get_json()["code"] == "invalid_invite"
    assert claim(client, gid, 1, bob["key"], invite=code).status_code == 201


@pytest.mark.parametrize("case", ["unknown_seat", "bot_seat", "taken", "twice", "leave_started", "leave_unclaimed",
                                  "leave_other", "claim_started", "move_waiting", "bad_name", "me_without_key",
                                  "seat_x", "seat_negative", "seat_long"])
def test_bad_seat_requests_are_clear_problems_that_append_nothing(client, app, case):
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    created = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"open": True}, {"bot": "random"}])
    gid = created["id"]
    bob_token = claim(client, gid, 1, bob["key"]).get_json()["token"]
    if case in ("leave_started", "claim_started"):
        claim(client, gid, 2, cy["key"])
    store = app.extensions["games"].store
    before = store.version(gid)
    expected = {"unknown_seat": (404, "unknown_seat"), "bot_seat": (409, "seat_is_bot"),
                "taken": (409, "seat_taken"), "twice": (409, "already_seated"),
                "leave_started": (409, "game_started"), "leave_unclaimed": (409, "seat_not_claimed"),
                "leave_other": (403, "seat_not_yours"), "claim_started": (409, "game_started"),
                "move_waiting": (409, "game_not_started"), "bad_name": (400, "validation_error"),
                "me_without_key": (401, "token_required"), "seat_x": (400, "validation_error"),
                "seat_negative": (400, "validation_error"), "seat_long": (400, "validation_error")}[case]
    r = {"unknown_seat": lambda: claim(client, gid, 7, cy["key"]),
         "bot_seat": lambda: claim(client, gid, 3, cy["key"]),
         "taken": lambda: claim(client, gid, 1, cy["key"]),
         "twice": lambda: claim(client, gid, 2, bob["key"]),
         "leave_started": lambda: client.post(f"/games/{gid}/seats/1/leave", headers=auth(bob_token)),
         "leave_unclaimed": lambda: client.post(f"/games/{gid}/seats/0/leave", headers=auth(ann["key"])),
         "leave_other": lambda: client.post(f"/games/{gid}/seats/1/leave", headers=auth(ann["key"])),
         "claim_started": lambda: claim(client, gid, 0, cy["key"]),
         "move_waiting": lambda: move(client, gid, bob_token, {"type": "take_gems", "colors": ["red"]}, before),
         "bad_name": lambda: client.post(f"/games/{gid}/seats/2/claim", json={"name": ""}),
         "me_without_key": lambda: client.post("/games", json={"type": "splendor",
                                                                "seats": [{"me": True}, {"open": True}]}),
         # the seat is an integer in the spec: any other path segment is answered as it always was
         "seat_x": lambda: claim(client, gid, "x", cy["key"]),
         "seat_negative": lambda: claim(client, gid, "-1", cy["key"]),
         "seat_long": lambda: client.post(f"/games/{gid}/seats/0002/leave", headers=auth(bob_token)),
         }[case]()
    assert (r.status_code, r.get_json()["code"]) == expected, r.get_json()
    assert r.mimetype == "application/problem+json" and r.get_json()["detail"]
    assert store.version(gid) == before


def test_an_anonymous_claim_without_a_name_is_named_after_its_seat(client, app):
    """`{}` (or no body) from a claimer without a key is a valid claim (the spec allows it): the
    seat's name is the one people count it by, from 1."""
    ann = player(client, "Ann")
    gid = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"open": True}])["id"]
    assert client.post(f"/games/{gid}/seats/1/claim", json={}).status_code == 201
    assert claim(client, gid, 2).status_code == 201
    names = [s["name"] for s in client.get(f"/games/{gid}").get_json()["seats"]]
    assert names == ["Ann", "Player 2", "Player 3"]


def test_seat_shapes_are_checked(client):
    for seats in ([{"open": False}, {"name": "A"}], [{"open": True, "name": "A"}, {"name": "B"}],
                  [{"me": "yes"}, {"name": "B"}], [{"invite": 1}, {"name": "B"}]):
        r = client.post("/games", json={"type": "splendor", "seats": seats})
        assert r.status_code == 400 and r.get_json()["code"] == "validation_error", (seats, r.get_json())


def test_the_waiting_games_seed_stays_hidden_and_events_show_no_token_hash(client, app):
    ann = player(client)
    created = open_game(client, ann["key"])
    text = json.dumps(history(client, created["id"]))
    assert '"seed"' not in text and created["seed_sha256"] in text


def test_claims_are_counted_in_the_metrics(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    claim(client, gid, 1, bob["key"])
    text = client.get("/metrics").get_data(as_text=True)
    assert 'game_seat_changes_total{kind="claimed"}' in text and 'game_seat_changes_total{kind="started"}' in text
