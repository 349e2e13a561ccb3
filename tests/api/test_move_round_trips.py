"""A move costs one Redis round trip: the append script itself (its version check, the events,
the idempotency record) also says whether a webhook subscription covers the game, which the
after-append step used to ask with a command of its own (issue 30). Counted with MONITOR on the
commands naming this test's key prefix, those a script ran apart."""
from __future__ import annotations

import threading
import time
import uuid

import pytest
import redis

from api.webhooks.signing import new_secret
from tests.api.helpers import auth, create


@pytest.fixture(scope="module")
def rt_app(redis_url):
    from app import create_app

    prefix = f"rt{uuid.uuid4().hex[:6]}:"
    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                       "DEFER_AFTER_APPEND": False}), prefix


def _move(client, game):
    token = auth(game["table_token"])
    seat = client.get(f"/games/{game['id']}").get_json()["to_act"][0]
    listed = client.get(f"/games/{game['id']}/moves?seat={seat}", headers=token).get_json()
    r = client.post(f"/games/{game['id']}/moves?seat={seat}&include=next_moves", headers=token,
                    json={"expected_version": listed["version"], "move": listed["moves"][0]})
    assert r.status_code == 201, r.get_json()


def _commands_of_a_move(redis_url, client, game, prefix) -> list[str]:
    """The commands of a move after a first one (which loads the scripts, and the game in this
    process: a web process's steady state)."""
    _move(client, game)
    token = auth(game["table_token"])
    seat = client.get(f"/games/{game['id']}").get_json()["to_act"][0]
    listed = client.get(f"/games/{game['id']}/moves?seat={seat}", headers=token).get_json()
    seen: list = []
    ready = threading.Event()

    def watch():
        with redis.Redis.from_url(redis_url).monitor() as m:
            ready.set()
            for command in m.listen():
                if "STOP-" + prefix in command["command"]:
                    return
                if command.get("client_type") != "lua" and prefix in command["command"]:
                    seen.append(command["command"].split(" ")[0])

    thread = threading.Thread(target=watch, daemon=True)
    thread.start()
    ready.wait(5)
    time.sleep(0.2)
    r = client.post(f"/games/{game['id']}/moves?seat={seat}&include=next_moves", headers=token,
                    json={"expected_version": listed["version"], "move": listed["moves"][0]})
    assert r.status_code == 201, r.get_json()
    redis.Redis.from_url(redis_url).get("STOP-" + prefix)
    thread.join(10)
    return seen


def test_a_move_is_one_round_trip(redis_url, rt_app):
    app, prefix = rt_app
    client = app.test_client()
    game = create(client, "splendor", [{"name": "A"}, {"name": "B"}], seed=21)
    assert _commands_of_a_move(redis_url, client, game, prefix) == ["EVALSHA"]


def test_a_watched_games_move_asks_nothing_more_of_its_subscriptions(redis_url, rt_app):
    app, prefix = rt_app
    client = app.test_client()
    game = create(client, "splendor", [{"name": "A"}, {"name": "B"}], seed=22)
    secret = new_secret()
    r = client.post("/webhooks", headers=auth(game["table_token"]),
                    json={"url": "http://127.0.0.1:9/hook", "events": ["game.move"], "secret": secret})
    assert r.status_code == 201, r.get_json()
    seen = _commands_of_a_move(redis_url, client, game, prefix)
    assert seen[0] == "EVALSHA" and "ZSCORE" not in seen
    assert any(c in ("EVALSHA", "HSET", "RPUSH", "LPUSH") for c in seen[1:]), seen  # the fan-out queued


def _round_trips(monkeypatch, prefix, act) -> list[list[str]]:
    """The round trips `act` makes naming this test's prefix, counted at redis-py's send (a
    pipeline is one): each as the commands it carries."""
    from redis.connection import AbstractConnection

    sent: list = []
    original = AbstractConnection.send_packed_command

    def counting(self, command, check_health=True):
        chunks = command if isinstance(command, (list, tuple)) else [command]
        data = b"".join(bytes(c) for c in chunks)
        if prefix.encode() in data:
            names, at = [], 0  # RESP: `*<n>`, then n times `$<len>` and the argument; the first names it
            while at < len(data):
                end = data.index(b"\r\n", at)
                n, at = int(data[at + 1:end]), end + 2
                for i in range(n):
                    end = data.index(b"\r\n", at)
                    size = int(data[at + 1:end])
                    if i == 0:
                        names.append(data[end + 2:end + 2 + size].decode())
                    at = end + 2 + size + 2
            sent.append(names)
        return original(self, command, check_health)

    monkeypatch.setattr(AbstractConnection, "send_packed_command", counting)
    act()
    monkeypatch.setattr(AbstractConnection, "send_packed_command", original)
    return sent


def test_a_move_in_a_game_of_players_asks_of_their_push_subscriptions_in_the_feeds_round_trip(
        rt_app, monkeypatch):
    """The players' feed (their games, their inboxes) and whether they have Web Push
    subscriptions: one pipeline after the append, not two round trips (issue 30)."""
    from tests.lobby.helpers import claim, open_game, player

    app, prefix = rt_app
    client = app.test_client()
    ann, bob = player(client, "Ann"), player(client, "Bob")
    gid = open_game(client, ann["key"])["id"]
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    keys = {0: ann["key"], 1: bob["key"]}

    def one_move():
        seat = client.get(f"/games/{gid}").get_json()["to_act"][0]
        listed = client.get(f"/games/{gid}/moves", headers=auth(keys[seat])).get_json()
        return lambda: client.post(f"/games/{gid}/moves", headers=auth(keys[seat]),
                                   json={"expected_version": listed["version"], "move": listed["moves"][0]})

    assert one_move()().status_code == 201  # scripts loaded, the game cached: the steady state
    post = one_move()
    answers = []
    trips = _round_trips(monkeypatch, prefix, lambda: answers.append(post()))
    assert answers[0].status_code == 201, answers[0].get_json()
    appends = [t for t in trips if "EVALSHA" in t]
    feeds = [t for t in trips if "XADD" in t]
    assert len(appends) == 1 and len(feeds) == 1, trips
    assert feeds[0].count("EXISTS") == 2, feeds  # both players' push subscriptions, in the feed's pipeline
    assert not [t for t in trips if set(t) == {"EXISTS"}], trips  # no round trip of its own


def _pair(redis_url):
    """Two web processes' apps on one Redis and one key prefix (two workers of one deployment)."""
    from app import create_app

    prefix = f"rt{uuid.uuid4().hex[:6]}:"
    config = {"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
              "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
              "DEFER_AFTER_APPEND": False}
    return [create_app(dict(config)).test_client(), create_app(dict(config)).test_client()], prefix


@pytest.fixture(scope="module")
def two_apps(redis_url):
    return _pair(redis_url)


def _games(client):
    """The process's GameRepository (api/games/repository.py)."""
    return client.application.extensions["games"].games


def _held_at(client, gid: str, version: int) -> None:
    """Waits until the process holds the game at `version` (told by the other process's append;
    the timeout is a failure's only)."""
    games, deadline = _games(client), time.monotonic() + 60
    while (games.cached(gid) is None or games.cached(gid).version < version) and time.monotonic() < deadline:
        time.sleep(0.01)
    assert games.cached(gid) is not None and games.cached(gid).version == version


def _trips_per_move(monkeypatch, clients, prefix, game, named: bool, moves: int = 6,
                    told: bool = False) -> list[int]:
    """Plays `moves` moves with the table token, the n-th on clients[n % len(clients)], each
    from what the previous answer said (`include=next_moves`: no read of the client's own in
    between); returns each move's round trips (a pipeline is one). `told`: each move waits
    until its process holds the version it names (the other process's append told to it)."""
    token = auth(game["table_token"])
    gid = game["id"]
    for c in clients:  # both processes hold the game and its credentials: the steady state
        assert c.get(f"/games/{gid}/moves", headers=token).status_code == 200
        assert not told or _games(c).listening()
    seat = clients[0].get(f"/games/{gid}").get_json()["to_act"][0]
    nxt = clients[0].get(f"/games/{gid}/moves?seat={seat}", headers=token).get_json()
    counts = []
    for n in range(moves):
        query = f"?seat={nxt['seat']}&include=next_moves" if named else "?include=next_moves"
        answers: list = []
        client, sent = clients[n % len(clients)], {"expected_version": nxt["version"], "move": nxt["moves"][0]}
        if told:
            _held_at(client, gid, nxt["version"])
        trips = _round_trips(monkeypatch, prefix, lambda c=client, q=query, b=sent: answers.append(
            c.post(f"/games/{gid}/moves{q}", headers=token, json=b)))
        assert answers[0].status_code == 201, answers[0].get_json()
        counts.append(len(trips))
        nxt = answers[0].get_json()["next_moves"]
        assert nxt is not None
    return counts


@pytest.mark.parametrize("named", [True, False], ids=["seat", "no-seat"])
def test_a_table_token_move_on_the_same_worker_is_one_round_trip(two_apps, monkeypatch, named):
    """With or without `?seat=`: a table-token move without it judges who acts on the state the
    process holds at the version the move names (it used to reload the game for every move)."""
    clients, prefix = two_apps
    game = create(clients[0], "splendor", [{"name": "A"}, {"name": "B"}], seed=31 + named)
    assert _trips_per_move(monkeypatch, clients[:1], prefix, game, named) == [1] * 6


@pytest.mark.parametrize("named", [True, False], ids=["seat", "no-seat"])
def test_moves_alternating_between_two_workers(two_apps, monkeypatch, named):
    """Each move on the worker that did not make the last append: the append script published
    its events, and that worker's listener advanced the game it holds
    (events/redis_announcements.py), so the move is decided on the state it holds and appended
    in one round trip, as on the worker that made the last append (issue 57)."""
    clients, prefix = two_apps
    game = create(clients[0], "splendor", [{"name": "A"}, {"name": "B"}], seed=41 + named)
    assert _trips_per_move(monkeypatch, clients, prefix, game, named, told=True) == [1] * 6


def test_alternating_moves_without_the_publications_read_what_they_lack(redis_url, monkeypatch):
    """Pub/sub promises nothing: with the listeners stopped (every publication lost) each
    worker is behind by the other's append, reads it (XRANGE and the archive's marker, one
    pipeline) and then appends: two round trips, and every move lands where it should."""
    clients, prefix = _pair(redis_url)
    game = create(clients[0], "splendor", [{"name": "A"}, {"name": "B"}], seed=51)
    for c in clients:
        assert c.get(f"/games/{game['id']}").status_code == 200  # the listener started...
        _games(c).stop_warming()  # ...and stopped: nothing told from now on
    assert _trips_per_move(monkeypatch, clients, prefix, game, True)[1:] == [2] * 5
    events = clients[1].get(f"/games/{game['id']}/events").get_json()
    assert [e["version"] for e in events["events"]] == list(range(1, events["version"] + 1))
