"""Every hosted game, played to its end through the API: people choose among the legal moves
the API lists (several at once in simultaneous phases), bots and the system move through the
real RQ workers. Every response is checked against openapi.yaml (the client does that), and
every event against the game's Event schema."""
from __future__ import annotations

import random

import pytest

from domain import registry
from tests.api.helpers import auth, create, move, tokens
from tests.api.spec import spec, validate_named
from tests.conftest import wait_for

HOSTED = [g for g in registry.all_games() if g.name != "high-card"]


def _seats(game):
    n = game.min_seats
    people = [{"name": f"P{i}"} for i in range(max(1, n - 1))]
    bots = list(game.bots)
    return people + [{"bot": bots[-1]}] * (n - len(people))


def play(client, created, rng, max_requests=20000):
    gid = created["id"]
    seat_tokens = tokens(created)
    store = client.application.extensions["games"].store
    for _ in range(max_requests):
        game = client.get(f"/games/{gid}").get_json()
        if game["status"] == "finished":
            return game
        people = [a for a in game["to_act"] if isinstance(a, int) and a in seat_tokens]
        if not people:
            version = game["version"]
            # The bots' and the system's moves, waited for at the store (one Redis read a poll, not
            # a whole GET /games/{id} checked against the spec: a quarter of the test's requests went to
            # polling, issue 48); the next turn of the loop reads the game through the API.
            wait_for(lambda: store.version(gid) != version, timeout=30, interval=0.005)
            continue
        seat = rng.choice(people)
        listed = client.get(f"/games/{gid}/moves?limit=5000", headers=auth(seat_tokens[seat])).get_json()
        if not listed["moves"]:
            continue
        r = move(client, gid, seat_tokens[seat], rng.choice(listed["moves"]), listed["version"])
        assert r.status_code in (201, 409), r.get_json()
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.name)
def test_a_game_plays_to_its_end_through_the_api(client, workers, game):
    plays_to_its_end(client, game)


def plays_to_its_end(client, game, options=None):
    """The game, created with `options` (none: its defaults), played to its end; its history
    whole, in order, every event of the game's schema, and each seat's as long."""
    created = create(client, game.name, _seats(game), seed=5, **({"options": options} if options else {}))
    final = play(client, created, random.Random(5))
    assert final["result"]["winners"] is not None
    names = spec()["x-games"][game.name]
    history = client.get(f"/games/{created['id']}/events?limit=1000").get_json()["events"]
    assert [e["version"] for e in history] == list(range(1, len(history) + 1))
    for event in history[1:]:
        validate_named(names["event"], event["data"])
    seat_tokens = tokens(created)
    for seat, token in seat_tokens.items():
        mine = client.get(f"/games/{created['id']}/events?limit=1000", headers=auth(token)).get_json()["events"]
        assert len(mine) == len(history)
