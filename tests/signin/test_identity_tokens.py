"""Signing in with an identity provider's JWT (issue 36): tokens the tests sign themselves with
RS256 and ES256 keys, published through a JWKS served on 127.0.0.1 (by URL, by discovery, by
file); a rotation to a new `kid`; every refusal, each changing nothing; an identity is one player,
who may link others; a JWT plays as a player's key does."""
from __future__ import annotations

import base64
import hashlib
import hmac
import json
import time
import uuid

import pytest
from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

from tests.api.helpers import auth, move, step_up
from tests.conftest import wait_for
from tests.lobby.helpers import claim, open_game, player
from tests.signin.issuer import AUDIENCE, IdentityProvider, new_key

REFRESH_S = 1.0  # an unknown kid fetches the key set again at most this often


@pytest.fixture(scope="module")
def providers(tmp_path_factory):
    rs, es, filed = IdentityProvider("RS256"), IdentityProvider("ES256"), IdentityProvider("ES256")
    path = tmp_path_factory.mktemp("jwks") / "jwks.json"
    path.write_text(json.dumps(filed.jwks()))
    filed.file = path
    yield {"rs": rs, "es": es, "file": filed}
    for p in (rs, es, filed):
        p.close()


@pytest.fixture(scope="module")
def app(redis_url, providers):
    from app import create_app

    prefix = f"jwt{uuid.uuid4().hex[:6]}:"
    issuers = [providers["rs"].config(jwks_uri=f"{providers['rs'].issuer}/jwks.json"),
               providers["es"].config(),  # its jwks_uri by discovery
               providers["file"].config(jwks_file=str(providers["file"].file))]
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns", "TESTING": True,
                       "RATE_LIMIT": 1_000_000, "OIDC_ISSUERS": json.dumps(issuers), "OIDC_JWKS_REFRESH_S": REFRESH_S})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(app, app.response_class, use_cookies=True)


def _me(client, token):
    return client.get("/players/me", headers=auth(token))


def _identity_keys(app, redis_client) -> int:
    prefix = app.extensions["settings"].key_prefix
    return sum(1 for _ in redis_client.scan_iter(f"{prefix}identity:*", count=1000))


@pytest.mark.parametrize("which", ["rs", "es", "file"])
def test_a_token_of_a_trusted_issuer_signs_in_as_one_player_made_at_first_sight(client, providers, which):
    provider = providers[which]
    sub = uuid.uuid4().hex
    first = _me(client, provider.token(sub, name="Ann Lee"))
    assert first.status_code == 200, first.get_json()
    assert first.get_json()["name"] == "Ann Lee"
    again = _me(client, provider.token(sub, name="Someone Else"))  # a new token of the same identity
    assert again.get_json()["id"] == first.get_json()["id"]
    other = _me(client, provider.token(preferred_username="bob"))
    assert other.get_json()["name"] == "bob" and other.get_json()["id"] != first.get_json()["id"]


def test_the_same_subject_at_two_issuers_is_two_players(client, providers):
    sub = uuid.uuid4().hex
    a = _me(client, providers["rs"].token(sub)).get_json()["id"]
    b = _me(client, providers["es"].token(sub)).get_json()["id"]
    assert a != b


def test_a_rotation_to_a_new_kid_is_fetched_at_once(client, providers):
    provider = providers["rs"]
    assert _me(client, provider.token()).status_code == 200
    before = provider.fetches["jwks"]
    time.sleep(REFRESH_S)  # the last fetch is older than the refresh interval
    provider.rotate()  # the provider signs with a key this server has not seen
    signed_in = _me(client, provider.token())
    assert signed_in.status_code == 200, signed_in.get_json()
    assert provider.fetches["jwks"] == before + 1


def test_made_up_key_ids_do_not_make_the_server_flood_the_issuer(client, providers):
    provider = providers["rs"]
    time.sleep(REFRESH_S)
    before = provider.fetches["jwks"]
    for _ in range(10):
        made_up = provider.token(kid=provider.kid, headers={"kid": "made-up-" + uuid.uuid4().hex[:6]})
        r = _me(client, made_up)
        assert r.status_code == 401 and r.get_json()["code"] == "token_bad_signature"
    assert provider.fetches["jwks"] - before <= 1


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _hand_signed(header: dict, payload: dict, secret: bytes | None) -> str:
    """A token PyJWT would not make: HS256 with the issuer's public key as the secret (the
    algorithm-confusion attack), or `none`."""
    signing = f"{_b64(json.dumps(header).encode())}.{_b64(json.dumps(payload).encode())}"
    signature = hmac.new(secret, signing.encode(), hashlib.sha256).digest() if secret else b""
    return f"{signing}.{_b64(signature)}"


def _refusals(providers):
    rs, es = providers["rs"], providers["es"]
    now = int(time.time())
    public_pem = rs.keys[rs.kid].public_key().public_bytes(Encoding.PEM, PublicFormat.SubjectPublicKeyInfo)
    payload = {"iss": rs.issuer, "sub": "s", "aud": AUDIENCE, "exp": now + 600}
    good = rs.token()
    tampered = good[:-8] + ("A" * 8 if not good.endswith("A" * 8) else "B" * 8)
    return [
        ("token_expired", rs.token(exp=now - 120, iat=now - 720)),
        ("token_expired", es.token(exp=now - 120, iat=now - 720)),
        ("token_not_yet_valid", rs.token(nbf=now + 600)),
        ("token_not_yet_valid", rs.token(iat=now + 600, exp=now + 1200)),
        ("token_wrong_audience", rs.token(aud="someone-else")),
        ("token_wrong_audience", es.token(aud=["a", "b"])),
        ("token_unknown_issuer", rs.token(iss="https://elsewhere.example")),
        ("token_unknown_issuer", rs.token(iss=None)),
        ("token_bad_signature", rs.token(key=new_key("RS256"))),  # another key under the published kid
        ("token_bad_signature", es.token(key=new_key("ES256"))),
        ("token_bad_signature", tampered),
        ("token_bad_signature", _hand_signed({"alg": "HS256", "kid": rs.kid}, payload, public_pem)),
        ("token_bad_signature", _hand_signed({"alg": "none", "kid": rs.kid}, payload, None)),
        # an ES256 signature under the RS256 issuer's kid: the key's type does not fit the algorithm
        ("token_bad_signature", es.token(headers={"kid": rs.kid}, iss=rs.issuer)),
        ("token_malformed", "eyJhbGciOiJSUzI1NiJ9.eyJub3QganNvbg.c2ln"),
        ("token_malformed", "eyJub3QgYSBoZWFkZXI.eyJ9.c2ln"),
        ("token_malformed", rs.token(sub=None)),
        ("token_malformed", rs.token(exp=None)),
        ("token_malformed", rs.token(sub=7)),
    ]


def test_every_refusal_has_its_code_and_changes_nothing(client, app, redis_client, providers):
    for expected, token in _refusals(providers):
        before = _identity_keys(app, redis_client)
        r = _me(client, token)
        assert r.status_code == 401, (expected, r.get_json())
        assert r.get_json()["code"] == expected, (expected, r.get_json())
        assert r.get_json()["detail"], expected  # a sentence
        assert _identity_keys(app, redis_client) == before, expected


def test_a_refusal_is_said_in_korean_too(client, providers):
    r = client.get("/players/me", headers={**auth(providers["rs"].token(aud="x")), "Accept-Language": "ko"})
    assert r.get_json()["code"] == "token_wrong_audience"
    assert "대상" in r.get_json()["detail"] or "대상" in json.dumps(r.get_json(), ensure_ascii=False)


def test_a_server_trusting_no_issuer_refuses_tokens(client, redis_url, providers):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    plain = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": "nojwt:", "TESTING": True, "RATE_LIMIT": 1_000_000})
    r = SpecCheckingClient(plain, plain.response_class).get("/players/me", headers=auth(providers["rs"].token()))
    assert r.status_code == 401 and r.get_json()["code"] == "token_unknown_issuer"


def test_an_issuer_down_with_no_keys_known_is_a_503(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    down = IdentityProvider("RS256")
    try:
        down.down = True
        config = [down.config(jwks_uri=f"{down.issuer}/jwks.json")]
        a = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": "jwtdown:", "TESTING": True, "RATE_LIMIT": 1_000_000,
                        "OIDC_ISSUERS": json.dumps(config)})
        r = SpecCheckingClient(a, a.response_class).get("/players/me", headers=auth(down.token()))
        assert r.status_code == 503 and r.get_json()["code"] == "issuer_unavailable"
    finally:
        down.close()


def test_an_issuer_down_after_its_keys_were_read_leaves_them_working(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    flaky = IdentityProvider("ES256")
    try:
        config = [flaky.config(jwks_uri=f"{flaky.issuer}/jwks.json")]
        a = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": f"jwtflaky{uuid.uuid4().hex[:4]}:", "TESTING": True,
                        "RATE_LIMIT": 1_000_000, "OIDC_ISSUERS": json.dumps(config), "OIDC_JWKS_REFRESH_S": 0})
        c = SpecCheckingClient(a, a.response_class)
        token = flaky.token()
        assert c.get("/players/me", headers=auth(token)).status_code == 200
        flaky.down = True
        assert c.get("/players/me", headers=auth(token)).status_code == 200  # the keys it read
        flaky.rotate()
        r = c.get("/players/me", headers=auth(flaky.token()))  # a key it could not read
        assert r.status_code == 401 and r.get_json()["code"] == "token_bad_signature"
        flaky.down = False
        assert c.get("/players/me", headers=auth(flaky.token())).status_code == 200  # read once it is back
    finally:
        flaky.close()


# ---- a token works wherever a player's key does --------------------------------------------------

def test_a_signed_in_player_creates_claims_and_plays(client, providers):
    ann_token = providers["rs"].token(name="Ann")
    bob = player(client, "Bob")
    created = open_game(client, ann_token, type_="high-card")
    assert claim(client, created["id"], 1, bob["key"]).status_code == 201
    game = client.get(f"/games/{created['id']}", headers=auth(ann_token)).get_json()
    assert game["you"] == 0
    legal = client.get(f"/games/{created['id']}/moves", headers=auth(ann_token)).get_json()
    assert legal["moves"], legal  # the token's player is to move
    played = move(client, created["id"], ann_token, legal["moves"][0], legal["version"])
    assert played.status_code == 201, played.get_json()
    # the players' games are written after the answer (api/games/deferred.py): read until there
    assert wait_for(lambda: [g["id"] for g in client.get(
        "/players/me/games", headers=auth(ann_token)).get_json()["games"]] == [created["id"]])
    ticket = client.post("/players/me/stream-tickets", headers=auth(ann_token))
    assert ticket.status_code == 201
    device = client.post("/players/me/keys", json={"name": "app"}, headers=auth(ann_token))
    assert device.status_code == 201  # a key for this device, made with the token
    assert _me(client, device.get_json()["key"]).get_json()["id"] == _me(client, ann_token).get_json()["id"]


def test_a_signed_in_player_opens_its_streams_and_owns_webhooks(client, providers):
    token = providers["es"].token(name="Streamer")
    me = _me(client, token).get_json()
    ticket = client.post("/players/me/stream-tickets", headers=auth(token)).get_json()["stream"]
    for url, headers in ((ticket, {}), ("/players/me/stream", auth(token))):
        opened = client.get(url, headers=headers, buffered=False)
        try:
            assert opened.status_code == 200 and opened.mimetype == "text/event-stream"
        finally:
            opened.close()
    hook = client.post("/webhooks", json={"url": "http://127.0.0.1:9/hook", "events": ["game.your_turn"],
                                          "games": "mine"}, headers=auth(token))
    assert hook.status_code == 201, hook.get_json()
    assert hook.get_json()["owner"] == f"player:{me['id']}"


# ---- linking --------------------------------------------------------------------------------------

def test_a_player_links_identities_lists_and_unlinks_them(client, providers):
    ann = player(client, "Ann")
    rs_sub, es_sub = uuid.uuid4().hex, uuid.uuid4().hex
    for provider, sub in ((providers["rs"], rs_sub), (providers["es"], es_sub)):
        r = client.post("/players/me/identities", json={"token": provider.token(sub)}, headers=auth(ann["key"]))
        assert r.status_code == 201, r.get_json()
        assert r.get_json()["subject"] == sub
    assert _me(client, providers["es"].token(es_sub)).get_json()["id"] == ann["id"]
    linked = client.get("/players/me/identities", headers=auth(ann["key"])).get_json()["identities"]
    assert [(i["issuer"], i["subject"]) for i in linked] == [(providers["rs"].issuer, rs_sub), (providers["es"].issuer, es_sub)]
    again = client.post("/players/me/identities", json={"token": providers["rs"].token(rs_sub)}, headers=auth(ann["key"]))
    assert again.status_code == 201 and again.get_json() == linked[0]  # linking again changes nothing
    bob = player(client, "Bob")
    taken = client.post("/players/me/identities", json={"token": providers["rs"].token(rs_sub)}, headers=auth(bob["key"]))
    assert taken.status_code == 409 and taken.get_json()["code"] == "identity_taken"
    step_up(client, ann["key"], ann["recovery_code"])  # unlinking (issue 51)
    assert client.delete(f"/players/me/identities/{linked[0]['id']}", headers=auth(ann["key"])).status_code == 204
    assert _me(client, providers["rs"].token(rs_sub)).get_json()["id"] != ann["id"]  # a new player now
    gone = client.delete(f"/players/me/identities/{linked[0]['id']}", headers=auth(ann["key"]))
    assert gone.status_code == 404 and gone.get_json()["code"] == "unknown_identity"


def test_a_refused_token_links_nothing(client, app, redis_client, providers):
    ann = player(client, "Ann")
    before = _identity_keys(app, redis_client)
    r = client.post("/players/me/identities", json={"token": providers["rs"].token(aud="x")}, headers=auth(ann["key"]))
    assert r.status_code == 401 and r.get_json()["code"] == "token_wrong_audience"
    bad = client.post("/players/me/identities", json={"token": 3}, headers=auth(ann["key"]))
    assert bad.status_code == 400 and bad.get_json()["code"] == "validation_error"
    assert _identity_keys(app, redis_client) == before
    assert client.get("/players/me/identities", headers=auth(ann["key"])).get_json()["identities"] == []


def test_the_only_way_in_is_not_unlinked(client, providers):
    token = providers["rs"].token()
    only = client.get("/players/me/identities", headers=auth(token)).get_json()["identities"]
    assert len(only) == 1
    r = client.delete(f"/players/me/identities/{only[0]['id']}", headers=auth(token))
    assert r.status_code == 409 and r.get_json()["code"] == "last_sign_in"
    assert _me(client, token).status_code == 200


# ---- a fresh identity token as a step-up's proof (issue 51) -------------------------------------

def _step_up_with(client, key, token):
    return client.post("/players/me/step-up", json={"identity_token": token}, headers=auth(key))


def test_a_fresh_token_of_a_linked_identity_steps_up_one_linked_without_only_later(client, providers):
    ann = player(client, "Ann")
    sub = uuid.uuid4().hex
    # Linked by a key without a step-up: told to every device, it proves nothing for PROOF_SETTLE_S.
    linked = client.post("/players/me/identities", json={"token": providers["rs"].token(sub)}, headers=auth(ann["key"]))
    assert linked.status_code == 201 and linked.get_json()["counts_from"] > time.time() * 1000 + 86400_000
    r = _step_up_with(client, ann["key"], providers["rs"].token(sub))
    assert r.status_code == 403 and r.get_json()["details"]["reason"] == "not_settled"
    # Linked with a step-up (the recovery code): it counts at once, while its token is fresh.
    step_up(client, ann["key"], ann["recovery_code"])
    other = uuid.uuid4().hex
    assert client.post("/players/me/identities", json={"token": providers["es"].token(other)},
                       headers=auth(ann["key"])).get_json()["counts_from"] <= time.time() * 1000
    phone = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(ann["key"])).get_json()
    granted = _step_up_with(client, phone["key"], providers["es"].token(other))
    assert granted.status_code == 201 and granted.get_json()["proof"] == "identity_token"
    old = _step_up_with(client, ann["key"], providers["es"].token(other, iat=int(time.time()) - 600))
    assert old.status_code == 403 and old.get_json()["details"]["reason"] == "not_fresh"
    strangers = _step_up_with(client, ann["key"], providers["es"].token())
    assert strangers.status_code == 403 and strangers.get_json()["details"]["reason"] == "not_linked"
    refused = _step_up_with(client, ann["key"], providers["es"].token(other, aud="x"))
    assert refused.status_code == 403 and refused.get_json()["details"]["reason"] == "token_wrong_audience"


def test_a_request_signed_in_with_a_fresh_identity_token_is_its_own_step_up(client, providers):
    sub = uuid.uuid4().hex
    me = _me(client, providers["rs"].token(sub)).get_json()  # made at the identity's first sight: it counts
    made = client.post("/players/me/keys", json={"name": "phone"}, headers=auth(providers["rs"].token(sub))).get_json()
    stale = providers["rs"].token(sub, iat=int(time.time()) - 600)
    r = client.delete(f"/players/me/keys/{made['id']}", headers=auth(stale))
    assert r.status_code == 403 and r.get_json()["code"] == "step_up_required"
    assert client.delete(f"/players/me/keys/{made['id']}", headers=auth(providers["rs"].token(sub))).status_code == 204
    assert _me(client, providers["rs"].token(sub)).get_json()["id"] == me["id"]
