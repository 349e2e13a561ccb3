"""The table token (every person seat of a game, for pass-and-play or an integration running
the whole table), `?seat=N`, and `?include=next_moves` (a move's answer carrying the next legal
moves, so that one request per move suffices)."""
from __future__ import annotations

import uuid

from tests.api.helpers import auth, create, read, tokens

SPLENDOR = [{"name": "Ann"}, {"name": "Bob"}]


def _post(client, gid, token, move_, version, query=""):
    return client.post(f"/games/{gid}/moves{query}", json={"expected_version": version, "move": move_},
                       headers={**auth(token), "Idempotency-Key": uuid.uuid4().hex})


def _version(client, gid):
    return read(client, gid)["version"]


def test_the_creator_gets_a_table_token_unless_every_seat_is_a_bot(client):
    created = create(client, seats=[{"name": "Ann"}, {"bot": "random"}])
    assert created["table_token"] and created["table_token"] not in tokens(created).values()
    assert create(client, seats=[{"bot": "random"}, {"bot": "random"}])["table_token"] is None


def test_a_table_token_sees_exactly_what_the_seat_it_names_sees(client):
    created = create(client, "splendor", SPLENDOR, seed=5)
    gid, table, t = created["id"], created["table_token"], tokens(created)
    for seat in (0, 1):
        for path in (f"/games/{gid}", f"/games/{gid}/moves", f"/games/{gid}/events"):
            as_table = client.get(f"{path}?seat={seat}", headers=auth(table))
            as_seat = client.get(path, headers=auth(t[seat]))
            assert as_table.status_code == 200 and as_table.get_json() == as_seat.get_json(), path
    # Naming no seat, it looks as a spectator.
    assert client.get(f"/games/{gid}", headers=auth(table)).get_json() == client.get(f"/games/{gid}").get_json()


def test_a_table_token_plays_every_person_seat_one_request_per_move(client):
    created = create(client, "splendor", SPLENDOR, seed=11)
    gid, table, t = created["id"], created["table_token"], tokens(created)
    first = client.get(f"/games/{gid}/moves", headers=auth(table)).get_json()  # the seat to act
    assert first["seat"] == 0 and first["moves"]
    seat, version, moves = first["seat"], first["version"], first["moves"]
    played = []
    for _ in range(12):
        played.append(seat)
        r = _post(client, gid, table, moves[0], version, f"?include=next_moves&seat={seat}")
        assert r.status_code == 201, r.get_json()
        body = r.get_json()
        nxt = body["next_moves"]
        assert nxt["seat"] in body["to_act"] and nxt["version"] == body["version"]
        # The moves served with the answer are the ones that seat's own token reads.
        own = client.get(f"/games/{gid}/moves", headers=auth(t[nxt["seat"]])).get_json()
        assert own["moves"][:500] == nxt["moves"] and own["total"] == nxt["total"]
        seat, version, moves = nxt["seat"], nxt["version"], nxt["moves"]
    events = client.get(f"/games/{gid}/events?after={created['version']}").get_json()["events"]
    assert [e["actor"] for e in events] == played and set(played) == {0, 1}  # each move was its seat's


def test_a_seat_token_gets_its_own_next_moves_only_when_it_is_still_to_act(client):
    created = create(client, "splendor", SPLENDOR, seed=11)
    gid, t = created["id"], tokens(created)
    page = client.get(f"/games/{gid}/moves", headers=auth(t[0])).get_json()
    r = _post(client, gid, t[0], page["moves"][0], page["version"], "?include=next_moves")
    assert r.status_code == 201 and r.get_json()["next_moves"] is None  # seat 1's turn now
    r = client.post(f"/games/{gid}/moves", json={"expected_version": 1, "move": {}}, headers=auth(t[0]))
    assert "next_moves" not in (r.get_json() or {})


def test_a_table_token_must_name_its_seat_when_several_are_to_act(client):
    created = create(client, seed=3)  # High Card: every seat bids at once
    gid, table = created["id"], created["table_token"]
    version = created["version"]
    r = _post(client, gid, table, {"type": "bid", "chips": 1}, version)
    assert r.status_code == 400 and r.get_json()["code"] == "seat_required"
    assert r.get_json()["details"]["to_act"] == [0, 1]
    assert _version(client, gid) == version  # nothing appended
    assert client.get(f"/games/{gid}/moves", headers=auth(table)).status_code == 400
    r = _post(client, gid, table, {"type": "bid", "chips": 1}, version, "?seat=1")
    assert r.status_code == 201 and r.get_json()["events"][0]["actor"] == 1


def test_seats_a_token_does_not_hold_are_refused_and_nothing_is_appended(client):
    created = create(client, seats=[{"name": "Ann"}, {"bot": "random"}, {"name": "Cy"}], seed=3)
    gid, table, t = created["id"], created["table_token"], tokens(created)
    version = created["version"]
    for token, query in ((table, "?seat=1"), (table, "?seat=7"), (t[0], "?seat=2")):
        r = _post(client, gid, token, {"type": "bid", "chips": 1}, version, query)
        assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours", query
        assert client.get(f"/games/{gid}{query}", headers=auth(token)).status_code == 403
    r = client.get(f"/games/{gid}?seat=0")  # a spectator cannot look as a seat
    assert r.status_code == 401 and r.get_json()["code"] == "token_required"
    for bad in ("?seat=x", "?seat=-1", "?include=everything"):
        r = _post(client, gid, t[0], {"type": "bid", "chips": 1}, version, bad)
        assert r.status_code == 400 and r.get_json()["code"] == "validation_error", bad
    events = client.get(f"/games/{gid}/events?after={version}").get_json()["events"]
    assert not [e for e in events if e["actor"] in (0, 2)]  # nothing of the people's (the bot may bid)
    assert client.get(f"/games/{gid}?seat=0", headers=auth(t[0])).get_json()["you"] == 0  # its own seat


# ---- one rule of who a caller acts as (api/games/callers.py, docs/integrators.md "Who a caller acts as") ----

def test_a_table_token_holding_one_seat_acts_as_that_seat_even_when_it_is_not_to_act(client):
    """Changed: a table token holding one seat used to be 400 seat_required on the moves while
    that seat was not to act; it is that seat now, as its own token is (and as resign was)."""
    created = create(client, seats=[{"name": "Ann"}, {"open": True}], seed=3)
    gid, table = created["id"], created["table_token"]
    r = client.post(f"/games/{gid}/seats/1/claim", json={"name": "Bob"})
    assert r.status_code == 201, r.get_json()
    version = _version(client, gid)
    bid = _post(client, gid, table, {"type": "bid", "chips": 1}, version)  # both bid at once: seat 0 is to act
    assert bid.status_code == 201 and bid.get_json()["events"][0]["actor"] == 0
    version = bid.get_json()["version"]  # only seat 1 (Bob's, not the table's) is to act now
    moves = client.get(f"/games/{gid}/moves", headers=auth(table))
    assert moves.status_code == 200 and moves.get_json()["seat"] == 0 and moves.get_json()["moves"] == []
    again = _post(client, gid, table, {"type": "bid", "chips": 1}, version)
    assert again.status_code == 422 and again.get_json()["code"] == "not_your_turn"
    assert _version(client, gid) == version
    resigned = client.post(f"/games/{gid}/resign", headers=auth(table))
    assert resigned.status_code == 200 and resigned.get_json()["seat"] == 0


def test_a_table_token_holding_several_seats_resigns_the_one_to_act(client):
    """Changed: that was 400 seat_required; it is the moves' rule now."""
    created = create(client, "splendor", SPLENDOR, seed=11)  # seat 0 plays first
    gid, table = created["id"], created["table_token"]
    assert client.get(f"/games/{gid}/moves", headers=auth(table)).get_json()["seat"] == 0
    r = client.post(f"/games/{gid}/resign", headers=auth(table))
    assert r.status_code == 200 and r.get_json()["seat"] == 0 and r.get_json()["changed"] is True


def test_a_table_token_holding_several_seats_to_act_names_one_for_every_command(client):
    created = create(client, seed=3)  # High Card: both seats bid at once
    gid, table = created["id"], created["table_token"]
    for method, path in (("get", "moves"), ("post", "moves"), ("post", "resign"), ("post", "abort")):
        r = getattr(client, method)(f"/games/{gid}/{path}", headers=auth(table),
                                    json={"expected_version": created["version"], "move": {"type": "bid", "chips": 1}})
        assert r.status_code == 400, (method, path, r.get_json())
        assert r.get_json()["code"] == "seat_required" and r.get_json()["details"]["to_act"] == [0, 1], path
    r = client.post(f"/games/{gid}/resign?seat=1", headers=auth(table))
    assert r.status_code == 200 and r.get_json()["seat"] == 1


def test_naming_a_seat_a_token_does_not_hold_is_the_same_answer_on_every_route(client):
    created = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}, {"open": True}], seed=3)
    gid, t, table = created["id"], tokens(created), created["table_token"]
    asks = [("get", f"/games/{gid}?seat=1"), ("get", f"/games/{gid}/moves?seat=1"),
            ("post", f"/games/{gid}/moves?seat=1"), ("post", f"/games/{gid}/resign?seat=1"),
            ("post", f"/games/{gid}/abort?seat=1"), ("post", f"/games/{gid}/seats/1/return"),
            ("post", f"/games/{gid}/seats/1/leave")]
    for method, path in asks:
        r = getattr(client, method)(path, headers=auth(t[0]), json={"expected_version": 1, "move": {}})
        assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours", path
        assert r.get_json()["detail"] == "This token is seat 0's, not seat 1's.", path
    for method, path in asks[:-1]:  # the open seat 2 is not the table token's, whatever the route
        r = getattr(client, method)(path.replace("seat=1", "seat=2").replace("seats/1", "seats/2"),
                                    headers=auth(table), json={"expected_version": 1, "move": {}})
        assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours", path
    assert _version(client, gid) == created["version"]
