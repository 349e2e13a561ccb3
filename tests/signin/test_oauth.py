"""Third-party apps by OAuth 2.0 (issue 51), against the Flask app served over real HTTP (a
server on a thread of its own) with a real HTTP client: the authorization code flow with PKCE
S256 (a wrong verifier, a wrong redirect URI, a plain or missing challenge refused; a code used
once), the access token holding exactly the scopes granted (403 insufficient_scope beyond
them), refresh rotation with reuse detection (a used refresh token revokes the grant), scope
escalation on refresh refused, RFC 7009 revocation, RFC 8414 metadata, and the player's list of
authorised apps with its revocation."""
from __future__ import annotations

import base64
import hashlib
import secrets
import threading
from urllib.parse import parse_qs, urlsplit

import pytest
import requests
from werkzeug.serving import make_server

from tests.conftest import settled

REDIRECT = "http://127.0.0.1:8765/callback"


@pytest.fixture(scope="module")
def base(app):
    server = make_server("127.0.0.1", 0, app, threaded=True)
    # its shutdown: 50 ms, not 0.5 s (serve_forever's poll)
    thread = threading.Thread(target=server.serve_forever, args=(0.05,), daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}"
    finally:
        server.shutdown()


@pytest.fixture
def http():
    with requests.Session() as session:
        yield session


def _auth(key):
    return {"Authorization": f"Bearer {key}"}


def _player(http, base, name="Ann"):
    r = http.post(f"{base}/players", json={"name": name})
    assert r.status_code == 201, r.text
    return r.json()["key"]


def _app(http, base, key, public=True, scopes=("game:read", "profile:read")):
    r = http.post(f"{base}/players/me/apps", headers=_auth(key),
                  json={"name": "Stats site", "redirect_uris": [REDIRECT], "scopes": list(scopes), "public": public})
    assert r.status_code == 201, r.text
    return r.json()


def _pkce():
    verifier = secrets.token_urlsafe(48)
    challenge = base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()
    return verifier, challenge


def _query(client_id, challenge, scope="game:read profile:read", redirect_uri=REDIRECT, method="S256", **extra):
    query = {"response_type": "code", "client_id": client_id, "redirect_uri": redirect_uri, "scope": scope,
             "state": "xyz", **extra}
    if challenge is not None:
        query.update(code_challenge=challenge, code_challenge_method=method)
    return query


def _consent(http, base, key, query, approve=True):
    """What the consent page's script does: the person's answer with the browser's key."""
    r = http.post(f"{base}/oauth/authorize", params=query, json={"approve": approve}, headers=_auth(key))
    assert r.status_code == 200, r.text
    return r.json()["redirect"]


def _code(http, base, key, client_id, challenge, **extra):
    back = _consent(http, base, key, _query(client_id, challenge, **extra))
    assert back.startswith(REDIRECT + "?")
    answer = parse_qs(urlsplit(back).query)
    assert answer["state"] == ["xyz"]
    return answer["code"][0]


def _exchange(http, base, client_id, code, verifier, redirect_uri=REDIRECT, auth=None):
    form = {"grant_type": "authorization_code", "code": code, "redirect_uri": redirect_uri,
            "code_verifier": verifier}
    if auth is None:
        form["client_id"] = client_id
    return http.post(f"{base}/oauth/token", data=form, auth=auth)


def _tokens(http, base, key, client_id):
    verifier, challenge = _pkce()
    r = _exchange(http, base, client_id, _code(http, base, key, client_id, challenge), verifier)
    assert r.status_code == 200, r.text
    return r.json()


def _refresh(http, base, client_id, refresh_token, **extra):
    return http.post(f"{base}/oauth/token", data={"grant_type": "refresh_token", "refresh_token": refresh_token,
                                                  "client_id": client_id, **extra})


def test_the_code_flow_with_pkce_gives_a_token_of_the_scopes_granted_and_no_more(http, base):
    key = _player(http, base)
    app = _app(http, base, key)
    assert app["client_id"].startswith("app_") and "client_secret" not in app
    verifier, challenge = _pkce()
    query = _query(app["client_id"], challenge)
    page = http.get(f"{base}/oauth/authorize", params=query, headers={"Accept-Language": "en"})
    assert page.status_code == 200 and page.headers["Content-Type"].startswith("text/html"), page.text
    assert "Stats site" in page.text and "game:read" in page.text and "Read the player&#39;s games" in page.text
    assert "script-src 'self'" in page.headers["Content-Security-Policy"]
    korean = http.get(f"{base}/oauth/authorize", params=query, headers={"Accept-Language": "ko"})
    assert "앱 권한 허용" in korean.text and "플레이어의 게임" in korean.text
    code = _code(http, base, key, app["client_id"], challenge)
    r = _exchange(http, base, app["client_id"], code, verifier)
    assert r.status_code == 200, r.text
    issued = r.json()
    assert issued["token_type"] == "Bearer" and issued["expires_in"] == 3600
    assert issued["scope"] == "game:read profile:read" and issued["refresh_token"].startswith("rt_")
    assert r.headers["Cache-Control"] == "no-store"
    token = issued["access_token"]
    assert http.get(f"{base}/players/me/games", headers=_auth(token)).status_code == 200
    r = http.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                  headers=_auth(token))
    assert (r.status_code, r.json()["code"], r.json()["details"]["missing"]) == (403, "insufficient_scope",
                                                                                 ["lobby:write"])
    assert 'error="insufficient_scope"' in r.headers["WWW-Authenticate"]
    # the app's token is not one of the player's own tokens, and the player sees the app
    assert http.get(f"{base}/players/me/tokens", headers=_auth(key)).json()["tokens"] == []
    listed = http.get(f"{base}/players/me/authorizations", headers=_auth(key)).json()["authorizations"]
    assert [(g["client_id"], g["name"], g["scopes"]) for g in listed] == [
        (app["client_id"], "Stats site", ["game:read", "profile:read"])]
    # a code is used once
    again = _exchange(http, base, app["client_id"], code, verifier)
    assert (again.status_code, again.json()["error"]) == (400, "invalid_grant")


def test_a_wrong_verifier_is_refused_and_spends_the_code(http, base):
    key = _player(http, base)
    app = _app(http, base, key)
    verifier, challenge = _pkce()
    code = _code(http, base, key, app["client_id"], challenge)
    r = _exchange(http, base, app["client_id"], code, _pkce()[0])
    assert (r.status_code, r.json()["error"]) == (400, "invalid_grant")
    assert "error_description" in r.json() and "code" not in r.json()  # OAuth's form, not problem+json
    r = _exchange(http, base, app["client_id"], code, verifier)
    assert (r.status_code, r.json()["error"]) == (400, "invalid_grant")


@pytest.mark.parametrize("challenge, method", [(None, None), ("x" * 43, "plain")])
def test_a_missing_or_plain_challenge_is_refused(http, base, challenge, method):
    key = _player(http, base)
    app = _app(http, base, key)
    query = _query(app["client_id"], challenge, method=method)
    r = http.get(f"{base}/oauth/authorize", params=query, allow_redirects=False)
    assert r.status_code == 302, r.text
    answer = parse_qs(urlsplit(r.headers["Location"]).query)
    assert answer["error"] == ["invalid_request"] and answer["state"] == ["xyz"]


@pytest.mark.parametrize("other", [REDIRECT + "/", "http://127.0.0.1:8766/callback", "https://evil.example/cb"])
def test_a_redirect_uri_not_registered_exactly_is_refused_without_a_redirect(http, base, other):
    key = _player(http, base)
    app = _app(http, base, key)
    query = _query(app["client_id"], _pkce()[1], redirect_uri=other)
    r = http.get(f"{base}/oauth/authorize", params=query, allow_redirects=False)
    assert (r.status_code, r.json()["error"]) == (400, "invalid_request") and "Location" not in r.headers
    r = http.post(f"{base}/oauth/authorize", params=query, json={"approve": True}, headers=_auth(key))
    assert (r.status_code, r.json()["error"]) == (400, "invalid_request")


def test_a_code_is_redeemed_only_with_its_redirect_uri_and_by_its_client(http, base):
    key = _player(http, base)
    app, other = _app(http, base, key), _app(http, base, key)
    verifier, challenge = _pkce()
    code = _code(http, base, key, app["client_id"], challenge)
    r = _exchange(http, base, app["client_id"], code, verifier, redirect_uri="http://127.0.0.1:8765/other")
    assert (r.status_code, r.json()["error"]) == (400, "invalid_grant")
    code = _code(http, base, key, app["client_id"], challenge)
    r = _exchange(http, base, other["client_id"], code, verifier)
    assert (r.status_code, r.json()["error"]) == (400, "invalid_grant")


def test_a_scope_the_app_may_not_ask_is_refused(http, base):
    key = _player(http, base)
    app = _app(http, base, key)
    r = http.get(f"{base}/oauth/authorize", params=_query(app["client_id"], _pkce()[1], scope="game:read game:play"),
                 allow_redirects=False)
    assert r.status_code == 302 and parse_qs(urlsplit(r.headers["Location"]).query)["error"] == ["invalid_scope"]
    r = http.post(f"{base}/players/me/apps", headers=_auth(key),
                  json={"name": "x", "redirect_uris": [REDIRECT], "scopes": ["account"]})
    assert (r.status_code, r.json()["code"]) == (400, "validation_error")


def test_a_denial_goes_back_to_the_app_as_access_denied(http, base):
    key = _player(http, base)
    app = _app(http, base, key)
    back = _consent(http, base, key, _query(app["client_id"], _pkce()[1]), approve=False)
    assert parse_qs(urlsplit(back).query)["error"] == ["access_denied"]
    assert http.get(f"{base}/players/me/authorizations", headers=_auth(key)).json()["authorizations"] == []


def test_refresh_rotates_and_a_reused_refresh_token_revokes_the_grant(http, base):
    key = _player(http, base)
    app = _app(http, base, key)
    first = _tokens(http, base, key, app["client_id"])
    r = _refresh(http, base, app["client_id"], first["refresh_token"])
    assert r.status_code == 200, r.text
    second = r.json()
    assert second["refresh_token"] != first["refresh_token"] and second["access_token"] != first["access_token"]
    assert http.get(f"{base}/players/me", headers=_auth(first["access_token"])).status_code == 401
    assert http.get(f"{base}/players/me", headers=_auth(second["access_token"])).status_code == 200
    # the first refresh token again: a thief or a replay; the whole grant ends
    r = _refresh(http, base, app["client_id"], first["refresh_token"])
    assert (r.status_code, r.json()["error"]) == (400, "invalid_grant")
    assert http.get(f"{base}/players/me", headers=_auth(second["access_token"])).status_code == 401
    r = _refresh(http, base, app["client_id"], second["refresh_token"])
    assert (r.status_code, r.json()["error"]) == (400, "invalid_grant")
    assert http.get(f"{base}/players/me/authorizations", headers=_auth(key)).json()["authorizations"] == []


def test_a_refresh_asks_no_wider_scope_nor_by_another_client(http, base):
    key = _player(http, base)
    app, other = _app(http, base, key), _app(http, base, key)
    first = _tokens(http, base, key, app["client_id"])
    r = _refresh(http, base, app["client_id"], first["refresh_token"], scope="game:read game:play")
    assert (r.status_code, r.json()["error"]) == (400, "invalid_scope")
    r = _refresh(http, base, other["client_id"], first["refresh_token"])
    assert (r.status_code, r.json()["error"]) == (400, "invalid_grant")
    r = _refresh(http, base, app["client_id"], first["refresh_token"], scope="profile:read")  # narrower: taken
    assert r.status_code == 200 and r.json()["scope"] == "profile:read", r.text
    assert http.get(f"{base}/players/me/games", headers=_auth(r.json()["access_token"])).status_code == 403


def test_revocation_of_a_refresh_token_ends_the_grant_and_of_an_access_token_itself(http, base):
    key = _player(http, base)
    app = _app(http, base, key)
    first = _tokens(http, base, key, app["client_id"])
    r = http.post(f"{base}/oauth/revoke", data={"token": first["access_token"], "client_id": app["client_id"]})
    assert r.status_code == 200, r.text
    assert http.get(f"{base}/players/me", headers=_auth(first["access_token"])).status_code == 401
    assert _refresh(http, base, app["client_id"], first["refresh_token"]).status_code == 200  # the grant lives
    second = _tokens(http, base, key, app["client_id"])
    r = http.post(f"{base}/oauth/revoke", data={"token": second["refresh_token"], "token_type_hint": "refresh_token",
                                                "client_id": app["client_id"]})
    assert r.status_code == 200
    assert http.get(f"{base}/players/me", headers=_auth(second["access_token"])).status_code == 401
    assert _refresh(http, base, app["client_id"], second["refresh_token"]).json()["error"] == "invalid_grant"
    r = http.post(f"{base}/oauth/revoke", data={"token": "rt_nosuchtoken", "client_id": app["client_id"]})
    assert r.status_code == 200  # RFC 7009 §2.2: an unknown token is answered as revoked


def test_a_confidential_app_authenticates_with_its_secret_shown_once(http, base):
    key = _player(http, base)
    app = _app(http, base, key, public=False)
    secret = app["client_secret"]
    assert all("client_secret" not in a for a in http.get(f"{base}/players/me/apps", headers=_auth(key)).json()["apps"])
    verifier, challenge = _pkce()
    code = _code(http, base, key, app["client_id"], challenge)
    r = _exchange(http, base, app["client_id"], code, verifier)  # no secret: refused
    assert (r.status_code, r.json()["error"]) == (401, "invalid_client")
    code = _code(http, base, key, app["client_id"], challenge)
    r = _exchange(http, base, app["client_id"], code, verifier, auth=(app["client_id"], secret))
    assert r.status_code == 200, r.text


def test_the_player_revokes_an_authorised_app_and_deletes_its_own(http, base):
    key = _player(http, base)
    app = _app(http, base, key)
    issued = _tokens(http, base, key, app["client_id"])
    grant = http.get(f"{base}/players/me/authorizations", headers=_auth(key)).json()["authorizations"][0]
    assert http.delete(f"{base}/players/me/authorizations/{grant['id']}", headers=_auth(key)).status_code == 204
    assert http.get(f"{base}/players/me", headers=_auth(issued["access_token"])).status_code == 401
    assert _refresh(http, base, app["client_id"], issued["refresh_token"]).json()["error"] == "invalid_grant"
    r = http.delete(f"{base}/players/me/authorizations/{grant['id']}", headers=_auth(key))
    assert (r.status_code, r.json()["code"]) == (404, "unknown_app")
    issued = _tokens(http, base, key, app["client_id"])
    assert http.delete(f"{base}/players/me/apps/{app['client_id']}", headers=_auth(key)).status_code == 204
    assert http.get(f"{base}/players/me", headers=_auth(issued["access_token"])).status_code == 401
    assert http.get(f"{base}/players/me/apps", headers=_auth(key)).json()["apps"] == []


def test_metadata_names_the_endpoints(http, base):
    r = http.get(f"{base}/.well-known/oauth-authorization-server")
    assert r.status_code == 200
    meta = r.json()
    assert meta["issuer"] == base and meta["token_endpoint"] == f"{base}/oauth/token"
    assert meta["introspection_endpoint"] == f"{base}/oauth/introspect"
    assert meta["code_challenge_methods_supported"] == ["S256"] and meta["response_types_supported"] == ["code"]
    assert "account" not in meta["scopes_supported"] and "game:read" in meta["scopes_supported"]


def test_the_example_app_signs_a_player_in_and_reads_their_games(http, base, app, monkeypatch):
    """examples/oauth_app.py against the served app: registered with its developer's key, it
    signs another player in (the consent given as the page's script gives it, and the browser
    sent back to the app's loopback listener), reads their games, refreshes and signs out."""
    import importlib.util
    import socket
    from pathlib import Path

    spec = importlib.util.spec_from_file_location("oauth_app", Path(__file__).parents[2] / "examples" / "oauth_app.py")
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    monkeypatch.setattr(example, "PORT", port)
    monkeypatch.setattr(example, "REDIRECT", f"http://127.0.0.1:{port}/callback")
    monkeypatch.setattr(example, "WAIT_S", 60)  # a failed consent fails the test, not hangs it
    client_id = example.register(base, _player(http, base, "Dev"))
    person = _player(http, base, "Bo")
    r = http.post(f"{base}/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                  headers=_auth(person))
    assert r.status_code == 201, r.text
    settled(app)  # the player's games are written after the answer (api/games/deferred.py)

    def browser(url):
        def consent():
            page = http.get(url)
            assert page.status_code == 200 and "Example stats app" in page.text
            back = _consent(http, base, person, dict(parse_qs(urlsplit(url).query, keep_blank_values=True)))
            assert requests.get(back, timeout=10).status_code == 200  # the app's listener answers
        threading.Thread(target=consent, daemon=True).start()

    games = example.run(base, client_id, browser)
    assert len(games) == 1
    assert http.get(f"{base}/players/me/authorizations", headers=_auth(person)).json()["authorizations"] == []


def test_at_the_most_grants_the_oldest_of_the_same_app_gives_way_and_another_app_is_refused(http, base,
                                                                                            monkeypatch):
    from api.players import apps as apps_module

    monkeypatch.setattr(apps_module, "MAX_GRANTS", 2)
    key = _player(http, base)
    app, other = _app(http, base, key), _app(http, base, key)
    oldest = _tokens(http, base, key, app["client_id"])
    _tokens(http, base, key, app["client_id"])
    newest = _tokens(http, base, key, app["client_id"])  # a third device of the same app
    assert http.get(f"{base}/players/me", headers=_auth(oldest["access_token"])).status_code == 401
    assert http.get(f"{base}/players/me", headers=_auth(newest["access_token"])).status_code == 200
    assert len(http.get(f"{base}/players/me/authorizations", headers=_auth(key)).json()["authorizations"]) == 2
    r = http.post(f"{base}/oauth/authorize", params=_query(other["client_id"], _pkce()[1]), json={"approve": True},
                  headers={**_auth(key), "Accept-Language": "ko"})
    assert (r.status_code, r.json()["code"]) == (409, "too_many_apps") and "앱" in r.json()["detail"]


def test_a_grant_whose_refresh_token_expired_is_forgotten_with_its_tokens(http, base, app):
    key = _player(http, base)
    client = _app(http, base, key)
    issued = _tokens(http, base, key, client["client_id"])
    apps = app.extensions["players"].apps
    player_id = http.get(f"{base}/players/me", headers=_auth(key)).json()["id"]
    [grant] = apps.grants(player_id)
    anchor = apps.grant(player_id, grant["id"])["anchor"]
    assert 0 < apps.redis.ttl(apps.tokens.index_key(anchor)) <= apps_module_ttl()
    apps.redis.delete(apps.tokens.index_key(anchor))  # as Redis does at its expiry
    assert http.get(f"{base}/players/me/authorizations", headers=_auth(key)).json()["authorizations"] == []
    assert http.get(f"{base}/players/me", headers=_auth(issued["access_token"])).status_code == 401


def apps_module_ttl():
    from api.players.apps import REFRESH_TTL_S

    return REFRESH_TTL_S


def test_the_state_is_shared_by_two_api_processes(http, base, redis_url, session_prefix):
    """A code asked of one API node is exchanged at another, and a refresh there: nothing of
    the authorization server lives in a process (a second app built on the same Redis and prefix)."""
    from app import create_app

    second = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": session_prefix, "TURN_QUEUE": f"{session_prefix}turns",
                         "ANALYSIS_QUEUE": f"{session_prefix}analysis", "TESTING": True, "RATE_LIMIT": 1_000_000})
    other = second.test_client()
    key = _player(http, base)
    client = _app(http, base, key)
    verifier, challenge = _pkce()
    code = _code(http, base, key, client["client_id"], challenge)
    r = other.post("/oauth/token", data={"grant_type": "authorization_code", "code": code, "redirect_uri": REDIRECT,
                                         "code_verifier": verifier, "client_id": client["client_id"]})
    assert r.status_code == 200, r.get_json()
    issued = r.get_json()
    r = other.post("/oauth/token", data={"grant_type": "refresh_token", "refresh_token": issued["refresh_token"],
                                         "client_id": client["client_id"]})
    assert r.status_code == 200, r.get_json()
    assert http.get(f"{base}/players/me/games", headers=_auth(r.get_json()["access_token"])).status_code == 200
    assert _refresh(http, base, client["client_id"], issued["refresh_token"]).json()["error"] == "invalid_grant"


def test_introspection_tells_an_app_of_its_own_tokens_only(http, base):
    key = _player(http, base)
    app, other = _app(http, base, key), _app(http, base, key)
    issued = _tokens(http, base, key, app["client_id"])

    def look(token, client_id):
        r = http.post(f"{base}/oauth/introspect", data={"token": token, "client_id": client_id})
        assert r.status_code == 200, r.text
        return r.json()

    said = look(issued["access_token"], app["client_id"])
    assert said["active"] is True and said["scope"] == "game:read profile:read" and said["token_type"] == "access_token"
    assert said["client_id"] == app["client_id"] and said["exp"] > 0 and said["sub"].startswith("p")
    assert look(issued["refresh_token"], app["client_id"])["active"] is True
    assert look(issued["access_token"], other["client_id"]) == {"active": False}
    assert look(key, app["client_id"]) == {"active": False}  # a device key is no app's token
    _refresh(http, base, app["client_id"], issued["refresh_token"])
    assert look(issued["refresh_token"], app["client_id"]) == {"active": False}  # used
    assert look(issued["access_token"], app["client_id"]) == {"active": False}  # ended by the refresh


def test_a_code_lives_a_minute_at_most(http, base, app):
    from api.games.callers import hash_token

    key = _player(http, base)
    client = _app(http, base, key)
    code = _code(http, base, key, client["client_id"], _pkce()[1])
    apps = app.extensions["players"].apps
    assert 0 < apps.redis.ttl(apps._code(hash_token(code))) <= 60


# (field, value, the answer): 400 and no redirect where the app is unknown or its URI not its own;
# a redirect to the app with the error otherwise; an empty state is no error.
MALFORMED = [("redirect_uri", "Þ$", (400, "invalid_request")), ("client_id", "Þ\x00", (400, "invalid_client")),
             ("code_challenge", "$<.ð\x1dK\x19\x0c\x7f\\\x0b", (302, "invalid_request")),
             ("scope", "eõÔ", (302, "invalid_scope")), ("state", "", (200, None))]


@pytest.mark.parametrize("field,value,answer", MALFORMED)
def test_a_malformed_authorization_request_is_refused_not_failed(http, base, field, value, answer):
    """What the fuzz campaign sent (schemathesis case q7rPT6: a 500, authlib refusing to word a
    redirect URI of non-ASCII characters into its error): an OAuth error, never a server error."""
    key = _player(http, base)
    app = _app(http, base, key)
    query = {**_query(app["client_id"], _pkce()[1]), field: value}
    for r in (http.get(f"{base}/oauth/authorize", params=query, allow_redirects=False),
              http.post(f"{base}/oauth/authorize", params=query, json={"approve": True}, headers=_auth(key),
                        allow_redirects=False)):
        status, error = answer
        assert r.status_code == status, r.text
        if status == 400:
            assert r.json()["error"] == error and "Location" not in r.headers
        elif status == 302:
            assert parse_qs(urlsplit(r.headers["Location"]).query)["error"] == [error]
