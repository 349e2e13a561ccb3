"""Who may do what: no move without the seat's token; a token of one game is worthless in
another; a seat cannot move for another seat; a spectator acts on nothing; tokens are stored
only as SHA-256 hashes and compared in constant time (every seat compared, no early exit, on
fixed-length digests)."""
from __future__ import annotations

import hashlib
import uuid

import pytest

from domain import registry
from tests.api.helpers import auth

HOSTED = registry.all_games()


@pytest.fixture(scope="module")
def app(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"authz{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "SSE_KEEPALIVE_S": 0.05, "SSE_MAX_SECONDS": 0.2, "TESTING": True, "RATE_LIMIT": 1_000_000})
    app.test_client_class = SpecCheckingClient
    return app


@pytest.fixture
def client(app):
    return app.test_client()


def _create(client, game, n=None, with_table=False):
    """(id, {seat: token} (and "table": the table token, if asked), version)."""
    n = n or game.min_seats
    r = client.post("/games", json={"type": game.name, "seats": [{"name": f"P{i}"} for i in range(n)], "seed": 5})
    assert r.status_code == 201
    body = r.get_json()
    tokens = {s["seat"]: s["token"] for s in body["seats"]}
    if with_table:
        tokens["table"] = body["table_token"]
    return body["id"], tokens, body["version"]


def _version(client, gid):
    return client.get(f"/games/{gid}").get_json()["version"]


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.name)
def test_no_move_without_the_seats_token(client, game):
    gid, tokens, version = _create(client, game)
    moves = client.get(f"/games/{gid}/moves", headers=auth(tokens[0])).get_json()["moves"]
    body = {"expected_version": version, "move": moves[0] if moves else {"type": "x"}}
    r = client.post(f"/games/{gid}/moves", json=body)
    assert r.status_code == 401 and r.get_json()["code"] == "token_required"
    for bad in (tokens[0][:-1], tokens[0] + "A", tokens[0].upper(), "x" * len(tokens[0]),
                tokens[0].replace(".0.", ".1."), f"{gid}.0.", hashlib.sha256(tokens[0].encode()).hexdigest()):
        r = client.post(f"/games/{gid}/moves", json=body, headers=auth(bad))
        assert r.status_code == 401 and r.get_json()["code"] == "invalid_token", bad
    # a spectator has no legal moves and sees no "you"
    spectator = client.get(f"/games/{gid}").get_json()
    assert spectator["you"] is None
    assert client.get(f"/games/{gid}/moves").get_json()["moves"] == []
    assert _version(client, gid) == version


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.name)
def test_a_token_of_one_game_is_worthless_in_another(client, game):
    gid, tokens, version = _create(client, game)
    other, other_tokens, _ = _create(client, game)  # same type, same seed, same seat numbers
    moves = client.get(f"/games/{gid}/moves", headers=auth(tokens[0])).get_json()["moves"]
    foreign = auth(other_tokens[0])
    for method, path in (("get", ""), ("get", "/moves"), ("get", "/events"), ("get", f"/state?version={version}"),
                         ("get", "/stream")):
        r = getattr(client, method)(f"/games/{gid}{path}", headers=foreign)
        assert r.status_code == 401 and r.get_json()["code"] == "invalid_token", path
    r = client.post(f"/games/{gid}/moves", json={"expected_version": version, "move": moves[0]}, headers=foreign)
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_token"
    assert _version(client, gid) == version


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.name)
def test_a_seat_cannot_move_for_another_seat(client, game):
    """Whatever a seat sends (another seat's legal move, a move naming another seat), the move
    is refused, or it was one of the sender's own legal moves and its events are the sender's."""
    gid, tokens, version = _create(client, game, game.max_seats)
    n = len(tokens)
    accepted = []  # (version, seat) of the events a non-target sender had accepted
    for step in range(12):
        game_now = client.get(f"/games/{gid}").get_json()
        version = game_now["version"]
        actors = [a for a in game_now["to_act"] if isinstance(a, int)]
        if not actors:
            break
        target = actors[0]
        theirs = client.get(f"/games/{gid}/moves", headers=auth(tokens[target])).get_json()["moves"]
        for sender in range(n):
            if sender == target:
                continue
            mine = client.get(f"/games/{gid}/moves", headers=auth(tokens[sender])).get_json()["moves"]
            for move in theirs[:3] + [{**m, "seat": target} for m in mine[:2]] + [{**m, "actor": target} for m in mine[:1]]:
                r = client.post(f"/games/{gid}/moves", json={"expected_version": version, "move": move},
                                headers={**auth(tokens[sender]), "Idempotency-Key": uuid.uuid4().hex})
                if r.status_code == 201:
                    assert move in mine, f"seat {sender} had {move} accepted, which was not its own legal move"
                    accepted += [(e["version"], sender) for e in r.get_json()["events"]]
                    version = r.get_json()["version"]
                    break
                assert 400 <= r.status_code < 500, r.get_json()
            else:
                continue
            break
        else:
            # nobody else could move: the target plays its own first move
            r = client.post(f"/games/{gid}/moves", json={"expected_version": version, "move": theirs[0]},
                            headers={**auth(tokens[target]), "Idempotency-Key": uuid.uuid4().hex})
            assert r.status_code == 201, r.get_json()
    history = client.get(f"/games/{gid}/events?limit=1000", headers=auth(tokens[0])).get_json()["events"]
    for version, sender in accepted:
        assert history[version - 1]["actor"] == sender, history[version - 1]


def test_tokens_are_stored_only_as_hashes(client, app, redis_client):
    service = app.extensions["games"]
    prefix = app.config["KEY_PREFIX"]
    created = {}
    for game in HOSTED:
        gid, tokens, version = _create(client, game, with_table=True)
        created[gid] = tokens
        moves = client.get(f"/games/{gid}/moves", headers=auth(tokens[0])).get_json()["moves"]
        client.post(f"/games/{gid}/moves", json={"expected_version": version, "move": moves[0]},
                    headers={**auth(tokens[0]), "Idempotency-Key": "k1"})
    secrets = [t.encode() for tokens in created.values() for t in tokens.values()]
    secrets += [t.rsplit(".", 1)[1].encode() for tokens in created.values() for t in tokens.values()]
    scanned = 0
    for key in redis_client.scan_iter(match=f"{prefix}*", count=1000):
        kind = redis_client.type(key)
        if kind == b"stream":
            values = [v for _, fields in redis_client.xrange(key) for v in fields.values()]
        elif kind == b"hash":
            values = list(redis_client.hgetall(key).values()) + list(redis_client.hkeys(key))
        elif kind == b"string":
            values = [redis_client.get(key)]
        elif kind == b"set":
            values = list(redis_client.smembers(key))
        elif kind == b"list":
            values = redis_client.lrange(key, 0, -1)
        elif kind == b"zset":
            values = [m for m, _ in redis_client.zrange(key, 0, -1, withscores=True)]
        else:
            values = []
        scanned += 1
        for value in values:
            for secret in secrets:
                assert secret not in (value or b""), f"{key!r} holds a token in clear"
    assert scanned >= 3 * len(created)
    for gid, tokens in created.items():
        stored = service.store.credentials(gid)
        assert stored == {str(s): hashlib.sha256(t.encode()).hexdigest() for s, t in tokens.items()}


def test_tokens_are_compared_in_constant_time(app, client, monkeypatch):
    """Every seat's stored digest (and the table token's) is compared with hmac.compare_digest
    against the digest of the token sent (fixed length, whatever was sent), with no early exit:
    the work is the same for the first seat's token, the last seat's, the table's and a wrong one."""
    import api.games.callers as seats_module

    game = max(HOSTED, key=lambda g: g.max_seats)
    gid, tokens, _ = _create(client, game, game.max_seats, with_table=True)
    table = tokens.pop("table")
    calls = []
    real = seats_module.hmac.compare_digest

    def spy(a, b):
        calls.append((len(a), len(b)))
        return real(a, b)

    monkeypatch.setattr(seats_module.hmac, "compare_digest", spy)
    counts = {}
    for label, token in (("first", tokens[0]), ("last", tokens[len(tokens) - 1]), ("table", table),
                         ("wrong", "w" * 40), ("long", "x" * 199)):
        calls.clear()
        client.get(f"/games/{gid}", headers=auth(token))
        counts[label] = list(calls)
    assert len({len(c) for c in counts.values()}) == 1, counts
    assert len(counts["first"]) == len(tokens) + 1
    assert all(c == (64, 64) for c in counts["wrong"] + counts["long"] + counts["first"])
