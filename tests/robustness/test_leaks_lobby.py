"""No leaks in the lobby's phases, for every hosted game: while a game waits for people nobody
sees a deal (there is none: no setup event exists before the last claim) nor the seed; once
the claims complete it, a claimed seat (by its token or by its player's key) sees what its seat
may and nothing of the others' secrets, the creator's table token holds none of the claimed
seats, and no channel ever shows a claimed seat's token or its hash.

The oracle is test_leaks's: each game's `secrets(state)` after every event.
"""
from __future__ import annotations

import json
import random
import uuid

import pytest

from api.platform.events import PLATFORM_EVENTS
from domain import registry
from domain.contract import SPECTATOR, SYSTEM
from tests.api.helpers import auth, short_options
from tests.api.spec import sampled_client
from tests.conftest import settled
from tests.robustness.test_leaks import Oracle
from workers.jobs import play_turn

CONFIGS = [pytest.param(g, id=g.name) for g in registry.all_games()]
STEPS = 40


@pytest.fixture(scope="module")
def app(redis_url):
    from app import create_app
    from tests.api.spec import SpecCheckingClient

    prefix = f"lobbyleak{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "SSE_KEEPALIVE_S": 0.05, "SSE_MAX_SECONDS": 5, "TESTING": True, "RATE_LIMIT": 1_000_000})
    app.test_client_class = SpecCheckingClient
    return app


def _first_frame(client, gid, token):
    response = client.get(f"/games/{gid}/stream", headers=auth(token), buffered=False)
    assert response.status_code == 200
    buffer = ""
    try:
        for chunk in response.response:
            buffer += chunk.decode() if isinstance(chunk, bytes) else chunk
            if "\n\n" in buffer:
                return buffer.split("\n\n", 1)[0]
    finally:
        response.close()


@pytest.mark.parametrize("game", CONFIGS)
def test_nobody_sees_a_deal_before_it_exists_nor_a_claimed_seats_secrets(app, game):
    client = sampled_client(app)  # the leak suite reads every version: a sample is held to the spec
    service = app.extensions["games"]
    rng = random.Random(len(game.name))
    n = game.min_seats
    keys = [client.post("/players", json={"name": f"P{i}"}).get_json() for i in range(n)]
    seats = [{"me": True}] + [{"open": True}] * (n - 2) + [{"invite": True}]
    created = client.post("/games", json={"type": game.name, "seats": seats, "options": short_options(game)},
                          headers=auth(keys[0]["key"])).get_json()
    gid, table, code = created["id"], created["table_token"], created["invite_code"]
    token = {0: created["seats"][0]["token"]}

    def waiting_checks(viewers):
        assert all(e.type in PLATFORM_EVENTS for e in service.store.read(gid)), "a deal before the table is full"
        for who in viewers:
            for url in (f"/games/{gid}", f"/games/{gid}/events?limit=1000", f"/games/{gid}/state?version=1",
                        f"/games/{gid}/moves"):
                body = client.get(url, headers=auth(who)).get_json()
                text = json.dumps(body)
                assert '"seed": ' not in text.replace('"seed": null', "") and "token_sha256" not in text, (url, text)
                if "view" in body:
                    assert body["view"] is None
                if "moves" in body:
                    assert body["moves"] == []
            frame = _first_frame(client, gid, who)
            assert '"view":null' in frame and "token_sha256" not in frame

    waiting_checks([None, token[0], table, keys[0]["key"]])
    for seat in range(1, n):
        invite = f"?invite={code}" if seats[seat].get("invite") else ""
        r = client.post(f"/games/{gid}/seats/{seat}/claim{invite}", headers=auth(keys[seat]["key"]))
        assert r.status_code == 201, r.get_json()
        token[seat] = r.get_json()["token"]
        if seat < n - 1:
            waiting_checks([None, token[seat], keys[seat]["key"]])
    # The creator's table token holds its own seat only.
    for seat in range(1, n):
        assert client.get(f"/games/{gid}?seat={seat}", headers=auth(table)).status_code == 403

    stored = service.store.read(gid)
    oracle = Oracle(game, n, [(e.version, None if e.type in PLATFORM_EVENTS else e.data) for e in stored])
    state = None
    for e in stored:
        if e.type not in PLATFORM_EVENTS:
            state = game.evolve(state, e.data)
    claimed_secrets = [token[s] for s in range(1, n)] + [k["key"] for k in keys]
    for step in range(STEPS):
        current = service.load(gid)
        if current.finished:
            break
        version = current.version
        for seat in list(range(n)) + [SPECTATOR]:
            credentials = [None] if seat is SPECTATOR else [token[seat], keys[seat]["key"]]
            bodies = set()
            for who in credentials:
                for url in (f"/games/{gid}", f"/games/{gid}/moves?limit=5000",
                            f"/games/{gid}/events?after={max(0, version - 5)}&limit=1000"):
                    text = client.get(url, headers=auth(who)).get_data(as_text=True)
                    if "/events" in url:  # each event against the secrets right after it
                        for e in json.loads(text)["events"]:
                            oracle.check(json.dumps(e), seat, e["version"], where=f"event {e['version']} as {seat}")
                    else:
                        oracle.check(text, seat, version, where=f"{url} as {seat}")
                    assert "token_sha256" not in text and not any(s in text for s in claimed_secrets)
                    bodies.add((url, text))
            if seat is not SPECTATOR:  # a seat's token and its player's key see the same
                assert len(bodies) == 3, f"seat {seat}: its token and its player's key see different things"
        actor = rng.choice(current.actors())
        if actor == SYSTEM:
            assert play_turn(service, gid, version, SYSTEM) == "played"
        else:
            who = rng.choice([token[actor], keys[actor]["key"]])
            listed = client.get(f"/games/{gid}/moves?limit=5000", headers=auth(who)).get_json()["moves"]
            r = client.post(f"/games/{gid}/moves", json={"expected_version": version, "move": rng.choice(listed)},
                            headers={**auth(who), "Idempotency-Key": uuid.uuid4().hex})
            assert r.status_code == 201, r.get_json()
        for e in service.store.read(gid, after=version):
            if e.type not in PLATFORM_EVENTS:
                state = game.evolve(state, e.data)
            oracle.record(e.version, state)
    settled(app)  # the listings are written after the answers (api/games/deferred.py): read them once written
    mine = client.get("/players/me/games", headers=auth(keys[1]["key"])).get_json()
    assert gid in [g["id"] for g in mine["games"]]  # read as written, not before
    lobby = json.dumps(client.get(f"/games?status=active&type={game.name}&limit=100").get_json()) + json.dumps(mine)
    assert "token_sha256" not in lobby and not any(s in lobby for s in claimed_secrets)
