"""Every 401 carries `WWW-Authenticate` (RFC 9110), in RFC 6750's Bearer form: the realm only
without a token (or for a credential that is no bearer token: a recovery code, a passkey's
answer), `error="invalid_token"` when a token was sent and refused. An `Authorization` that is
not `Bearer <token>`, and where a player's key is asked for a bearer token that is no player's
key nor a JWT, is `token_malformed` (issue 49, 13)."""
from __future__ import annotations

import re

from tests.api.helpers import auth, create, tokens
from tests.api.spec import spec
from tests.lobby.helpers import player

REALM_ONLY = 'Bearer realm="game-server"'


def _pattern() -> str:
    return spec()["components"]["headers"]["WWW-Authenticate"]["schema"]["pattern"]


def test_each_401_code_has_a_challenge_of_the_documented_form():
    from api.errors import Code
    from api.http.problems import challenge

    for code in Code:
        if 401 in code.statuses:
            said = challenge(code)
            assert re.fullmatch(_pattern(), said), (code, said)
            said.encode("ascii")  # a header's value
            assert ('error="invalid_token"' in said) == (
                code not in ("token_required", "invalid_recovery_code", "passkey_refused")), code


def test_every_401_answered_carries_www_authenticate(client):
    ann = player(client, "Ann")
    game = create(client, "high-card")
    seat = tokens(game)[0]
    refused = [
        ("token_required", client.get("/players/me")),
        ("token_malformed", client.get("/players/me", headers=auth("not-a-key"))),
        ("token_malformed", client.get("/players/me", headers=auth(seat))),  # a seat's token is no player's key
        ("invalid_player_key", client.get("/players/me", headers=auth("pk.unknown"))),
        ("token_required", client.post(f"/games/{game['id']}/moves", json={"expected_version": 0, "move": {}})),
        # The seat's token with its last character changed (one of 64: never to itself)
        ("invalid_token", client.get(f"/games/{game['id']}/moves", headers=auth(seat[:-1] + ("y" if seat[-1] == "x" else "x")))),
        ("token_malformed", client.get(f"/games/{game['id']}", headers={"Authorization": f"Basic {seat}"})),
        ("token_malformed", client.get(f"/games/{game['id']}", headers=auth("t" * 300))),
        ("invalid_ticket", client.get("/players/me/stream?ticket=made-up")),
        ("invalid_recovery_code", client.post("/recover", json={"code": "rc.made-up"})),
        ("passkey_refused", client.post("/passkeys/sign-in", json={"credential": {}})),
    ]
    for code, r in refused:
        assert (r.status_code, (r.get_json() or {}).get("code")) == (401, code), (code, r.status_code, r.get_data(as_text=True)[:300])
        challenge = r.headers.get("WWW-Authenticate")
        assert challenge is not None and re.fullmatch(_pattern(), challenge), (code, challenge)
        if code in ("token_required", "invalid_recovery_code", "passkey_refused"):
            assert challenge == REALM_ONLY, (code, challenge)
        else:
            assert 'error="invalid_token"' in challenge, (code, challenge)
    assert "WWW-Authenticate" not in client.get("/players/me", headers=auth(ann["key"])).headers
