"""The API on the Redis Cluster: two `python app.py` nodes (each with its RQ worker and its
reconciler) behave as one server; the race suite's free-retry and spread races run across them;
a slice of the API contract and the leak suite run in-process on the cluster; bot games of every
type are played to their end through the nodes."""
from __future__ import annotations

import pytest
import requests
from flask.testing import FlaskClient

from domain import registry
from tests.api import test_games_api as games_api
from tests.api import test_play_every_game as every_game
from tests.api.helpers import short_options
from tests.conftest import wait_for
from tests.lobby import test_players_and_lobby as lobby
from tests.robustness import test_leaks as leaks
from tests.robustness.helpers import auth, create, history, post_move, read, tokens
from tests.robustness.test_races import (  # noqa: F401
    test_32_clients_over_five_api_processes_sharing_one_redis,
    test_32_clients_retrying_freely_leave_a_history_that_accounts_for_every_answer,
)

# The API contract and the lobby's (in-process app on the cluster, the session's workers): the
# lobby's indexes are sharded into buckets there, and its pages merge them.
globals().update({name: test for name, test in vars(games_api).items() if name.startswith("test_")})
globals().update({name: test for name, test in vars(lobby).items() if name.startswith("test_")})


# The cluster's promise is a game's keys in one slot and its jobs run by either node, whatever
# the game: every game is played to its end here, the long ones shortened by their options
# (one round of Witches, 20 of Fairy Tile: short_options), by people through the API (the leak
# suite below: every seat a person, every channel read) and by bots through both nodes' workers
# (test_a_bot_game_plays_to_its_end_across_two_nodes); test_z_no_cross_slot.py checks every
# command they sent. Their full length is played off the cluster (tests/api/test_play_every_game.py)
# and in memory (the game-contract suite). A person's move handing the turn to the session's
# workers and back is the same path whatever the game: Witches (a bot seat, the system's
# scoring, the simultaneous pass) plays it here; the four other games did too (about 6 s of the
# module's CPU, issue 48).
HANDOVER = [g for g in every_game.HOSTED if g.name == "witches"]


@pytest.mark.parametrize("game", HANDOVER, ids=lambda g: g.name)
def test_a_game_plays_to_its_end_through_the_api(client, workers, game):
    every_game.plays_to_its_end(client, game, short_options(game))

# The leak suite, one configuration per game (its fewest seats). Its answers are not held to the
# spec here (a third of its CPU): their shapes are the API's, whatever the store, and the same
# suite checks a sample of them on one Redis (tests/robustness/test_leaks.py, most seats; its
# live fan-out and chat tests at the fewest), as tests/api/ does every answer.
leak_app = leaks.app


@pytest.mark.parametrize("game,n", leaks.FEWEST_SEATS)
def test_no_viewer_receives_another_seats_secret_on_the_cluster(leak_app, game, n):
    leaks.plays_without_a_leak(leak_app, FlaskClient(leak_app, leak_app.response_class, use_cookies=True), game, n)


HOSTED = [g for g in registry.all_games() if g.name != "high-card"]


@pytest.mark.parametrize("game", HOSTED, ids=lambda g: g.name)
def test_a_bot_game_plays_to_its_end_across_two_nodes(apis, game):
    """Created through one node, its bots played by both nodes' workers, read through the other
    node: the history has every version once, in order, and both nodes tell the same end. (The
    long games shortened, as above.)"""
    a, b = apis
    bot = list(game.bots)[-1]
    created = create(a, game.name, [{"bot": bot}] * game.min_seats, seed=7, options=short_options(game))
    gid = created["id"]
    final = wait_for(lambda: (g := read(b, gid))["status"] == "finished" and g, timeout=120, interval=0.1)
    assert read(a, gid)["version"] == final["version"]
    events = history(b, gid)
    assert [e["version"] for e in events] == list(range(1, final["version"] + 1))


def test_a_node_serving_a_cached_game_never_appends_a_stale_move(apis):
    """Node A has the game cached at version v; a move through node B takes the game past v; a
    move sent to node A at version v is refused (409 with B's version): the append is checked
    against the stream, never against a node's cache."""
    a, b = apis
    created = create(a, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=31)
    gid, seat_tokens = created["id"], tokens(created)
    game = read(a, gid)  # cached on node A now
    seat, version = game["to_act"][0], game["version"]
    moves = requests.get(f"{a}/games/{gid}/moves", headers=auth(seat_tokens[seat]), timeout=15).json()["moves"]
    won = post_move(b, gid, seat_tokens[seat], moves[0], version)
    assert won.status_code == 201
    stale = post_move(a, gid, seat_tokens[seat], moves[-1], version)
    assert stale.status_code == 409 and stale.json()["version"] == won.json()["version"]
    assert [e["version"] for e in history(a, gid, seat_tokens[0])] == list(range(1, won.json()["version"] + 1))


def test_a_stream_on_one_node_sees_moves_made_through_the_other(apis):
    a, b = apis
    created = create(a, "splendor", [{"name": "Ann"}, {"name": "Bob"}], seed=32)
    gid, seat_tokens = created["id"], tokens(created)
    game = read(a, gid)
    seat, version = game["to_act"][0], game["version"]
    with requests.get(f"{a}/games/{gid}/stream", headers={**auth(seat_tokens[0]), "Last-Event-ID": str(version)},
                      stream=True, timeout=30) as stream:
        moves = requests.get(f"{b}/games/{gid}/moves", headers=auth(seat_tokens[seat]), timeout=15).json()["moves"]
        assert post_move(b, gid, seat_tokens[seat], moves[0], version).status_code == 201
        seen = b""
        for chunk in stream.iter_content(chunk_size=None):
            seen += chunk
            if f"id: {version + 1}\n".encode() in seen:
                break
    assert b"event: game_event" in seen


def test_both_nodes_are_ready_with_their_workers_and_reconcilers_on_the_queue_redis(apis):
    """Readiness reads the workers' heartbeats and the reconciler's from RQ's plain Redis, and
    pings the cluster."""
    for base in apis:
        answer = wait_for(lambda: (r := requests.get(f"{base}/health/ready", timeout=10)).status_code == 200 and r,
                          timeout=30, interval=0.2)
        assert answer.json()["checks"] == {"redis": "ok", "workers": "ok", "reconciler": "ok", "archive": "ok"}


def test_the_suites_here_run_on_the_cluster(app, workers, redis_url):
    assert redis_url.startswith("redis+cluster://")
    assert app.extensions["games"].store.clustered
    assert workers.env["REDIS_URL"] == redis_url
