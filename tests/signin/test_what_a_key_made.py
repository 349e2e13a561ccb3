"""What a player key made ends with that key (issue 49): once a device key is revoked, or
replaced by its own rotation, the webhooks and push subscriptions made with it are removed at
once, the stream tickets it asked for open nothing, and the streams it opened end; what the
player's other keys made goes on. A webhook whose key is gone is sent nothing more even when the
removal did not run (the sender checks the key)."""
from __future__ import annotations

import base64
import secrets
import uuid

import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec

from api.webhooks.signing import new_secret
from tests import fakes
from tests.api.helpers import auth, step_up
from tests.api.webhook_receiver import Receiver
from tests.lobby.helpers import claim, open_game, player
from tests.lobby.test_key_rotation import ENDS_WITHIN_S, Reading


@pytest.fixture(scope="module")
def made(redis_url, tmp_path_factory):
    """An app whose webhook queue no worker serves (the test delivers itself), and its prefix."""
    from app import create_app

    prefix = f"kmade{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "DEFER_AFTER_APPEND": False, "SSE_KEEPALIVE_S": 0.2, "SSE_MAX_SECONDS": 30,
                      "PUSH_ALLOW_LOOPBACK": True,
                      "VAPID_KEY_FILE": str(tmp_path_factory.mktemp("vapid") / "vapid_private.pem")})
    return app, prefix


@pytest.fixture
def client(made):
    from tests.api.spec import SpecCheckingClient

    app, _ = made
    return SpecCheckingClient(app, app.response_class, use_cookies=True)


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _push(client, key) -> str:
    point = ec.generate_private_key(ec.SECP256R1()).public_key().public_bytes(
        serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    body = {"endpoint": f"http://127.0.0.1:9/push/{uuid.uuid4().hex}",
            "keys": {"p256dh": _b64(point), "auth": _b64(secrets.token_bytes(16))}}
    r = client.post("/players/me/push-subscriptions", json=body, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["id"]


def _webhook(client, key, url, secret=None) -> dict:
    body = {"url": url, "events": ["game.move", "game.started"], "games": "mine", "secret": secret or new_secret()}
    r = client.post("/webhooks", json=body, headers=auth(key))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _ids(client, path, field, key) -> set:
    r = client.get(path, headers=auth(key))
    assert r.status_code == 200, r.get_json()
    return {s["id"] for s in r.get_json()[field]}


def _key_id(client, key) -> str:
    return next(k["id"] for k in client.get("/players/me/keys", headers=auth(key)).get_json()["keys"] if k["current"])


@pytest.mark.parametrize("how", ["revoked", "rotated"])
def test_what_a_key_made_ends_with_it_and_the_other_keys_things_go_on(client, receiver, how):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()
    gid = open_game(client, ann["key"])["id"]
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    url = receiver.route("/feed", new_secret())
    kept_hook, stolen_hook = _webhook(client, ann["key"], url), _webhook(client, phone["key"], url)
    assert stolen_hook["key_id"] == phone["id"] and kept_hook["key_id"] == _key_id(client, ann["key"])
    assert "key_hash" not in stolen_hook
    kept_push, stolen_push = _push(client, ann["key"]), _push(client, phone["key"])
    tickets = [client.post(f"/games/{gid}/stream-tickets", headers=auth(phone["key"])).get_json()["stream"],
               client.post("/players/me/stream-tickets", headers=auth(phone["key"])).get_json()["stream"]]
    opened = [Reading(client, "/players/me/stream", auth(phone["key"])),
              Reading(client, f"/games/{gid}/stream", auth(phone["key"]))]
    kept_stream = Reading(client, "/players/me/stream", auth(ann["key"]))
    try:
        if how == "revoked":  # from another device, with a step-up (issue 51)
            step_up(client, ann["key"], ann["recovery_code"])
            assert client.delete(f"/players/me/keys/{phone['id']}", headers=auth(ann["key"])).status_code == 204
        else:  # by the device itself: what its old secret made ends all the same
            assert client.post("/players/me/keys", headers=auth(phone["key"])).status_code == 201
        # At once, without a worker: the webhooks and push subscriptions made with the key are gone.
        assert _ids(client, "/webhooks", "webhooks", ann["key"]) == {kept_hook["id"]}
        assert _ids(client, "/players/me/push-subscriptions", "subscriptions", ann["key"]) == {kept_push}
        assert stolen_push != kept_push
        for ticket in tickets:
            r = client.get(ticket)
            assert r.status_code == 401 and r.get_json()["code"] == "invalid_ticket"
        for stream in opened:
            assert stream.ended_within(ENDS_WITHIN_S) and "the player key of this stream was replaced" in stream.text
        assert not kept_stream.ended_within(0.5)
    finally:
        for stream in [*opened, kept_stream]:
            stream.close()


def test_a_webhook_whose_key_is_gone_is_sent_nothing_and_removed_by_its_sender(made, client, receiver,
                                                                                  redis_client):
    """The removal at revocation did not run (a crash between, a hook that failed): the sender,
    which checks the key before each batch, sends nothing and removes the webhook."""
    app, prefix = made
    ann, bob = player(client, "Ann"), player(client, "Bob")
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()
    secret = new_secret()
    kept_url, stolen_url = receiver.route("/kept", secret), receiver.route("/stolen", secret)
    kept, stolen = _webhook(client, ann["key"], kept_url, secret), _webhook(client, phone["key"], stolen_url, secret)
    gid = open_game(client, ann["key"])["id"]
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    ring = app.extensions["players"].keys
    hooks = list(ring.ended)
    ring.ended.clear()  # the removal at revocation does not run
    step_up(client, ann["key"], ann["recovery_code"])
    try:
        assert client.delete(f"/players/me/keys/{phone['id']}", headers=auth(ann["key"])).status_code == 204
    finally:
        ring.ended.extend(hooks)
    deliveries = fakes.deliveries(redis_client, prefix, webhook_allow_loopback=True, webhook_timeout_s=2)
    assert deliveries.subs.get(stolen["id"]) is not None  # still stored: nothing removed it
    assert deliveries.deliver(stolen["id"], gid) == "inactive"
    assert deliveries.deliver(kept["id"], gid) == "caught_up"
    assert receiver.received["/stolen"] == [] and receiver.received["/kept"], "only the living key's webhook hears"
    assert deliveries.subs.get(stolen["id"]) is None


def test_a_webhook_whose_key_is_gone_is_not_listed_and_is_removed_when_met(made, client, receiver):
    app, _ = made
    ann = player(client, "Ann")
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()
    stolen = _webhook(client, phone["key"], receiver.route("/listed", new_secret()))
    ring = app.extensions["players"].keys
    hooks = list(ring.ended)
    ring.ended.clear()  # the removal at revocation does not run
    step_up(client, ann["key"], ann["recovery_code"])
    try:
        assert client.delete(f"/players/me/keys/{phone['id']}", headers=auth(ann["key"])).status_code == 204
    finally:
        ring.ended.extend(hooks)
    assert _ids(client, "/webhooks", "webhooks", ann["key"]) == set()
    assert app.extensions["webhooks"].subs.get(stolen["id"]) is None


def test_what_a_personal_access_token_made_ends_with_it(client, receiver):
    """Issue 51: a token's webhooks and push subscriptions are bounded by it: a webhook needs
    `game:read` beside `webhooks` (it delivers the games' events), and once the token is revoked
    what it made is removed at once (its stream tickets refused, its streams ended), what the
    device key made goes on."""
    ann = player(client, "Ann")
    made = client.post("/players/me/tokens", json={"name": "bot", "scopes": ["webhooks", "game:read", "push"]},
                       headers=auth(ann["key"])).get_json()
    blind = client.post("/players/me/tokens", json={"name": "blind", "scopes": ["webhooks"]},
                        headers=auth(ann["key"])).get_json()["token"]
    url = receiver.route("/feed", new_secret())
    r = client.post("/webhooks", json={"url": url, "events": ["game.move"], "games": "mine"}, headers=auth(blind))
    assert (r.status_code, r.get_json()["details"]["missing"]) == (403, ["game:read"])
    kept_hook, token_hook = _webhook(client, ann["key"], url), _webhook(client, made["token"], url)
    assert token_hook["key_id"] == made["id"]
    kept_push, token_push = _push(client, ann["key"]), _push(client, made["token"])
    ticket = client.post("/players/me/stream-tickets", headers=auth(made["token"])).get_json()["stream"]
    stream = Reading(client, "/players/me/stream", auth(made["token"]))
    try:
        assert client.delete(f"/players/me/tokens/{made['id']}", headers=auth(ann["key"])).status_code == 204
        assert _ids(client, "/webhooks", "webhooks", ann["key"]) == {kept_hook["id"]}
        assert _ids(client, "/players/me/push-subscriptions", "subscriptions", ann["key"]) == {kept_push} != {token_push}
        r = client.get(ticket)
        assert r.status_code == 401 and r.get_json()["code"] == "invalid_ticket"
        assert stream.ended_within(ENDS_WITHIN_S) and "the player key of this stream was replaced" in stream.text
    finally:
        stream.close()


def _app_tokens(client, key, scopes):
    """An app registered and authorised by the player of `key`, through the code flow with PKCE:
    (its client id, the token answer)."""
    import hashlib

    redirect = "http://127.0.0.1:8765/cb"
    app = client.post("/players/me/apps", json={"name": "bot site", "redirect_uris": [redirect], "scopes": scopes},
                      headers=auth(key)).get_json()
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    query = {"response_type": "code", "client_id": app["client_id"], "redirect_uri": redirect,
             "scope": " ".join(scopes), "code_challenge": challenge, "code_challenge_method": "S256"}
    r = client.post("/oauth/authorize", query_string=query, json={"approve": True}, headers=auth(key))
    assert r.status_code == 200, r.get_json()
    code = r.get_json()["redirect"].split("code=")[1].split("&")[0]
    r = client.post("/oauth/token", data={"grant_type": "authorization_code", "code": code, "redirect_uri": redirect,
                                          "code_verifier": verifier, "client_id": app["client_id"]})
    assert r.status_code == 200, r.get_json()
    return app["client_id"], r.get_json()


def test_what_an_app_made_outlives_a_refresh_and_ends_with_its_grant(client, receiver):
    """Issue 51: an OAuth app's webhooks and push subscriptions are bound to its grant: a refresh
    (which ends the previous access token) keeps them; revoking the grant removes them at once."""
    ann = player(client, "Ann")
    client_id, issued = _app_tokens(client, ann["key"], ["webhooks", "game:read", "push"])
    url = receiver.route("/feed", new_secret())
    kept_hook, app_hook = _webhook(client, ann["key"], url), _webhook(client, issued["access_token"], url)
    kept_push, app_push = _push(client, ann["key"]), _push(client, issued["access_token"])
    r = client.post("/oauth/token", data={"grant_type": "refresh_token", "refresh_token": issued["refresh_token"],
                                          "client_id": client_id})
    assert r.status_code == 200, r.get_json()
    assert client.get("/players/me", headers=auth(issued["access_token"])).status_code == 401
    assert _ids(client, "/webhooks", "webhooks", ann["key"]) == {kept_hook["id"], app_hook["id"]}
    assert _ids(client, "/players/me/push-subscriptions", "subscriptions", ann["key"]) == {kept_push, app_push}
    grant = client.get("/players/me/authorizations", headers=auth(ann["key"])).get_json()["authorizations"][0]
    assert client.delete(f"/players/me/authorizations/{grant['id']}", headers=auth(ann["key"])).status_code == 204
    assert _ids(client, "/webhooks", "webhooks", ann["key"]) == {kept_hook["id"]}
    assert _ids(client, "/players/me/push-subscriptions", "subscriptions", ann["key"]) == {kept_push}
