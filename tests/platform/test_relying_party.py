"""Passkeys' relying party is the operator's to name once the server listens beyond loopback
(issue 49, 13): `python app.py` refuses to start without WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN
there, rather than following each request's Host; on loopback the request's host stands in."""
from __future__ import annotations

import pytest

from app import check_relying_party
from workers.supervisor import Refused

SET = {"WEBAUTHN_RP_ID": "games.example", "WEBAUTHN_ORIGIN": "https://games.example"}


@pytest.mark.parametrize("host", ["127.0.0.1", "localhost", "::1", "[::1]", "127.0.0.2"])
def test_on_loopback_the_request_host_may_stand_in(host):
    check_relying_party(host, {})


@pytest.mark.parametrize("host", ["0.0.0.0", "", "::", "10.0.0.5", "games.example"])
def test_beyond_loopback_both_are_required(host):
    for env in ({}, {"WEBAUTHN_RP_ID": "games.example"}, {"WEBAUTHN_ORIGIN": "https://games.example"}):
        with pytest.raises(Refused, match="WEBAUTHN_RP_ID .*WEBAUTHN_ORIGIN"):
            check_relying_party(host, env)
    check_relying_party(host, SET)
    check_relying_party(host, {"WEBAUTHN_RP_ID": "games.example", "WEBAUTHN_ORIGIN": "https://play.games.example:8443"})
    check_relying_party(host, {"WEBAUTHN_RP_ID": "localhost", "WEBAUTHN_ORIGIN": "http://localhost:8000"})  # compose's


@pytest.mark.parametrize("origin,rp_id,says", [
    ("games.example", "games.example", "not an origin"),
    ("http://games.example", "games.example", "not an origin"),  # plain http only for localhost
    ("https://games.example/play", "games.example", "not an origin"),
    ("https://games.example", "other.example", "not WEBAUTHN_ORIGIN's host"),
    ("https://badgames.example", "games.example", "not WEBAUTHN_ORIGIN's host"),
])
def test_a_relying_party_a_browser_would_refuse_is_refused(origin, rp_id, says):
    with pytest.raises(Refused, match=says):
        check_relying_party("0.0.0.0", {"WEBAUTHN_RP_ID": rp_id, "WEBAUTHN_ORIGIN": origin})
