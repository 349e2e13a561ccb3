"""One identity, one player, across two gunicorn processes racing its first sight (issue 36):
requests carrying tokens of one new identity reach two API processes at once; every answer
names the same player, and no process leaves a second player behind."""
from __future__ import annotations

import json
import threading
import uuid

import pytest
import requests

from tests.api.helpers import auth
from tests.robustness.servers import ApiServer
from tests.signin.issuer import IdentityProvider

# The tier (tests/tiers.py): `two_processes` starts two `python app.py`.
pytestmark = pytest.mark.process

SUBJECTS, RACERS = 12, 8


@pytest.fixture(scope="module")
def provider():
    p = IdentityProvider("ES256")
    yield p
    p.close()


@pytest.fixture(scope="module")
def two_processes(redis_url, provider, tmp_path_factory):
    prefix = f"jwtrace{uuid.uuid4().hex[:6]}:"
    issuers = json.dumps([provider.config(jwks_uri=f"{provider.issuer}/jwks.json")])
    servers = [ApiServer(redis_url, prefix, tmp_path_factory.mktemp("race-logs"), api_only=True, web_workers=1,
                         OIDC_ISSUERS=issuers) for _ in range(2)]
    try:
        for server in servers:
            server.start()
        yield prefix, [s.base for s in servers]
    finally:
        for server in servers:
            server.stop()


def _race(bases, tokens) -> list[requests.Response]:
    answers: list[requests.Response] = []
    start = threading.Barrier(len(tokens))

    def ask(i):
        start.wait()
        answers.append(requests.get(f"{bases[i % 2]}/players/me", headers=auth(tokens[i]), timeout=20))
    threads = [threading.Thread(target=ask, args=(i,)) for i in range(len(tokens))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return answers


def test_one_identity_is_one_player_across_two_processes(two_processes, provider, redis_client):
    prefix, bases = two_processes
    for base in bases:  # each process has read the key set once: the race is on the mapping
        assert requests.get(f"{base}/players/me", headers=auth(provider.token(name="warm-up")), timeout=20).ok
    for n in range(SUBJECTS):
        sub = f"racer-{n}-{uuid.uuid4().hex[:6]}"
        answers = _race(bases, [provider.token(sub, name=f"Racer {n}") for _ in range(RACERS)])
        assert [r.status_code for r in answers] == [200] * RACERS, [r.text for r in answers if not r.ok]
        assert len({r.json()["id"] for r in answers}) == 1, sub
    players = [k for k in redis_client.scan_iter(f"{prefix}player:{{*}}", count=1000) if k.endswith(b"}")]
    names = sorted(redis_client.hget(k, "name").decode() for k in players)
    assert names == sorted(["warm-up", "warm-up", *(f"Racer {n}" for n in range(SUBJECTS))]), names
