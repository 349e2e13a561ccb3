"""Blocks honoured by every path that puts two players together (issue 53).

Generated from openapi.yaml: every operation marked `x-meets-players: true` must have a case
here proving a block holds there, both ways (the blocker cannot meet the player blocked, nor the
player blocked the blocker); a new operation marked without a case fails, and so does a route
that seats, pairs, challenges or follows without its operation being marked. Then the races: a
block written while a seat's claim or a matchmaking pairing is in flight, at each point of its
way, never leaves the two at one table nobody has played at.
"""
from __future__ import annotations

import inspect
import re
import threading

import pytest

from api.http.scopes import METHODS, shape
from tests.api.helpers import auth
from tests.api.spec import spec
from tests.lobby.helpers import claim, open_game, player

MARK = "x-meets-players"
# What a route calls to put two players together: a path calling one of these is a meeting path.
MEETS = re.compile(r"\.claim\(|\.seek\(|\.challenge\(|\.rematch\(|\.invite\(|command\(\"follow\"")


def marked() -> dict[str, tuple[str, str]]:
    found = {}
    for path, item in spec()["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is not None and operation.get(MARK):
                found[operation["operationId"]] = (method.upper(), path)
    return found


def block(client, blocker, blocked):
    r = client.post(f"/players/{blocked['id']}/block", headers=auth(blocker["key"]))
    assert r.status_code == 200 and r.get_json()["blocked"], r.get_json()


def unblock(client, blocker, blocked):
    assert client.delete(f"/players/{blocked['id']}/block", headers=auth(blocker["key"])).status_code == 204


def refused(r, status, code):
    assert (r.status_code, r.get_json()["code"]) == (status, code), r.get_json()


def seated(client, gid):
    game = client.get(f"/games/{gid}").get_json()
    return game["status"], {s.get("player") for s in game["seats"] if s.get("player")}


# ---- one case per marked operation: `a` blocked `b`; each proves both ways ----------------------

def case_follow(client, a, b):
    refused(client.post(f"/players/{a['id']}/follow", headers=auth(b["key"])), 403, "not_allowed_by_player")
    refused(client.post(f"/players/{b['id']}/follow", headers=auth(a["key"])), 409, "you_blocked")


def case_challenge(client, a, b):
    for x, y in ((a, b), (b, a)):
        refused(client.post(f"/players/{y['id']}/challenge", json={"type": "splendor"}, headers=auth(x["key"])),
                409, "cannot_meet")


def case_claim(client, a, b):
    for creator, other in ((a, b), (b, a)):
        sitting = open_game(client, creator["key"])  # the creator seated
        refused(claim(client, sitting["id"], 1, other["key"]), 409, "cannot_meet")
        standing = open_game(client, creator["key"], seats=[{"open": True}, {"open": True}])  # created, not seated
        refused(claim(client, standing["id"], 0, other["key"]), 409, "cannot_meet")
        third = player(client, "Third")
        by_third = open_game(client, third["key"], seats=[{"me": True}, {"open": True}, {"open": True}],
                             type_="splendor")
        assert claim(client, by_third["id"], 1, creator["key"]).status_code == 201
        refused(claim(client, by_third["id"], 2, other["key"]), 409, "cannot_meet")  # a seated player
        for gid, version in ((sitting["id"], 1), (standing["id"], 1), (by_third["id"], 2)):
            assert not {a["id"], b["id"]} <= seated(client, gid)[1]
            assert client.get(f"/games/{gid}").get_json()["version"] == version  # refused before anything appended


def case_seek(client, a, b):
    wish = {"type": "splendor", "seats": 2, "rated": False, "clock": {"per_move_s": 71}}
    try:
        assert client.post("/matchmaking", json=wish, headers=auth(a["key"])).get_json()["status"] == "searching"
        assert client.post("/matchmaking", json=wish, headers=auth(b["key"])).get_json()["status"] == "searching"
        assert client.get("/matchmaking", headers=auth(a["key"])).get_json()["waiting"] == 2
        c = player(client, "Third")  # another seeker is paired with one of them, never the two together
        answer = client.post("/matchmaking", json=wish, headers=auth(c["key"])).get_json()
        assert answer["status"] == "matched"
        assert len(seated(client, answer["game_id"])[1] & {a["id"], b["id"]}) == 1
    finally:
        for p in (a, b):
            client.delete("/matchmaking", headers=auth(p["key"]))


def case_rematch(client, a, b):
    game = open_game(client, b["key"])
    unblock(client, a, b)  # they played once...
    assert claim(client, game["id"], 1, a["key"]).status_code == 201
    assert client.post(f"/games/{game['id']}/resign", headers=auth(game["seats"][0]["token"])).status_code == 200
    block(client, a, b)  # ...then one blocked the other: the rematch never seats them together
    made = client.post(f"/games/{game['id']}/rematch", headers=auth(b["key"])).get_json()
    mine = {p["id"]: i for i, p in enumerate((b, a))}
    refused(claim(client, made["id"], mine[b["id"]], b["key"]), 409, "cannot_meet")
    refused(claim(client, made["id"], mine[a["id"]], a["key"]), 409, "cannot_meet")


def case_group_invite(client, a, b):
    for x, y in ((a, b), (b, a)):
        group = client.post("/groups", json={"name": "Tuesday club", "visibility": "invitation"},
                            headers=auth(x["key"])).get_json()
        refused(client.post(f"/groups/{group['id']}/invitations", json={"player": y["id"]}, headers=auth(x["key"])),
                409, "cannot_meet")
        refused(client.post(f"/groups/{group['id']}/join", headers=auth(y["key"])), 403, "not_invited")


CASES = {"followPlayer": case_follow, "challengePlayer": case_challenge, "claimSeat": case_claim,
         "seekGame": case_seek, "rematch": case_rematch, "inviteToGroup": case_group_invite}


def test_every_operation_marked_as_meeting_players_has_its_block_case():
    assert set(marked()) == set(CASES), "openapi.yaml's x-meets-players operations and this file's cases"


def test_every_route_that_puts_players_together_is_marked(app):
    operations = {(method, shape(path)): op for op, (method, path) in marked().items()}
    meeting = set()
    for rule in app.url_map.iter_rules():
        source = inspect.getsource(app.view_functions[rule.endpoint])
        if MEETS.search(source):
            for method in rule.methods - {"HEAD", "OPTIONS"}:
                meeting.add((method, shape(rule.rule)))
    assert meeting and meeting <= set(operations), f"meeting routes not marked {MARK}: {meeting - set(operations)}"


@pytest.mark.parametrize("operation", sorted(CASES))
def test_a_block_holds_on_every_path_that_puts_two_players_together(client, operation):
    a, b = player(client, "Ann"), player(client, "Bob")
    block(client, a, b)
    CASES[operation](client, a, b)
    assert [p["id"] for p in client.get("/players/me/blocks", headers=auth(a["key"])).get_json()["blocks"]] == \
        [b["id"]]


# ---- races: a block written while a claim or a pairing is under way ------------------------------

def _services(app):
    return app.extensions["services"]


def _apart(client, gid, a, b):
    """The two are not both at this table, or it was ended before anyone played."""
    status, players = seated(client, gid)
    return status in ("aborted",) or not {a["id"], b["id"]} <= players


@pytest.mark.parametrize("point", ["before_append", "after_append"])
def test_a_block_written_while_a_claim_is_under_way_parts_the_two(app, client, monkeypatch, point):
    services = _services(app)
    a, b = player(client, "Ann"), player(client, "Bob")
    game = open_game(client, a["key"])
    service, social = services.service, services.social
    a_player = services.players.find(a["id"])
    original = service.append_platform

    blocked = []

    def append(judged, events, at=None):  # the block lands just before (or after) the claim's append
        if point == "before_append" and not blocked:
            blocked.append(social.command("block", a_player, b["id"]))
        done = original(judged, events, at)
        if point == "after_append" and not blocked:
            blocked.append(social.command("block", a_player, b["id"]))
        return done

    monkeypatch.setattr(service, "append_platform", append)
    r = claim(client, game["id"], 1, b["key"])
    monkeypatch.undo()
    refused(r, 409, "cannot_meet")  # its second look saw the block (the seat left again), or the block's parting
    assert _apart(client, game["id"], a, b)


def test_a_block_written_after_a_claim_parts_a_table_nobody_played_at(app, client):
    a, b = player(client, "Ann"), player(client, "Bob")
    waiting = open_game(client, a["key"], seats=[{"me": True}, {"open": True}, {"open": True}])
    assert claim(client, waiting["id"], 1, b["key"]).status_code == 201
    started = open_game(client, a["key"])
    assert claim(client, started["id"], 1, b["key"]).status_code == 201
    block(client, b, a)
    assert seated(client, waiting["id"]) == ("waiting", {a["id"]})  # Bob's claimed seat is left
    assert seated(client, started["id"])[0] == "aborted"  # begun, nobody moved: ended


@pytest.mark.parametrize("point", ["while_made", "before_told"])
def test_a_block_written_while_a_pairing_is_under_way_never_leaves_them_at_one_table(app, client, monkeypatch,
                                                                                        point):
    services = _services(app)
    a, b = player(client, "Ann"), player(client, "Bob")
    a_player = services.players.find(a["id"])
    matchmaker = services.matchmaker
    made = []
    original_create, original_matched = matchmaker.service.create, matchmaker.seeks.matched

    def create(*args, **kwargs):  # the block lands while the game is made
        created = original_create(*args, **kwargs)
        made.append(created["id"])
        if point == "while_made":
            services.social.command("block", a_player, b["id"])
        return created

    def matched(player_id, record):  # or after the pairing's second look, before the players are told
        if point == "before_told" and not services.blocks.between(a["id"], b["id"]):
            services.social.command("block", a_player, b["id"])
        return original_matched(player_id, record)

    monkeypatch.setattr(matchmaker.service, "create", create)
    monkeypatch.setattr(matchmaker.seeks, "matched", matched)
    wish = {"type": "splendor", "seats": 2, "rated": False, "clock": {"per_move_s": 72}}
    try:
        client.post("/matchmaking", json=wish, headers=auth(a["key"]))
        client.post("/matchmaking", json=wish, headers=auth(b["key"]))
        monkeypatch.undo()
        assert made and all(_apart(client, gid, a, b) for gid in made)
        if point == "while_made":  # withdrawn before anyone was told: both wait again
            assert {client.get("/matchmaking", headers=auth(p["key"])).get_json()["status"] for p in (a, b)} == \
                {"searching"}
    finally:
        for p in (a, b):
            client.delete("/matchmaking", headers=auth(p["key"]))


def test_blocks_racing_claims_and_pairings_on_threads_never_seat_the_two_together(app, client):
    """Unscripted: each round a claim (or two seekers) and a block at once, on threads."""
    services = _services(app)
    for round_ in range(12):
        a, b = player(client, "Ann"), player(client, "Bob")
        a_player = services.players.find(a["id"])
        barrier = threading.Barrier(2)
        gids: list[str] = []

        def blocker():
            barrier.wait()
            services.social.command("block", a_player, b["id"])

        if round_ % 2 == 0:
            gids.append(open_game(client, a["key"])["id"])

            def meet():
                barrier.wait()
                app.test_client().post(f"/games/{gids[0]}/seats/1/claim", headers=auth(b["key"]))
        else:
            wish = {"type": "splendor", "seats": 2, "rated": False, "clock": {"per_move_s": 73}}
            client.post("/matchmaking", json=wish, headers=auth(a["key"]))

            def meet():
                barrier.wait()
                answer = app.test_client().post("/matchmaking", json=wish, headers=auth(b["key"])).get_json()
                if answer.get("game_id"):
                    gids.append(answer["game_id"])
        threads = [threading.Thread(target=blocker), threading.Thread(target=meet)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert all(_apart(client, gid, a, b) for gid in gids), f"round {round_}"
        for p in (a, b):
            client.delete("/matchmaking", headers=auth(p["key"]))
