"""Signed webhooks end to end: the app, real RQ turn workers, a webhook worker on its own
queue, the reconciler, and a real receiver on 127.0.0.1 that verifies every signature with
the `standardwebhooks` package."""
from __future__ import annotations

import re
import time
import uuid

import pytest

from api.webhooks.signing import new_secret
from tests import fakes
from tests.api.helpers import auth, create
from tests.api.webhook_receiver import Receiver, payloads
from tests.conftest import running_workers, wait_for

# The tier (tests/tiers.py): `background` starts RQ workers (the `quiet` tests need only Redis).
pytestmark = pytest.mark.process

EVERYTHING = ["game.started", "game.move", "game.finished", "game.your_turn"]


@pytest.fixture(scope="module")
def prefix():
    return f"wh{uuid.uuid4().hex[:6]}:"


@pytest.fixture(scope="module")
def background(redis_url, prefix):
    env = {"WEBHOOK_QUEUE": f"{prefix}webhooks", "WEBHOOK_RETRY_BASE_S": "0.2", "WEBHOOK_TIMEOUT_S": "4",
           "WEBHOOK_ALLOW_LOOPBACK": "1"}
    with running_workers(redis_url, prefix, ("worker", "worker", "webhooks", "reconciler"), env) as w:
        yield w


@pytest.fixture(scope="module")
def wh_app(redis_url, prefix, background):
    from app import create_app

    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                       "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                       "DEFER_AFTER_APPEND": False})


@pytest.fixture
def wh_client(wh_app):
    from tests.api.spec import SpecCheckingClient

    wh_app.test_client_class = SpecCheckingClient
    return wh_app.test_client()


@pytest.fixture
def receiver():
    r = Receiver()
    yield r
    r.close()


def subscribe(client, table_token, url, secret=None, events=EVERYTHING, **extra):
    body = {"url": url, "events": events, **extra}
    if secret:
        body["secret"] = secret
    r = client.post("/webhooks", json=body, headers=auth(table_token))
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def play_out(client, game, timeout=30):
    """Plays every person seat (the table token) until the game is over; the system's moves
    are the workers'."""
    gid, table = game["id"], game["table_token"]
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        state = client.get(f"/games/{gid}", headers=auth(table)).get_json()
        if state["status"] != "active":
            return state
        people = [a for a in state["to_act"] if isinstance(a, int) and not state["seats"][a]["bot"]]
        for seat in people:
            moves = client.get(f"/games/{gid}/moves?seat={seat}", headers=auth(table)).get_json()
            if not moves["moves"]:
                continue
            client.post(f"/games/{gid}/moves?seat={seat}", headers={**auth(table), "Idempotency-Key": uuid.uuid4().hex},
                        json={"expected_version": moves["version"], "move": moves["moves"][-1]})
        if not people:
            time.sleep(0.02)
    raise AssertionError("the game did not end in time")


def test_every_event_arrives_signed_once_and_in_order(wh_client, receiver):
    game = create(wh_client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=7)
    spectator_secret, seat_secret = new_secret(), new_secret()
    sub = subscribe(wh_client, game["table_token"], receiver.route("/spectator", spectator_secret), spectator_secret)
    assert sub["secret"] == spectator_secret and sub["status"] == "active" and sub["games"] == [game["id"]]
    subscribe(wh_client, game["table_token"], receiver.route("/seat0", seat_secret), seat_secret, seat=0)
    final = play_out(wh_client, game)

    def finished(path):
        return any(p["type"] == "game.finished" for _, p in receiver.received[path])

    wait_for(lambda: finished("/spectator") and finished("/seat0"), timeout=30)
    assert receiver.bad_signatures == []
    history = wh_client.get(f"/games/{game['id']}/events?limit=1000").get_json()["events"]
    setup = next(e["version"] for e in history if e["type"] == "dealt")
    for path in ("/spectator", "/seat0"):
        got = receiver.received[path]
        ids = [i for i, _ in got]
        assert len(ids) == len(set(ids)), "a delivery id arrived twice"
        kinds = [p["type"] for _, p in got]
        assert kinds[0] == "game.started" and kinds[-1] == "game.finished" and kinds.count("game.finished") == 1
        versions = [p["data"]["version"] for _, p in got]
        assert versions == sorted(versions), "out of order"
        moved = [p["data"]["event"]["version"] for p in payloads(got, "game.move")]
        assert moved == list(range(setup + 1, final["version"] + 1)), "an event is missing or repeated"
        assert payloads(got, "game.finished")[0]["data"]["result"] == final["result"]
        for webhook_id, payload in got:
            assert webhook_id == f"{game['id']}.{payload['data']['version']}.{payload['type'][5:]}"
    # Redaction as the subscription's viewer may see, as of the event: hidden cards and bids
    # stay hidden from the spectator until the game is over, a seat sees its own.
    spectator = [p["data"]["event"] for p in payloads(receiver.received["/spectator"], "game.move")]
    seat0 = [p["data"]["event"] for p in payloads(receiver.received["/seat0"], "game.move")]
    dealt_spectator = [e for e in spectator if e["type"] == "dealt"]
    assert dealt_spectator and all(e["data"]["cards"] == [None, None] for e in dealt_spectator)
    dealt_seat0 = [e for e in seat0 if e["type"] == "dealt"]
    assert all(e["data"]["cards"][0] is not None and e["data"]["cards"][1] is None for e in dealt_seat0)
    bids = [e for e in spectator if e["type"] == "bid"]
    assert bids and all(e["data"]["chips"] is None for e in bids)
    # Whose turn: the table's subscription hears of both seats, seat 0's only of seat 0.
    turns0 = payloads(receiver.received["/seat0"], "game.your_turn")
    assert turns0 and all(p["data"]["seats"] == [0] for p in turns0)
    assert {s for p in payloads(receiver.received["/spectator"], "game.your_turn") for s in p["data"]["seats"]} == {0, 1}
    # The attempts are listed, newest first.
    attempts = wait_for(lambda: (found := wh_client.get(f"/webhooks/{sub['id']}/deliveries",
                                                        headers=auth(game["table_token"])).get_json())
                        and found["deliveries"] and found["deliveries"][0]["event"] == "game.finished" and found,
                        timeout=10)
    assert all(a["status"] == "delivered" and a["response_code"] == 204 for a in attempts["deliveries"])


def test_a_receiver_failing_three_times_gets_it_on_the_fourth_try(wh_client, receiver):
    game = create(wh_client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=3)
    secret = new_secret()
    sub = subscribe(wh_client, game["table_token"], receiver.route("/flaky", secret, "fail:3"), secret,
                    events=["game.started", "game.move"])
    wait_for(lambda: receiver.received["/flaky"])
    first_id = receiver.attempts["/flaky"][0]
    assert receiver.attempts["/flaky"][:4] == [first_id] * 4  # the same delivery, four times, nothing else first
    assert receiver.received["/flaky"][0][0] == first_id and receiver.received["/flaky"][0][1]["type"] == "game.started"

    def tries():  # the attempts log is written once the worker's run of messages ends
        listed = wh_client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(game["table_token"])).get_json()
        return [t for t in reversed(listed["deliveries"]) if t["delivery"] == first_id]

    mine = wait_for(lambda: (found := tries()) and found[-1]["status"] == "delivered" and found)
    assert [t["status"] for t in mine] == ["failed"] * 3 + ["delivered"]
    assert [t["attempt"] for t in mine] == [1, 2, 3, 4]
    assert mine[0]["response_code"] == 500 and mine[0]["response_excerpt"] == "nope!"
    # Later events follow, in order.
    play_out(wh_client, game)
    wait_for(lambda: any(p["data"].get("event", {}).get("type") == "scored" and p["data"]["event"]["data"]["final"]
                         for _, p in receiver.received["/flaky"]), timeout=30)
    versions = [p["data"]["version"] for _, p in receiver.received["/flaky"]]
    assert versions == sorted(versions) and len(versions) == len(set(versions))
    # A delivery asked for again arrives again, under the same id.
    r = wh_client.post(f"/webhooks/{sub['id']}/deliveries/{first_id}/retry", headers=auth(game["table_token"]))
    assert r.status_code == 202
    wait_for(lambda: [i for i, _ in receiver.received["/flaky"]].count(first_id) == 2)


def test_a_hanging_receiver_costs_the_turn_workers_nothing(wh_client, receiver):
    # A person against a bot, subscribed to a receiver that never answers: the one webhook
    # worker is stuck in its timeout, again and again.
    game = create(wh_client, seats=[{"name": "Ann"}, {"bot": "random"}], seed=5)
    secret = new_secret()
    subscribe(wh_client, game["table_token"], receiver.route("/hang", secret, "hang"), secret)
    # A subscription to a running game starts at its version then: the first message (and the
    # worker's first hang) comes with the game's next move, so the clock starts with the play.
    started = time.monotonic()
    final = play_out(wh_client, game, timeout=20)
    bot_games = [create(wh_client, seats=[{"bot": "random"}, {"bot": "bold"}], seed=i) for i in range(5)]
    for created in bot_games:
        wait_for(lambda: wh_client.get(f"/games/{created['id']}").get_json()["status"] != "active")
    elapsed = time.monotonic() - started
    assert final["status"] == "finished"
    assert elapsed < 10, f"games took {elapsed:.1f} s beside a hanging receiver"
    wait_for(lambda: receiver.hanging >= 1)  # the webhook worker was stuck meanwhile
    assert receiver.received["/hang"] == []


def test_who_may_subscribe_and_what(wh_client, receiver):
    game = create(wh_client, seats=[{"name": "Ann"}, {"name": "Bob"}])
    table, seat_token = game["table_token"], game["seats"][0]["token"]
    url = receiver.route("/any", new_secret())
    body = {"url": url, "events": ["game.move"]}
    assert wh_client.post("/webhooks", json=body).status_code == 401
    assert wh_client.get("/webhooks", headers=auth("nogame.table.x")).get_json()["code"] == "invalid_token"
    assert wh_client.get("/webhooks", headers=auth(table + "x")).get_json()["code"] == "invalid_token"
    assert wh_client.post("/webhooks", json=body, headers=auth(seat_token)).get_json()["code"] == "table_token_required"
    other = create(wh_client)
    r = wh_client.post("/webhooks", json={**body, "games": [other["id"]]}, headers=auth(table))
    assert r.status_code == 403 and r.get_json()["code"] == "game_not_yours"
    r = wh_client.post("/webhooks", json={**body, "games": "mine"}, headers=auth(table))
    assert r.status_code == 422 and r.get_json()["code"] == "player_required"
    for bad in ("http://example.com/hook", "ftp://127.0.0.1/", "https://10.1.2.3/hook", "https://169.254.169.254/",
                "https://user:pw@127.0.0.1/"):
        r = wh_client.post("/webhooks", json={**body, "url": bad}, headers=auth(table))
        assert r.status_code in (400, 422) and r.get_json()["code"] in ("webhook_url_refused", "validation_error"), bad
    r = wh_client.post("/webhooks", json={**body, "events": ["game.exploded"]}, headers=auth(table))
    assert r.status_code == 400
    r = wh_client.post("/webhooks", json={**body, "secret": "whsec_short"}, headers=auth(table))
    assert r.status_code == 400
    r = wh_client.post("/webhooks", json={**body, "seat": 7}, headers=auth(table))
    assert r.status_code == 403 and r.get_json()["code"] == "seat_not_yours"
    made = [subscribe(wh_client, table, url, events=["game.move"]) for _ in range(10)]
    assert all(m["secret"].startswith("whsec_") for m in made)
    r = wh_client.post("/webhooks", json=body, headers=auth(table))
    assert r.status_code == 422 and r.get_json()["code"] == "too_many_webhooks"
    listed = wh_client.get("/webhooks", headers=auth(table)).get_json()["webhooks"]
    assert sorted(w["id"] for w in listed) == sorted(m["id"] for m in made)
    assert all("secret" not in w for w in listed)
    assert wh_client.get("/webhooks", headers=auth(other["table_token"])).get_json()["webhooks"] == []
    assert wh_client.delete(f"/webhooks/{made[0]['id']}", headers=auth(other["table_token"])).status_code == 404
    assert wh_client.delete(f"/webhooks/{made[0]['id']}", headers=auth(table)).status_code == 204
    assert wh_client.delete(f"/webhooks/{made[0]['id']}", headers=auth(table)).status_code == 404
    assert wh_client.post("/webhooks", json=body, headers=auth(table)).status_code == 201  # room again


def test_a_lost_fan_out_is_repaired_by_the_reconciler(wh_client, receiver, redis_client, prefix):
    """A move whose after-append step never ran (its process died): the sweep finds the
    subscription behind a stopped game and delivers."""
    from events.redis_store import RedisEventStore

    game = create(wh_client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=11)
    secret = new_secret()
    subscribe(wh_client, game["table_token"], receiver.route("/repair", secret), secret, events=["game.move"])
    # A process that dies after the append: what its scheduler and listeners would write is lost
    # (they write to its in-memory Redis: tests/fakes.py).
    silent = fakes.service(RedisEventStore(redis_client, prefix))
    answer = silent.move(game["id"], 0, {"type": "bid", "chips": 1}, game["version"])
    wait_for(lambda: receiver.received["/repair"])
    (webhook_id, payload), = receiver.received["/repair"]
    assert webhook_id == f"{game['id']}.{answer['version']}.move"
    assert payload["data"]["event"]["data"] == {"type": "bid", "v": 2, "seat": 0, "chips": None}


@pytest.fixture
def quiet(redis_url):
    """An app whose webhook queue no worker serves: the test runs deliveries itself."""
    from app import create_app

    prefix = f"whq{uuid.uuid4().hex[:6]}:"
    app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                      "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "DEFER_AFTER_APPEND": False})
    from tests.api.spec import SpecCheckingClient

    app.test_client_class = SpecCheckingClient
    return app, prefix


def test_a_receiver_failing_for_the_disable_period_is_disabled_and_marked(quiet, receiver, redis_client):

    app, prefix = quiet
    client = app.test_client()
    game = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=2)
    secret = new_secret()
    sub = subscribe(client, game["table_token"], receiver.route("/down", secret, "fail:1000"), secret)
    deliveries = fakes.deliveries(redis_client, prefix, webhook_timeout_s=2, webhook_retry_base_s=0.05,
                                  webhook_retry_max_s=0.1, webhook_disable_after_s=0.6, webhook_allow_loopback=True)
    outcomes = []
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and "disabled" not in outcomes:
        outcomes.append(deliveries.deliver(sub["id"], game["id"]))
        time.sleep(0.05)
    assert outcomes[-1] == "disabled" and "waiting" in outcomes
    shown = client.get("/webhooks", headers=auth(game["table_token"])).get_json()["webhooks"][0]
    assert shown["status"] == "disabled" and "failing since" in shown["disabled_reason"]
    assert deliveries.subs.covering(game["id"]) == []  # no more deliveries are due
    assert deliveries.deliver(sub["id"], game["id"]) == "inactive"
    # Asking for the pending delivery again enables the subscription; the receiver is back.
    receiver.behaviour["/down"] = "ok"
    first = f"{game['id']}.{game['version']}.started"
    r = client.post(f"/webhooks/{sub['id']}/deliveries/{first}/retry", headers=auth(game["table_token"]))
    assert r.status_code == 202
    assert client.get("/webhooks", headers=auth(game["table_token"])).get_json()["webhooks"][0]["status"] == "active"
    assert deliveries.deliver(sub["id"], game["id"]) == "caught_up"
    assert [p["type"] for _, p in receiver.received["/down"]] == ["game.started", "game.your_turn"]
    r = client.post(f"/webhooks/{sub['id']}/deliveries/nope.1.move/retry", headers=auth(game["table_token"]))
    assert r.status_code == 404 and r.get_json()["code"] == "unknown_delivery"


def test_one_fan_out_waits_per_game_however_many_appends(quiet, receiver, redis_client, monkeypatch):
    """The after-append step queues a game's fan-out under the game's job id: while one waits,
    more appends queue nothing more; each (subscription, game) has one delivery job at most."""
    from rq import Queue

    from workers.deliveries import fan_out as fan_out_module

    app, prefix = quiet
    client = app.test_client()
    game = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=4)
    subscribe(client, game["table_token"], receiver.route("/fan", new_secret()), events=["game.move"])
    deliveries = fakes.deliveries(redis_client, prefix)
    assert deliveries.fan_out(game["id"]) is True
    for _ in range(3):
        assert deliveries.fan_out(game["id"]) is False  # one waits already: it will read the newest stream
    queue = Queue(f"{prefix}webhooks", connection=redis_client)
    assert [j for j in queue.job_ids if "whf-" in j] == [f"{prefix.replace(':', '_')}whf-{game['id']}"]
    # The fan-out delivers itself within its budget: no delivery job is queued.
    assert deliveries.fan_out_now(game["id"]) == 1 and [j for j in queue.job_ids if "whd-" in j] == []
    # Past its budget, the rest get delivery jobs of their own, one per (subscription, game).
    monkeypatch.setattr(fan_out_module, "FAN_OUT_INLINE_S", 0)
    assert deliveries.fan_out_now(game["id"]) == 1 and deliveries.fan_out_now(game["id"]) == 0
    assert len([j for j in queue.job_ids if "whd-" in j]) == 1


def test_redirects_are_not_followed(quiet, receiver, redis_client):

    app, prefix = quiet
    client = app.test_client()
    game = create(client, seats=[{"name": "Ann"}, {"name": "Bob"}], seed=2)
    secret = new_secret()
    sub = subscribe(client, game["table_token"], receiver.route("/moved", secret, "redirect"), secret)
    receiver.route("/elsewhere", secret)
    deliveries = fakes.deliveries(redis_client, prefix, webhook_allow_loopback=True)
    assert deliveries.deliver(sub["id"], game["id"]) == "waiting"
    tried = client.get(f"/webhooks/{sub['id']}/deliveries", headers=auth(game["table_token"])).get_json()["deliveries"]
    assert tried[0]["status"] == "failed" and tried[0]["response_code"] == 302
    assert receiver.attempts["/elsewhere"] == []


# ---- a player's subscriptions ------------------------------------------------------------------

def _player(client, name):
    r = client.post("/players", json={"name": name})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def _play_people(client, gid, keys: dict, rng, timeout=40):
    """Plays the seats of `keys` (seat -> player key) with random legal moves until the game is
    over; the bot's and the system's moves are the workers'."""
    deadline = time.monotonic() + timeout
    any_key = next(iter(keys.values()))
    while time.monotonic() < deadline:
        state = client.get(f"/games/{gid}", headers=auth(any_key)).get_json()
        if state["status"] not in ("active", "waiting"):
            return state
        mine = [a for a in state["to_act"] if isinstance(a, int) and a in keys]
        for seat in mine:
            moves = client.get(f"/games/{gid}/moves", headers=auth(keys[seat])).get_json()
            if moves.get("moves"):
                client.post(f"/games/{gid}/moves", headers={**auth(keys[seat]), "Idempotency-Key": uuid.uuid4().hex},
                            json={"expected_version": moves["version"], "move": rng.choice(moves["moves"])})
        if not mine:
            time.sleep(0.02)
    raise AssertionError("the game did not end in time")


def _hidden_from(definition, stored, seat) -> dict:
    """version -> the secrets (as JSON strings) the seat may not know right after that event
    (the game's leak oracle, as tests/robustness/test_leaks.py uses it)."""
    import json

    from api.platform.events import PLATFORM_EVENTS

    hidden, state = {}, None
    for event in stored:
        if event.type not in PLATFORM_EVENTS:
            state = definition.evolve(state, event.data)
        hidden[event.version] = set() if state is None else {
            json.dumps(token) for token, allowed in definition.secrets(state).items() if seat not in allowed}
    return hidden


def test_a_players_mine_subscription_hears_its_games_as_its_seat(wh_client, wh_app, receiver, redis_client, prefix):
    import json
    import random

    from domain import registry
    from tests.api.spec import validate_named

    schemas = {"game.started": "WebhookGameStarted", "game.move": "WebhookGameMove",
               "game.your_turn": "WebhookYourTurn", "game.finished": "WebhookGameFinished"}
    ann, bob = _player(wh_client, "Ann"), _player(wh_client, "Bob")
    # A game Ann sits in already: covered from its start.
    before = wh_client.post("/games", json={"type": "high-card", "seats": [{"me": True}, {"name": "Zed"}]},
                            headers=auth(ann["key"])).get_json()
    routes = {}
    for who, path in ((ann, "/ann"), (bob, "/bob")):
        receiver.route(path, "")
        r = wh_client.post("/webhooks", json={"url": receiver.url + path, "events": EVERYTHING, "games": "mine"},
                           headers=auth(who["key"]))
        assert r.status_code == 201, r.get_json()
        routes[path] = r.get_json()
        receiver.secrets[path] = routes[path]["secret"]  # the server's own secret, shown once
        assert routes[path]["games"] == "mine" and routes[path]["owner"] == f"player:{who['id']}"
    # Witches, created by Bob (seated: the creation covers his subscription), joined later by Ann
    # (the claim covers hers); a bot in the third seat.
    created = wh_client.post("/games", json={"type": "witches", "options": {"rounds": 1},
                                             "seats": [{"me": True}, {"open": True}, {"bot": "random"}]},
                             headers=auth(bob["key"])).get_json()
    gid = created["id"]
    assert wh_client.post(f"/games/{gid}/seats/1/claim", headers=auth(ann["key"])).status_code in (200, 201)
    final = _play_people(wh_client, gid, {0: bob["key"], 1: ann["key"]}, random.Random(5))

    def done(path):
        return any(p["type"] == "game.finished" and p["data"]["game_id"] == gid for _, p in receiver.received[path])

    def told_before_started():
        return any(p["data"]["game_id"] == before["id"] for _, p in receiver.received["/ann"])

    # Ann's earlier game has had no append since she subscribed: its `game.started` comes with the
    # reconciler's webhook sweep, which a quick Witches game can finish ahead of.
    wait_for(lambda: done("/ann") and done("/bob") and told_before_started(), timeout=30)
    assert receiver.bad_signatures == []
    definition = registry.get("witches")
    stored = wh_app.extensions["games"].store.read(gid)
    for path, seat in (("/ann", 1), ("/bob", 0)):
        got = receiver.received[path]
        ids = [i for i, _ in got]
        assert len(ids) == len(set(ids)), "a delivery id arrived twice"
        for _, payload in got:
            validate_named(schemas[payload["type"]], payload)  # the spec's `webhooks` describe them
        game = [(i, p) for i, p in got if p["data"]["game_id"] == gid]
        kinds = [p["type"] for _, p in game]
        assert kinds[0] == "game.started" and kinds[-1] == "game.finished" and kinds.count("game.finished") == 1
        versions = [p["data"]["version"] for _, p in game]
        assert versions == sorted(versions), "out of order"
        setup = game[0][1]["data"]["version"]
        moved = [p["data"]["event"]["version"] for _, p in game if p["type"] == "game.move"]
        assert moved == list(range(setup + 1, final["version"] + 1)), "an event is missing or repeated"
        assert game[-1][1]["data"]["result"] == final["result"]
        turns = [p["data"]["seats"] for _, p in game if p["type"] == "game.your_turn"]
        assert turns and all(s == [seat] for s in turns), "only the player's own turns"
        # Never another seat's secret (Witches: the other hands) while the game is on.
        hidden = _hidden_from(definition, stored, seat)
        for _, payload in game:
            version = payload["data"]["version"]
            if version < final["version"]:
                text = json.dumps(payload)
                leaked = [needle for needle in hidden[version] if needle in text]
                assert not leaked, f"{path} got another seat's secret at version {version}: {leaked[:3]}"
    # The check is not empty: Ann's own deliveries hold secrets of hers that Bob may not know.
    hidden_from_bob = _hidden_from(definition, stored, 0)
    assert any(needle in json.dumps(p) for _, p in receiver.received["/ann"] if p["data"]["game_id"] == gid
               and p["data"]["version"] < final["version"] for needle in hidden_from_bob[p["data"]["version"]])
    # Ann's earlier game: told of its start (nobody has moved in it), Bob hears nothing of it.
    assert [p["type"] for _, p in receiver.received["/ann"] if p["data"]["game_id"] == before["id"]][:1] == [
        "game.started"]
    assert all(p["data"]["game_id"] == gid for _, p in receiver.received["/bob"])
    # Once told all of it, the finished game is retired: its webhook keys expire, it leaves the
    # "mine" subscriptions (Redis does not keep every game ever subscribed to).

    deliveries = fakes.deliveries(redis_client, prefix)
    progress_key = f"{prefix}game:{{{gid}}}:webhook:{routes['/ann']['id']}"
    wait_for(lambda: (deliveries.sweep(), redis_client.ttl(progress_key) > 0)[1], interval=0.1)
    assert redis_client.ttl(progress_key) <= 7 * 86400 and not deliveries.subs.subscribed(gid)
    assert gid not in deliveries.subs.games_of(deliveries.subs.get(routes["/ann"]["id"]))
    assert before["id"] in deliveries.subs.games_of(deliveries.subs.get(routes["/ann"]["id"]))


def test_a_players_webhooks_are_its_own(wh_client, receiver):
    ann, bob = _player(wh_client, "Ann"), _player(wh_client, "Bob")
    game = wh_client.post("/games", json={"type": "high-card", "seats": [{"me": True}, {"name": "Zed"}]},
                          headers=auth(ann["key"])).get_json()
    url = receiver.route("/own", new_secret())
    body = {"url": url, "events": ["game.move"]}
    mine = wh_client.post("/webhooks", json={**body, "games": "mine"}, headers=auth(ann["key"]))
    assert mine.status_code == 201
    named = wh_client.post("/webhooks", json={**body, "games": [game["id"]]}, headers=auth(ann["key"]))
    assert named.status_code == 201 and named.get_json()["games"] == [game["id"]]
    sub = mine.get_json()["id"]
    # Nobody else sees, deletes or retries it: another player's id answers as an unknown one.
    assert wh_client.get("/webhooks", headers=auth(bob["key"])).get_json()["webhooks"] == []
    assert wh_client.get("/webhooks", headers=auth(game["table_token"])).get_json()["webhooks"] == []
    delivery = f"{game['id']}.{game['version']}.move"
    for method, path in (("delete", f"/webhooks/{sub}"), ("get", f"/webhooks/{sub}/deliveries"),
                         ("post", f"/webhooks/{sub}/deliveries/{delivery}/retry")):
        for key in (bob["key"], game["table_token"]):
            r = getattr(wh_client, method)(path, headers=auth(key))
            assert r.status_code == 404 and r.get_json()["code"] == "unknown_webhook", (method, path)
    listed = wh_client.get("/webhooks", headers=auth(ann["key"])).get_json()["webhooks"]
    assert sorted(w["id"] for w in listed) == sorted([sub, named.get_json()["id"]])
    # What a player may ask for: games it sits in, its own view.
    r = wh_client.post("/webhooks", json={**body, "games": [game["id"]]}, headers=auth(bob["key"]))
    assert r.status_code == 403 and r.get_json()["code"] == "game_not_yours"
    r = wh_client.post("/webhooks", json={**body, "games": ["nosuchgame"]}, headers=auth(bob["key"]))
    assert r.status_code == 403 and r.get_json()["code"] == "game_not_yours"
    r = wh_client.post("/webhooks", json={**body, "games": "mine", "seat": 1}, headers=auth(ann["key"]))
    assert r.status_code == 400
    r = wh_client.post("/webhooks", json={**body, "games": "mine"}, headers=auth("pk.unknown"))
    assert r.status_code == 401 and r.get_json()["code"] == "invalid_player_key"
    # A bounded number per player (WEBHOOK_MAX_PER_OWNER, 10), whoever else has some.
    assert wh_client.post("/webhooks", json={**body, "games": "mine"}, headers=auth(bob["key"])).status_code == 201
    for _ in range(8):
        assert wh_client.post("/webhooks", json={**body, "games": "mine"}, headers=auth(ann["key"])).status_code == 201
    r = wh_client.post("/webhooks", json={**body, "games": "mine"}, headers=auth(ann["key"]))
    assert r.status_code == 422 and r.get_json()["code"] == "too_many_webhooks"
    # The owner deletes it.
    assert wh_client.delete(f"/webhooks/{sub}", headers=auth(ann["key"])).status_code == 204
    assert wh_client.get(f"/webhooks/{sub}/deliveries", headers=auth(ann["key"])).status_code == 404


def test_a_game_waiting_for_people_is_told_from_its_setup_on(quiet, receiver, redis_client):

    app, prefix = quiet
    client = app.test_client()
    game = create(client, seats=[{"name": "Ann"}, {"open": True}])
    secret = new_secret()
    sub = subscribe(client, game["table_token"], receiver.route("/wait", secret), secret,
                    events=["game.started", "game.move"])
    deliveries = fakes.deliveries(redis_client, prefix, webhook_allow_loopback=True)
    assert deliveries.deliver(sub["id"], game["id"]) == "caught_up" and receiver.received["/wait"] == []
    assert client.post(f"/games/{game['id']}/seats/1/claim", json={"name": "Bob"}).status_code in (200, 201)
    assert deliveries.deliver(sub["id"], game["id"]) == "caught_up"
    assert [p["type"] for _, p in receiver.received["/wait"]] == ["game.started"]


def test_a_claim_whose_after_step_was_lost_is_covered_by_the_games_next_append(wh_client, wh_app, receiver,
                                                                              redis_client, prefix):
    """Ann's claim is appended by a process that dies before its after-answer steps (a service
    with no listeners): her "mine" subscription does not know the game. The game's next append,
    in a process that checked it with Bob alone seated, covers her from the setup on."""
    import random

    from api.players.accounts import Player
    from api.seating.claims import Claimer
    from events.redis_store import RedisEventStore

    ann, bob = _player(wh_client, "Ann"), _player(wh_client, "Bob")
    receiver.route("/lost", "")
    r = wh_client.post("/webhooks", json={"url": receiver.url + "/lost", "events": EVERYTHING, "games": "mine"},
                       headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    sub = r.get_json()
    receiver.secrets["/lost"] = sub["secret"]
    created = wh_client.post("/games", json={"type": "high-card", "seats": [{"me": True}, {"open": True}]},
                             headers=auth(bob["key"])).get_json()
    gid = created["id"]
    silent = fakes.services(RedisEventStore(redis_client, prefix))  # the dying process: its after-steps lost
    silent.lobby.claim(gid, 1, Claimer("Ann", Player(ann["id"], "Ann")))
    subs = fakes.deliveries(redis_client, prefix).subs
    assert gid not in subs.games_of(subs.get(sub["id"]))  # lost: the game is unknown to her subscription
    wh_app.extensions["games"].forget(gid)  # this process reads the game anew, as after another's append
    final = _play_people(wh_client, gid, {0: bob["key"], 1: ann["key"]}, random.Random(3))

    def told(kind):
        return [p for _, p in receiver.received["/lost"] if p["type"] == kind and p["data"]["game_id"] == gid]

    wait_for(lambda: told("game.finished"), timeout=30)
    assert receiver.bad_signatures == []
    assert len(told("game.started")) == 1  # from the setup on
    moved = [p["data"]["event"]["version"] for p in told("game.move")]
    assert moved == sorted(set(moved)) and moved[-1] == final["version"]


def test_a_rated_game_ends_with_its_ratings_and_a_casual_one_without(wh_client, receiver, redis_client, prefix):
    """`game.finished` says whether the game is rated; a rated game's last message, `game.rated`,
    carries each seat's rating before and after once the reconciler has counted it (the same as
    `GET /games/{id}/ratings`), under the id `<game>.<last version>.rated`, and can be sent again
    on request; a casual game ends with `game.finished` alone and is retired."""
    import random

    from api.webhooks.messages import KINDS
    from tests.api.spec import validate_named

    ann, bob = _player(wh_client, "Ann"), _player(wh_client, "Bob")
    receiver.route("/rated", "")
    r = wh_client.post("/webhooks", json={"url": receiver.url + "/rated", "events": list(KINDS), "games": "mine"},
                       headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    sub = r.get_json()
    receiver.secrets["/rated"] = sub["secret"]
    games = {}
    for rated in (True, False):
        created = wh_client.post("/games", json={"type": "high-card", "rated": rated,
                                                 "seats": [{"me": True}, {"open": True}]},
                                 headers=auth(ann["key"])).get_json()
        gid = created["id"]
        assert wh_client.post(f"/games/{gid}/seats/1/claim", headers=auth(bob["key"])).status_code in (200, 201)
        games[rated] = (gid, _play_people(wh_client, gid, {0: ann["key"], 1: bob["key"]}, random.Random(3)))

    def of(gid):
        return [(i, p) for i, p in receiver.received["/rated"] if p["data"]["game_id"] == gid]

    gid, final = games[True]
    wait_for(lambda: any(p["type"] == "game.rated" for _, p in of(gid)), timeout=30)
    got = of(gid)
    kinds = [p["type"] for _, p in got]
    assert kinds[-2:] == ["game.finished", "game.rated"] and kinds.count("game.rated") == 1
    finished, (rated_id, rated) = got[-2][1], got[-1]
    assert finished["data"]["rated"] is True and finished["data"]["unrated_reason"] is None
    validate_named("WebhookGameRated", rated)
    validate_named("WebhookGameFinished", finished)
    assert rated_id == f"{gid}.{final['version']}.rated" and rated["data"]["version"] == final["version"]
    counted = wh_client.get(f"/games/{gid}/ratings").get_json()["seats"]
    assert rated["data"]["ratings"] == counted and [c["seat"] for c in counted] == [0, 1]
    assert {c["identity"] for c in counted} == {f"player:{ann['id']}", f"player:{bob['id']}"}
    # Sent again on request, after the sweep has retired the finished game (it leaves the "mine"
    # subscription's games; its progress is kept a while, for such a request): the same message
    # under the same id.
    deliveries = fakes.deliveries(redis_client, prefix)
    wait_for(lambda: (deliveries.sweep(), not deliveries.subs.subscribed(gid))[1], interval=0.1)
    r = wh_client.post(f"/webhooks/{sub['id']}/deliveries/{rated_id}/retry", headers=auth(ann["key"]))
    assert r.status_code == 202, r.get_json()
    wait_for(lambda: [i for i, _ in of(gid)].count(rated_id) == 2)
    assert of(gid)[-1][1] == rated

    casual, _ = games[False]
    wait_for(lambda: any(p["type"] == "game.finished" for _, p in of(casual)), timeout=30)
    wait_for(lambda: (deliveries.sweep(), not deliveries.subs.subscribed(casual))[1], interval=0.1)
    assert [p["type"] for _, p in of(casual)][-1] == "game.finished"
    assert of(casual)[-1][1]["data"]["rated"] is False and of(casual)[-1][1]["data"]["unrated_reason"] == "casual"
    assert wh_client.get(f"/games/{casual}/ratings").get_json()["seats"] is None
    assert receiver.bad_signatures == []


def test_deliveries_tell_each_event_in_the_subscriptions_language(wh_client, receiver):
    game = create(wh_client, "splendor", seats=[{"name": "Ann"}, {"name": "Bo"}])
    table, secret = game["table_token"], new_secret()
    ko = subscribe(wh_client, table, receiver.route("/ko", secret), secret, lang="ko")
    said_by_header = wh_client.post("/webhooks", headers={**auth(table), "Accept-Language": "ko-KR"},
                                    json={"url": receiver.route("/header", secret), "events": ["game.move"],
                                          "secret": secret})
    en = subscribe(wh_client, table, receiver.route("/en", secret), secret)
    assert (ko["lang"], said_by_header.get_json()["lang"], en["lang"]) == ("ko", "ko", "en")
    for _ in range(3):
        state = wh_client.get(f"/games/{game['id']}", headers=auth(table)).get_json()
        seat = state["to_act"][0]
        moves = wh_client.get(f"/games/{game['id']}/moves?seat={seat}", headers=auth(table)).get_json()
        r = wh_client.post(f"/games/{game['id']}/moves?seat={seat}", headers={**auth(table), "Idempotency-Key": uuid.uuid4().hex},
                           json={"expected_version": moves["version"], "move": moves["moves"][0]})
        assert r.status_code == 201
    wait_for(lambda: all(len(payloads(receiver.received[p], "game.move")) >= 3 for p in ("/ko", "/header", "/en")))
    history = {lang: {e["version"]: e for e in wh_client.get(f"/games/{game['id']}/events?limit=100&lang={lang}",
                                                            headers=auth(table)).get_json()["events"]}
               for lang in ("ko", "en")}
    for path, lang in (("/ko", "ko"), ("/header", "ko"), ("/en", "en")):
        for p in payloads(receiver.received[path], "game.move"):
            event = p["data"]["event"]
            assert event["text"] == history[lang][event["version"]]["text"], path
            assert ("Ann" in event["text"] or "Bo" in event["text"]) and (lang == "en") != bool(
                re.search("[\uac00-\ud7a3]", event["text"])), event["text"]
