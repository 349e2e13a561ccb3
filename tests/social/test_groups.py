"""Groups (issue 53): the decider (pure), then create, invite, accept, join, leave, roles and the
members list through the API."""
from __future__ import annotations

import pytest

from api.errors import ApiError
from api.social import groups_decider as gd
from tests.api.helpers import auth
from tests.conftest import settled
from tests.lobby.helpers import player


def act(state, kind, who, **kw):
    events = gd.decide(state, gd.Command(kind, who, 1, **kw))
    return gd.fold(events, state), events


def refused(state, kind, who, **kw):
    with pytest.raises(ApiError) as e:
        gd.decide(state, gd.Command(kind, who, 1, **kw))
    return e.value.status, e.value.code


def test_a_group_by_invitation_its_roles_and_its_end():
    state, _ = act(gd.State(), "create", "o", name="Club", visibility="invitation")
    assert state.members == {"o": "owner"}
    assert refused(state, "join", "m") == (403, "not_invited")
    assert refused(state, "invite", "m", target="x") == (403, "not_group_member")
    state, _ = act(state, "invite", "o", target="m")
    assert act(state, "invite", "o", target="m")[1] == []  # invited already
    state, _ = act(state, "join", "m")
    assert state.members == {"o": "owner", "m": "member"} and "m" not in state.invited
    assert refused(state, "invite", "m", target="y") == (403, "group_role_required")
    state, _ = act(state, "role", "o", target="m", role="admin")
    state, _ = act(state, "invite", "m", target="y")  # an admin invites
    assert refused(state, "role", "m", target="o", role="member") == (403, "group_role_required")
    assert refused(state, "leave", "o") == (409, "owner_cannot_leave")
    assert refused(state, "role", "o", target="o", role="member") == (409, "owner_cannot_leave")
    state, events = act(state, "role", "o", target="m", role="owner")
    assert state.members == {"o": "admin", "m": "owner"}
    state, _ = act(state, "leave", "o")
    state, _ = act(state, "leave", "m")
    assert state.dissolved and not state.exists
    assert refused(state, "join", "y") == (404, "unknown_group")


def test_groups_through_the_api(app, client):
    owner, ann, bob = player(client, "Owner"), player(client, "Ann"), player(client, "Bob")
    r = client.post("/groups", json={"name": "Friday splendor", "description": "Casual", "visibility": "invitation"},
                    headers=auth(owner["key"]))
    assert r.status_code == 201, r.get_json()
    group = r.get_json()
    gid = group["id"]
    assert (group["name"], group["visibility"], group["members"]) == ("Friday splendor", "invitation", 1)
    r = client.get(f"/groups/{gid}/members", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "not_group_member")
    r = client.post(f"/groups/{gid}/join", headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "not_invited")
    r = client.post(f"/groups/{gid}/invitations", json={"player": ann["id"]}, headers=auth(owner["key"]))
    assert r.status_code == 201 and r.get_json()["invited"]
    told = [e for _, e in app.extensions["players"].inbox_after(ann["id"], "0-0") if e["type"] == "group_invited"]
    assert told and told[-1]["group_id"] == gid and told[-1]["by"] == owner["id"]
    assert client.post(f"/groups/{gid}/join", headers=auth(ann["key"])).get_json()["members"] == 2
    r = client.post(f"/groups/{gid}/invitations", json={"player": bob["id"]}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "group_role_required")
    r = client.put(f"/groups/{gid}/members/{ann['id']}/role", json={"role": "admin"}, headers=auth(owner["key"]))
    assert r.get_json()["members"] == [{"id": owner["id"], "name": "Owner", "role": "owner"},
                                       {"id": ann["id"], "name": "Ann", "role": "admin"}]
    assert client.post(f"/groups/{gid}/invitations", json={"player": bob["id"]},
                       headers=auth(ann["key"])).status_code == 201
    assert client.post(f"/groups/{gid}/join", headers=auth(bob["key"])).status_code == 200
    mine = client.get("/players/me/groups", headers=auth(ann["key"])).get_json()["groups"]
    assert [(g["id"], g["role"], g["members"]) for g in mine] == [(gid, "admin", 3)]
    r = client.post(f"/groups/{gid}/leave", headers=auth(owner["key"]))
    assert (r.status_code, r.get_json()["code"]) == (409, "owner_cannot_leave")
    assert client.post(f"/groups/{gid}/leave", headers=auth(bob["key"])).status_code == 204
    assert client.get("/players/me/groups", headers=auth(bob["key"])).get_json() == {"groups": []}
    # a public group: anyone joins, anyone sees its members
    public = client.post("/groups", json={"name": "Open table"}, headers=auth(bob["key"])).get_json()
    assert client.post(f"/groups/{public['id']}/join", headers=auth(ann["key"])).status_code == 200
    names = [m["name"] for m in client.get(f"/groups/{public['id']}/members",
                                           headers=auth(owner["key"])).get_json()["members"]]
    assert names == ["Bob", "Ann"]
    for bad in ({}, {"name": ""}, {"name": "x", "visibility": "secret"}, {"name": "x", "colour": 1}):
        r = client.post("/groups", json=bad, headers=auth(owner["key"]))
        assert (r.status_code, r.get_json()["code"]) == (400, "validation_error")
    r = client.get("/groups/no-such-group", headers=auth(owner["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_group")


def test_a_groups_games_seat_its_members_only_and_fill_its_lobby(client):
    from tests.lobby.helpers import claim

    owner, ann, bob = player(client, "Owner"), player(client, "Ann"), player(client, "Bob")
    gid = client.post("/groups", json={"name": "Members' table"}, headers=auth(owner["key"])).get_json()["id"]
    r = client.post(f"/groups/{gid}/games", json={"type": "splendor", "seats": 3}, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (403, "not_group_member")
    r = client.post(f"/groups/{gid}/games", json={"type": "splendor", "seats": 3}, headers=auth(owner["key"]))
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    assert made["group"] == gid and made["status"] == "waiting"
    listed = client.get(f"/groups/{gid}/games", headers=auth(ann["key"])).get_json()["games"]
    assert [(g["id"], g["group"]) for g in listed] == [(made["id"], gid)]
    settled(client.application)  # the lobby's index is written after the answer: read it once written
    assert made["id"] not in [g["id"] for g in client.get("/games").get_json()["games"]]  # not the server's lobby
    r = claim(client, made["id"], 1, ann["key"])
    assert (r.status_code, r.get_json()["code"]) == (403, "not_group_member")
    r = claim(client, made["id"], 1, None, name="Anonymous")
    assert (r.status_code, r.get_json()["code"]) == (403, "not_group_member")
    for p in (ann, bob):
        assert client.post(f"/groups/{gid}/join", headers=auth(p["key"])).status_code == 200
    assert claim(client, made["id"], 1, ann["key"]).status_code == 201
    assert claim(client, made["id"], 2, bob["key"]).get_json()["status"] == "active"
    assert client.get(f"/groups/{gid}/games", headers=auth(ann["key"])).get_json() == {"games": []}  # started
