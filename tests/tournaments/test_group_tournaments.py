"""Tournaments for a group's members (issues 52 and 53): `"group"` frozen in the rules at
creation, made only by the group's owner or an admin, entered only by its members (`403
group_members_only`, nothing appended), and listed for the group's page by
`GET /tournaments?group=`. Against the session's Redis."""

from __future__ import annotations

import uuid

import orjson
import pytest

from tests.api.helpers import auth
from tests.apps import redis_app, spec_client
from tests.lobby.helpers import player

LATER = 4_102_444_800_000


@pytest.fixture(scope="module")
def app(redis_url):
    return redis_app(redis_url, f"tgr{uuid.uuid4().hex[:6]}:")


@pytest.fixture
def client(app):
    return spec_client(app)


def _refused(r, status, code):
    assert (r.status_code, r.get_json()["code"]) == (status, code), r.get_json()


def test_a_groups_tournament_is_made_by_its_admins_entered_by_its_members_and_listed_for_it(client):
    ann, bob, cat = player(client, "Ann"), player(client, "Bob"), player(client, "Cat")
    r = client.post("/groups", json={"name": "Club", "visibility": "public"}, headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    gid = r.get_json()["id"]
    assert client.post(f"/groups/{gid}/join", headers=auth(bob["key"])).status_code == 200
    body = {"type": "splendor", "format": "swiss", "rounds": 3, "start": LATER, "group": gid}
    _refused(client.post("/tournaments", json=body, headers=auth(bob["key"])), 403, "group_role_required")
    _refused(client.post("/tournaments", json=body, headers=auth(cat["key"])), 403, "not_group_member")
    _refused(
        client.post("/tournaments", json={**body, "group": "nosuchgroup"}, headers=auth(ann["key"])),
        404,
        "unknown_group",
    )
    r = client.post("/tournaments", json=body, headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    assert made["rules"]["group"] == gid and made["group"] == gid
    tid = made["id"]
    before = client.get(f"/tournaments/{tid}/events").data
    r = client.post(f"/tournaments/{tid}/join", headers={**auth(cat["key"]), "Accept-Language": "ko"})
    _refused(r, 403, "group_members_only")
    assert r.get_json()["detail"] == "이 토너먼트는 그룹 회원만 참가할 수 있습니다. 먼저 그룹에 가입하세요."
    assert client.get(f"/tournaments/{tid}/events").data == before  # nothing appended
    r = client.post(f"/tournaments/{tid}/join", headers=auth(bob["key"]))
    assert r.status_code == 200 and f"player:{bob['id']}" in [s["entrant"] for s in r.get_json()["standings"]]
    assert client.post(f"/groups/{gid}/join", headers=auth(cat["key"])).status_code == 200
    assert client.post(f"/tournaments/{tid}/join", headers=auth(cat["key"])).status_code == 200  # a member now
    open_one = client.post("/tournaments", json={**body, "group": None}, headers=auth(ann["key"])).get_json()
    listed = [t["id"] for t in client.get(f"/tournaments?group={gid}").get_json()["tournaments"]]
    assert listed == [tid] and open_one["group"] is None
    created = orjson.loads(client.get(f"/tournaments/{tid}/events").data.splitlines()[0])
    assert created["rules"]["group"] == gid  # frozen with the rules
    _refused(client.get("/tournaments?group=bad%20id"), 400, "validation_error")
