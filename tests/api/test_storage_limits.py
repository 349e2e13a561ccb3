"""Storage bounded for the whole server, not per address (issue 28, item 3): before, 100 loopback
addresses created 196 games a second between them, 30 a minute each, and nothing ended the
games nobody joined. Now an address's network (IPv4 /24, IPv6 /64) has budgets of its own, games
created without a player's key spend a server-wide budget and are capped while unfinished
(503 with Retry-After), and a game still waiting for seats WAITING_TTL after its creation ends."""
from __future__ import annotations

import time
import uuid

from tests.api.helpers import auth
from tests.api.test_rate_limit import _app as _rate_limited_app
from tests.api.test_rate_limit import _from

TWO = [{"name": "A"}, {"name": "B"}]


def _app(redis_url, **config):
    # The after-answer steps (the lobby's index, a finished game leaving the anonymous set) run
    # before the answer here (DEFER_AFTER_APPEND off): each check right after a write sees them.
    return _rate_limited_app(redis_url, DEFER_AFTER_APPEND=False, **config)
WAITING = [{"name": "A"}, {"open": True}]


def _create(client, address, seats=TWO, headers=None):
    return client.post("/games", json={"type": "high-card", "seats": seats}, headers=headers or {}, **_from(address))


def _player_key(client, address):
    r = client.post("/players", json={"name": "Pat"}, **_from(address))
    assert r.status_code == 201, r.get_json()
    return r.get_json()["key"]


def test_many_addresses_of_one_ipv4_network_share_its_creation_budget(redis_url):
    client = _app(redis_url, ADDRESS_CREATE_LIMIT=30, NETWORK_CREATE_LIMIT=5).test_client()
    codes = [_create(client, f"10.7.3.{i}").status_code for i in range(1, 9)]
    assert codes == [201] * 5 + [429] * 3  # eight addresses, each far from its own 30
    refused = _create(client, "10.7.3.200")
    body = refused.get_json()
    assert body["code"] == "rate_limited" and body["details"]["ratelimit"]["key"] == "create_network"
    assert int(refused.headers["Retry-After"]) >= 1
    assert refused.headers["RateLimit-Policy"] == '"create_network";q=5;w=60'
    assert _create(client, "10.7.4.1").status_code == 201  # the next /24 has its own


def test_many_addresses_of_one_ipv6_64_share_its_creation_budget(redis_url):
    client = _app(redis_url, ADDRESS_CREATE_LIMIT=30, NETWORK_CREATE_LIMIT=4).test_client()
    codes = [_create(client, f"2001:db8:5:9::{i:x}").status_code for i in range(1, 7)]
    assert codes == [201] * 4 + [429] * 2
    assert _create(client, "2001:db8:5:9:ffff::1").get_json()["details"]["ratelimit"]["key"] == "create_network"
    assert _create(client, "2001:db8:5:a::1").status_code == 201  # another /64


def test_the_network_prefixes_are_settings(redis_url):
    client = _app(redis_url, NETWORK_CREATE_LIMIT=2, NETWORK_PREFIX_V4=16).test_client()
    codes = [_create(client, f"10.9.{i}.1").status_code for i in range(1, 4)]  # three /24s, one /16
    assert codes == [201, 201, 429]


def test_reads_and_streams_without_a_token_have_network_budgets_too(redis_url):
    client = _app(redis_url, ADDRESS_READ_LIMIT=100, NETWORK_READ_LIMIT=6).test_client()
    codes = [client.get("/game-types", **_from(f"10.8.1.{i}")).status_code for i in range(1, 10)]
    assert codes == [200] * 6 + [429] * 3
    refused = client.get("/game-types", **_from("10.8.1.77"))
    assert refused.get_json()["details"]["ratelimit"]["key"] == "network"
    shown = client.get("/game-types", **_from("10.8.2.1"))  # the tighter budget is the one shown
    assert shown.headers["RateLimit-Policy"] == '"network";q=6;w=60'


def test_anonymous_creation_has_one_budget_for_every_address(redis_url):
    client = _app(redis_url, ANONYMOUS_CREATE_LIMIT=4).test_client()
    codes = [_create(client, f"10.{i}.0.1").status_code for i in range(1, 7)]  # six networks
    assert codes == [201] * 4 + [429] * 2
    refused = _create(client, "10.99.0.1")
    assert refused.get_json()["details"]["ratelimit"]["key"] == "anonymous_create"
    assert int(refused.headers["Retry-After"]) >= 1
    # A player's key creates outside it (the game is the player's); an unknown key is no
    # player's: its game is anonymous.
    key = _player_key(client, "10.100.0.1")
    mine = _create(client, "10.101.0.1", [{"me": True}, {"bot": "random"}], auth(key))
    assert mine.status_code == 201, mine.get_json()
    assert _create(client, "10.102.0.1", TWO, auth(key)).status_code == 201
    assert _create(client, "10.103.0.1", TWO, auth("pk." + "x" * 40)).status_code == 429


def test_past_the_cap_of_unfinished_anonymous_games_creation_is_503_with_retry_after(redis_url):
    app = _app(redis_url, MAX_ANONYMOUS_GAMES=3)
    client = app.test_client()
    made = [_create(client, f"10.50.{i}.1", WAITING).get_json()["id"] for i in range(3)]
    full = _create(client, "10.60.0.1", WAITING)
    assert full.status_code == 503 and full.mimetype == "application/problem+json"
    assert full.get_json()["code"] == "anonymous_games_full" and int(full.headers["Retry-After"]) > 0
    assert _create(client, "10.61.0.1").status_code == 503  # bots or people: every anonymous game
    key = _player_key(client, "10.62.0.1")
    assert _create(client, "10.63.0.1", [{"me": True}, {"open": True}], auth(key)).status_code == 201
    assert client.get("/health").status_code == 200  # refusals, not an outage
    from workers.abandon import expire_waiting

    service = app.extensions["games"]
    assert expire_waiting(service, 3600, now_ms=int(time.time() * 1000) + 3601_000) == 4
    assert all(client.get(f"/games/{g}").get_json()["status"] == "abandoned" for g in made)
    assert _create(client, "10.64.0.1", WAITING).status_code == 201  # room again


def test_a_game_nobody_joins_expires_and_leaves_the_lobby(redis_url):
    app = _app(redis_url)
    client, service = app.test_client(), app.extensions["games"]
    from workers.abandon import expire_waiting

    waiting = _create(client, "10.70.0.1", WAITING).get_json()
    joined = _create(client, "10.70.0.2", WAITING).get_json()
    assert client.post(f"/games/{joined['id']}/seats/1/claim", json={"name": "C"},
                       **_from("10.70.0.3")).status_code == 201
    listed = [g["id"] for g in client.get("/games?status=waiting", **_from("10.70.0.4")).get_json()["games"]]
    assert waiting["id"] in listed
    now = int(time.time() * 1000)
    assert expire_waiting(service, 3600, now_ms=now + 3000_000) == 0  # not yet due
    assert expire_waiting(service, 3600, now_ms=now + 3601_000) == 1  # the started one is only let go
    over = client.get(f"/games/{waiting['id']}", **_from("10.70.0.4")).get_json()
    assert over["status"] == "abandoned" and over["result"]["outcome"] == "abandoned"
    last = client.get(f"/games/{waiting['id']}/events", **_from("10.70.0.4")).get_json()["events"][-1]
    assert last["type"] == "game_abandoned" and last["data"]["reason"].startswith("nobody took its free seats")
    assert client.get(f"/games/{joined['id']}", **_from("10.70.0.4")).get_json()["status"] == "active"
    listed = [g["id"] for g in client.get("/games?status=waiting", **_from("10.70.0.4")).get_json()["games"]]
    assert waiting["id"] not in listed
    # It is archived as a finished game (issue 31: the archive replaced FINISHED_TTL).
    assert waiting["id"] in service.store.archive_due(now + 10**9)
    assert service.store.waiting_since(now + 10**9) == []
    assert service.store.anonymous_count() == 1  # the joined game, still played


def test_the_reconciler_pass_expires_waiting_games(redis_url):
    from workers.reconciler import reconcile_once

    app = _app(redis_url)
    client, service = app.test_client(), app.extensions["games"]
    gid = _create(client, f"10.80.0.{uuid.uuid4().int % 200 + 1}", WAITING).get_json()["id"]
    reconcile_once(service, service.scheduler, waiting_ttl_s=3600)
    assert service.load(gid).status == "waiting"
    time.sleep(0.05)
    reconcile_once(service, service.scheduler, waiting_ttl_s=0.01)
    service.forget(gid)
    assert service.load(gid).status == "abandoned"
