"""Passkeys' refusals over the API (issue 36; the ceremonies themselves run in Chromium's virtual
authenticator: tests/web/test_passkeys.py): every challenge answers once, an answer to no
challenge of this server's or from no registered passkey is refused, and a refusal changes
nothing."""
from __future__ import annotations

import base64
import json

from tests.api.helpers import auth
from tests.lobby.helpers import player


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _answer(challenge: str, kind="webauthn.get", credential_id="bm9wZQ", origin="http://localhost") -> dict:
    """An answer's shape with a client data of our own (its signature is nobody's)."""
    client_data = {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": False}
    return {"id": credential_id, "rawId": credential_id, "type": "public-key", "clientExtensionResults": {},
            "response": {"clientDataJSON": _b64(json.dumps(client_data).encode()), "authenticatorData": _b64(b"\0" * 37),
                         "signature": _b64(b"sig"), "userHandle": None}}


def test_the_registration_options_are_for_a_discoverable_passkey_of_this_site(client):
    ann = player(client, "Ann")
    r = client.post("/players/me/passkey-options", headers=auth(ann["key"]))
    assert r.status_code == 200, r.get_json()
    options = r.get_json()
    assert options["rp"]["id"] == "localhost"  # the request's host (the test client's)
    assert options["user"]["name"] == "Ann" and options["challenge"]
    assert options["authenticatorSelection"]["residentKey"] == "required"
    assert client.post("/players/me/passkey-options").status_code == 401


def test_a_registration_answers_its_one_challenge(client):
    ann = player(client, "Ann")
    none_yet = client.post("/players/me/passkeys", json={"credential": {"id": "x"}}, headers=auth(ann["key"]))
    assert none_yet.status_code == 409 and none_yet.get_json()["code"] == "passkey_refused"
    challenge = client.post("/players/me/passkey-options", headers=auth(ann["key"])).get_json()["challenge"]
    wrong = client.post("/players/me/passkeys", json={"credential": _answer(challenge, "webauthn.create")},
                        headers=auth(ann["key"]))
    assert wrong.status_code == 422 and wrong.get_json()["code"] == "passkey_refused"
    spent = client.post("/players/me/passkeys", json={"credential": _answer(challenge, "webauthn.create")},
                        headers=auth(ann["key"]))
    assert spent.status_code == 409 and "No passkey registration is under way" in spent.get_json()["detail"]
    assert client.get("/players/me/passkeys", headers=auth(ann["key"])).get_json()["passkeys"] == []


def test_a_sign_in_needs_a_challenge_of_this_servers_used_once(client):
    made_up = client.post("/passkeys/sign-in", json={"credential": _answer(_b64(b"made up challenge"))})
    assert made_up.status_code == 401 and made_up.get_json()["code"] == "passkey_refused"
    challenge = client.post("/passkeys/sign-in/options").get_json()["challenge"]
    unknown = client.post("/passkeys/sign-in", json={"credential": _answer(challenge)})
    assert unknown.status_code == 401 and "not registered here" in unknown.get_json()["detail"]
    again = client.post("/passkeys/sign-in", json={"credential": _answer(challenge)})
    assert again.status_code == 401 and "used already" in again.get_json()["detail"]


def test_malformed_answers_are_refused(client):
    for body, code in (({"credential": "text"}, "validation_error"), ({}, "validation_error"),
                       ({"credential": {}, "extra": 1}, "validation_error"),
                       ({"credential": {"response": {"clientDataJSON": "!!"}}}, "passkey_refused"),
                       ({"credential": {"response": {"clientDataJSON": _b64(b"[1]")}}}, "passkey_refused")):
        r = client.post("/passkeys/sign-in", json=body)
        assert r.status_code in (400, 401) and r.get_json()["code"] == code, (body, r.get_json())


def test_removing_an_unknown_passkey_is_a_404(client):
    ann = player(client, "Ann")
    r = client.delete("/players/me/passkeys/bm9wZQ", headers=auth(ann["key"]))
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_passkey"
