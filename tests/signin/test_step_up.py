"""Step-up for account changes (issue 51): revoking another key, a new recovery code, removing a
passkey and unlinking an identity need a fresh proof, not just any key; a key always revokes and
rotates itself; every device of the player is told of each change, and of each refusal. (The
identity token as a proof: tests/signin/test_identity_tokens.py.)"""
from __future__ import annotations

import json
import time

import pytest

from api.players import step_up as su
from tests.api.helpers import auth, step_up
from tests.lobby.helpers import player


def _key(client, key, name):
    r = client.post("/players/me/keys", json={"name": name}, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _key_id(client, key):
    return next(k["id"] for k in client.get("/players/me/keys", headers=auth(key)).get_json()["keys"] if k["current"])


def _notices(app, player_id):
    inbox = app.extensions["players"].inbox_after(player_id, "0-0")
    return [e for _, e in inbox if e["type"] in ("account_changed", "account_change_refused")]


def _refused_for_step_up(r, change):
    assert r.status_code == 403, r.get_json()
    body = r.get_json()
    assert body["code"] == "step_up_required" and body["details"]["change"] == change
    assert body["details"]["max_age"] == su.STEP_UP_S
    challenge = r.headers["WWW-Authenticate"]
    assert 'error="insufficient_user_authentication"' in challenge and f"max_age={su.STEP_UP_S}" in challenge


def test_a_stolen_second_key_cannot_lock_the_owner_out_and_the_owner_is_told(client, app):
    """The issue's scenario: a second device's key revokes the owner's other key and replaces the
    recovery code. Both are refused at the step-up; the owner's key and code go on working."""
    ann = player(client, "Ann")
    thief = _key(client, ann["key"], "phone")
    owners = _key_id(client, ann["key"])
    _refused_for_step_up(client.delete(f"/players/me/keys/{owners}", headers=auth(thief["key"])), "key_revoked")
    _refused_for_step_up(client.post("/players/me/recovery-code", headers=auth(thief["key"])),
                         "recovery_code_replaced")
    guessed = client.post("/players/me/step-up", json={"recovery_code": "rc.guessed"}, headers=auth(thief["key"]))
    assert guessed.status_code == 403 and guessed.get_json()["code"] == "step_up_refused"
    for _ in range(3):  # still refused; told once a minute per key and change, not at each retry
        assert client.delete(f"/players/me/keys/{owners}", headers=auth(thief["key"])).status_code == 403
    # The owner's key works; the owner is told of each attempt, naming the key that tried.
    assert client.get("/players/me", headers=auth(ann["key"])).status_code == 200
    told = _notices(app, ann["id"])
    refused = [(n["change"], n["by"]["key_id"]) for n in told if n["type"] == "account_change_refused"]
    assert refused == [("key_revoked", thief["id"]), ("recovery_code_replaced", thief["id"]),
                       ("step_up", thief["id"])]
    assert told[0] == {**told[0], "type": "account_changed", "change": "key_added", "key": {"id": thief["id"],
                                                                                             "name": "phone"}}
    # With the recovery code the owner revokes the stolen key; the code still recovers after.
    step_up(client, ann["key"], ann["recovery_code"])
    assert client.delete(f"/players/me/keys/{thief['id']}", headers=auth(ann["key"])).status_code == 204
    assert client.get("/players/me", headers=auth(thief["key"])).status_code == 401
    assert _notices(app, ann["id"])[-1]["change"] == "key_revoked"
    assert client.post("/recover", json={"code": ann["recovery_code"], "name": "laptop"}).status_code == 201


def test_a_key_always_revokes_and_rotates_itself(client, app):
    ann = player(client, "Ann")
    phone = _key(client, ann["key"], "phone")
    rotated = client.post("/players/me/keys", headers=auth(phone["key"]))
    assert rotated.status_code == 201
    assert client.delete(f"/players/me/keys/{phone['id']}", headers=auth(rotated.get_json()["key"])).status_code == 204
    assert [n["change"] for n in _notices(app, ann["id"])] == ["key_added", "key_rotated", "key_revoked"]
    assert client.get("/players/me", headers=auth(ann["key"])).status_code == 200


def test_a_grant_is_for_the_one_key_that_asked_for_a_few_minutes(client, app, redis_client):
    ann = player(client, "Ann")
    phone, laptop = _key(client, ann["key"], "phone"), _key(client, ann["key"], "laptop")
    granted = step_up(client, ann["key"], ann["recovery_code"])
    assert granted["proof"] == "recovery_code" and granted["expires_in"] == su.STEP_UP_S
    assert abs(granted["until"] - (time.time() + su.STEP_UP_S) * 1000) < 5000
    # The grant is the owner's key's: the phone's key still needs its own.
    owners = _key_id(client, ann["key"])
    _refused_for_step_up(client.delete(f"/players/me/keys/{owners}", headers=auth(phone["key"])), "key_revoked")
    assert client.delete(f"/players/me/keys/{laptop['id']}", headers=auth(ann["key"])).status_code == 204
    # The proof was checked, not spent; the grant lasts STEP_UP_S in the store, then is gone.
    prefix = app.extensions["settings"].key_prefix
    grants = redis_client.keys(f"{prefix}player:{{{ann['id']}}}:step-up:*")
    assert len(grants) == 1 and 0 < redis_client.ttl(grants[0]) <= su.STEP_UP_S
    redis_client.delete(*grants)  # as at its end
    _refused_for_step_up(client.delete(f"/players/me/keys/{phone['id']}", headers=auth(ann["key"])), "key_revoked")
    fresh = step_up(client, ann["key"], ann["recovery_code"])  # the same code again
    assert fresh["proof"] == "recovery_code"
    replaced = client.post("/players/me/recovery-code", headers=auth(ann["key"]))
    assert replaced.status_code == 201
    old = client.post("/players/me/step-up", json={"recovery_code": ann["recovery_code"]}, headers=auth(ann["key"]))
    assert old.status_code == 403 and old.get_json()["details"]["reason"] == "invalid_recovery_code"


def test_a_revoked_keys_grant_ends_with_it(client, app, redis_client):
    ann = player(client, "Ann")
    phone = _key(client, ann["key"], "phone")
    step_up(client, phone["key"], ann["recovery_code"])
    prefix = app.extensions["settings"].key_prefix
    assert redis_client.keys(f"{prefix}player:{{{ann['id']}}}:step-up:*")
    assert client.delete(f"/players/me/keys/{phone['id']}", headers=auth(phone["key"])).status_code == 204
    assert redis_client.keys(f"{prefix}player:{{{ann['id']}}}:step-up:*") == []


def test_another_players_recovery_code_proves_nothing(client):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    r = client.post("/players/me/step-up", json={"recovery_code": bob["recovery_code"]}, headers=auth(ann["key"]))
    assert r.status_code == 403 and r.get_json()["code"] == "step_up_refused"


def test_bad_step_up_requests_are_refused(client):
    ann = player(client, "Ann")
    for body in ({}, {"recovery_code": ""}, {"recovery_code": "rc.x", "identity_token": "a.b.c"}, {"code": "rc.x"},
                 {"passkey": "text"}):
        r = client.post("/players/me/step-up", json=body, headers=auth(ann["key"]))
        assert r.status_code == 400 and r.get_json()["code"] == "validation_error", body
    assert client.post("/players/me/step-up", json={"recovery_code": ann["recovery_code"]}).status_code == 401


def test_a_made_up_passkey_answer_proves_nothing(client, app, redis_client):
    ann = player(client, "Ann")
    none = client.post("/players/me/step-up/passkey-options", headers=auth(ann["key"]))
    assert none.status_code == 409 and none.get_json()["code"] == "passkey_refused"
    prefix = app.extensions["settings"].key_prefix
    entry = {"id": "bm9wZQ", "name": "key", "created": 1, "last_used": None, "public_key": "AA", "sign_count": 0}
    redis_client.hset(f"{prefix}player:{{{ann['id']}}}:passkeys", "bm9wZQ", json.dumps(entry))
    redis_client.set(f"{prefix}passkey:bm9wZQ", ann["id"])
    options = client.post("/players/me/step-up/passkey-options", headers=auth(ann["key"])).get_json()
    assert [c["id"] for c in options["allowCredentials"]] == ["bm9wZQ"]
    from tests.signin.test_passkeys_api import _answer

    r = client.post("/players/me/step-up", json={"passkey": _answer(options["challenge"])}, headers=auth(ann["key"]))
    assert r.status_code == 403 and r.get_json()["details"]["reason"] == "passkey_refused"
    _refused_for_step_up(client.delete("/players/me/passkeys/bm9wZQ", headers=auth(ann["key"])), "passkey_removed")
    step_up(client, ann["key"], ann["recovery_code"])
    assert client.delete("/players/me/passkeys/bm9wZQ", headers=auth(ann["key"])).status_code == 204


def test_a_player_with_no_proof_keeps_what_harms_no_other_device(client, app):
    """No passkey, no identity, the recovery code lost: playing, new keys, the key's own rotation
    and revocation, and a passkey's registration (which then proves a step-up only after
    PROOF_SETTLE_S) stay open; only taking from other devices waits."""
    ann = player(client, "Ann")
    phone = _key(client, ann["key"], "phone")
    assert client.post("/players/me/passkey-options", headers=auth(phone["key"])).status_code == 200
    rotated = client.post("/players/me/keys", headers=auth(phone["key"])).get_json()["key"]
    assert client.get("/players/me/keys", headers=auth(rotated)).status_code == 200
    assert client.delete(f"/players/me/keys/{phone['id']}", headers=auth(rotated)).status_code == 204
    assert client.get("/players/me", headers=auth(ann["key"])).status_code == 200


@pytest.mark.unit
def test_a_proof_counts_from_its_time_and_an_identity_token_is_fresh_for_a_few_minutes():
    assert su.counts({}) and su.counts({"counts_from": 0})
    assert not su.counts({"counts_from": 2_000}, at_ms=1_000) and su.counts({"counts_from": 1_000}, at_ms=1_000)
    now = 1_700_000_000
    assert su.fresh({"iat": now - su.FRESH_IDENTITY_S}, at_s=now)
    assert not su.fresh({"iat": now - su.FRESH_IDENTITY_S - 1}, at_s=now)
    assert not su.fresh({}, at_s=now) and not su.fresh({"iat": True}, at_s=now) and not su.fresh({"iat": "1"}, at_s=now)
    assert su.fresh({"iat": now + 10}, at_s=now) and not su.fresh({"iat": now + 60}, at_s=now)  # clocks differ a bit


def test_the_owners_stream_tells_of_the_refused_attempt_in_words(client):
    from tests.lobby.test_key_rotation import Reading

    ann = player(client, "Ann")
    thief = _key(client, ann["key"], "stolen")
    owners = _key_id(client, ann["key"])
    assert client.delete(f"/players/me/keys/{owners}", headers=auth(thief["key"])).status_code == 403
    stream = Reading(client, "/players/me/stream?lang=ko", {**auth(ann["key"]), "Last-Event-ID": "0"})
    try:
        stream.ended_within(1.0)
    finally:
        stream.close()
    assert "event: account_changed" in stream.text and "event: account_change_refused" in stream.text
    refused = next(json.loads(line[len("data: "):]) for line in stream.text.splitlines()
                   if line.startswith("data: ") and "account_change_refused" in line)
    assert refused["by"] == {"key_id": thief["id"], "name": "stolen"} and refused["key"]["id"] == owners
    assert refused["text"] == "“stolen”에서 본인 증명 없이 기기 키 “first key”를 폐기하려 했으나 거부되었습니다."
