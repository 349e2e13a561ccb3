"""Web Push (issue 36) end to end: the web process registers subscriptions, real webhook workers
(their dispatcher, sender threads) push to a push service of the tests' own on 127.0.0.1
(tests/api/push_service.py), which checks each request's VAPID JWT against the server's
published key and decrypts each payload with the subscription's private key (aes128gcm).

- a `your_turn` arrives for each turn of a game, once, in each player's language (ko, en), with
  the game's `Topic`, a `TTL` and `Urgency: high`; `game_started` once;
- a subscription answered 410 (or 404) is removed, and is sent nothing more;
- a push service that hangs delays no other subscription (the same players' other devices);
- bad subscriptions are refused with their codes and change nothing; nobody sees or deletes
  another player's."""
from __future__ import annotations

import base64
import json
import time
import uuid

import pytest
from py_vapid import Vapid

from api.push import vapid as vapid_keys
from api.webhooks.addresses import Policy
from tests.api.helpers import auth, read, step_up
from tests.api.push_service import PushService
from tests.api.spec import spec, validate_named
from tests.conftest import running_workers, wait_for
from tests.lobby.helpers import claim, open_game, player

# The tier (tests/tiers.py): `push_app` starts webhook workers and the reconciler.
pytestmark = pytest.mark.process

DEADLINE_S = 30  # a push attempt's whole time here: a hang lasts this long
RETRY_BASE_S = 0.25  # a failed push's first wait here (doubled at each failure in a row)
MAX_ATTEMPTS = 4  # failures in a row before a subscription is removed, here
BOUND_S = 5.0  # a healthy device's delay at most, far below a hang (generous for 2 loaded cores)
# The reconciler's passes here (2 s by default), and so its push sweep (a failed push's retry is
# queued when due) and the clock warnings' scans (2 s by default: one each pass, no oftener).
PASS_S = 0.25
WARN_SCAN_S = PASS_S


@pytest.fixture(scope="module")
def key_file(tmp_path_factory):
    return str(tmp_path_factory.mktemp("vapid") / "vapid_private.pem")


@pytest.fixture(scope="module")
def push_app(redis_url, key_file):
    from app import create_app

    prefix = f"wp{uuid.uuid4().hex[:6]}:"
    env = {"WEBHOOK_QUEUE": f"{prefix}webhooks", "PUSH_ALLOW_LOOPBACK": "1", "VAPID_KEY_FILE": key_file,
           "PUSH_DEADLINE_S": str(DEADLINE_S), "PUSH_MAX_PER_PLAYER": "3", "CLOCK_WARNING_MIN_S": "0",
           "CLOCK_WARNING_SCAN_S": str(WARN_SCAN_S),
           "RECONCILE_INTERVAL": str(PASS_S), "PUSH_RETRY_BASE_S": str(RETRY_BASE_S), "PUSH_MAX_ATTEMPTS": str(MAX_ATTEMPTS)}
    with running_workers(redis_url, prefix, ("webhooks", "reconciler"), env):
        yield create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                          "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                          "DEFER_AFTER_APPEND": False, "PUSH_ALLOW_LOOPBACK": True, "VAPID_KEY_FILE": key_file,
                          "PUSH_MAX_PER_PLAYER": 3, "PUSH_RETRY_BASE_S": RETRY_BASE_S,
                          "PUSH_MAX_ATTEMPTS": MAX_ATTEMPTS})


@pytest.fixture
def client(push_app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(push_app, push_app.response_class, use_cookies=True)


@pytest.fixture
def service(client):
    svc = PushService()
    svc.server_key = client.get("/push/vapid-public-key").get_json()["public_key"]
    yield svc
    svc.close()
    assert not svc.problems, svc.problems
    # Every payload is a PushMessage and nothing more: the notice's words, never a game's state.
    fields = set(spec()["components"]["schemas"]["PushMessage"]["required"])
    for device in svc.devices.values():
        for _, payload, _ in device.received:
            validate_named("PushMessage", payload)
            assert set(payload) == fields, sorted(set(payload) - fields)


def subscribe(client, key, device, **headers):
    r = client.post("/players/me/push-subscriptions", json=device.subscription(), headers={**auth(key), **headers})
    assert r.status_code == 201, r.get_json()
    return r.get_json()


def play(client, gid, keys: dict, moves: int, devices: dict | None = None) -> list[tuple[int, int]]:
    """`moves` moves by whoever is to act (first legal move); the (seat, version) of each turn
    begun: the game's to-act seat after each append. Given `devices` (seat -> device), each
    turn's `your_turn` is waited for on its seat's device before the next move (a turn moved
    past before it was pushed is not pushed at all: stale)."""
    turns = []
    for _ in range(moves):
        game = read(client, gid)
        if game["status"] != "active":
            break
        seat = game["to_act"][0]
        listed = client.get(f"/games/{gid}/moves", headers=auth(keys[seat])).get_json()
        r = client.post(f"/games/{gid}/moves", json={"expected_version": listed["version"], "move": listed["moves"][0]},
                        headers={**auth(keys[seat]), "Idempotency-Key": uuid.uuid4().hex})
        assert r.status_code == 201, r.get_json()
        after = read(client, gid)
        turns += [(s, after["version"]) for s in after["to_act"]]
        for s in after["to_act"] if devices else ():
            if s in devices:
                wait_for(lambda d=devices[s], v=after["version"]: [p for p in d.payloads("your_turn", gid)
                                                                   if p["version"] == v], timeout=15)
    return turns


def started_game(client, ann, bob, **extra):
    gid = open_game(client, ann["key"], **extra)["id"]
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    first = read(client, gid)
    return gid, [(s, first["version"]) for s in first["to_act"]]


def test_a_your_turn_arrives_for_each_turn_once_in_each_players_language(client, service):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    ann_phone, bob_laptop = service.device(), service.device()
    made = subscribe(client, ann["key"], ann_phone, **{"Accept-Language": "ko-KR,ko;q=0.9"})
    assert made["lang"] == "ko" and made["endpoint"] == ann_phone.endpoint
    again = client.post("/players/me/push-subscriptions", json=ann_phone.subscription(), headers=auth(ann["key"]))
    assert again.status_code == 200 and again.get_json()["id"] == made["id"], "the same endpoint: updated"
    assert again.get_json()["lang"] == "en", "posted again without a language: the request's"
    client.post("/players/me/push-subscriptions", json={**ann_phone.subscription(), "lang": "ko"},
                headers=auth(ann["key"]))
    subscribe(client, bob["key"], bob_laptop, **{"Accept-Language": "en"})
    assert [s["id"] for s in client.get("/players/me/push-subscriptions",
                                        headers=auth(ann["key"])).get_json()["subscriptions"]] == [made["id"]]

    gid, turns = started_game(client, ann, bob)
    wait_for(lambda: ann_phone.payloads("your_turn", gid))
    turns += play(client, gid, {0: ann["key"], 1: bob["key"]}, 12, {0: ann_phone, 1: bob_laptop})
    expected = {0: [v for s, v in turns if s == 0], 1: [v for s, v in turns if s == 1]}
    assert len(expected[0]) >= 6 and len(expected[1]) >= 6

    def versions(device):
        return [p["version"] for p in device.payloads("your_turn", gid)]

    wait_for(lambda: versions(ann_phone) == expected[0] and versions(bob_laptop) == expected[1], timeout=30)
    time.sleep(1.0)  # and nothing more comes: each turn once
    assert versions(ann_phone) == expected[0] and versions(bob_laptop) == expected[1]
    assert [p["type"] for p in ann_phone.payloads(game_id=gid)].count("game_started") == 1

    ko = ann_phone.payloads("your_turn", gid)[0]
    en = bob_laptop.payloads("your_turn", gid)[0]
    assert (ko["title"], ko["body"], ko["lang"]) == ("스플렌더", "스플렌더: 내 차례입니다.", "ko")
    assert (en["title"], en["body"], en["lang"]) == ("Splendor", "Splendor: it is your turn.", "en")
    assert ko["url"] == f"/play/{gid}" and ko["game_type"] == "splendor"
    headers = [h for _, p, h in ann_phone.received if p["game_id"] == gid]
    assert len({h["Topic"] for h in headers}) == 1 and len(headers[0]["Topic"]) <= 32
    assert all(h["TTL"] == "86400" for h in headers)
    urgency = {p["type"]: h["Urgency"] for _, p, h in ann_phone.received if p["game_id"] == gid}
    assert urgency == {"game_started": "normal", "your_turn": "high"}


def test_matched_and_game_finished_are_pushed_once_each(client, service):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    phones = {ann["id"]: service.device(), bob["id"]: service.device()}
    subscribe(client, ann["key"], phones[ann["id"]], **{"Accept-Language": "ko"})
    subscribe(client, bob["key"], phones[bob["id"]])
    assert client.post("/matchmaking", json={"type": "splendor", "seats": 2}, headers=auth(ann["key"])).status_code == 201
    paired = client.post("/matchmaking", json={"type": "splendor", "seats": 2}, headers=auth(bob["key"])).get_json()
    gid = paired["game_id"]
    wait_for(lambda: all(p.payloads("matched", gid) for p in phones.values()))
    matched = phones[ann["id"]].payloads("matched", gid)
    assert [m["body"] for m in matched] == ["스플렌더: 함께할 상대를 찾았습니다."]
    assert client.post(f"/games/{gid}/resign", headers=auth(bob["key"])).status_code in (200, 201)
    wait_for(lambda: all(p.payloads("game_finished", gid) for p in phones.values()))
    time.sleep(1.0)
    for phone in phones.values():
        kinds = [p["type"] for p in phone.payloads(game_id=gid)]
        assert kinds.count("matched") == kinds.count("game_finished") == 1, kinds
        assert kinds.index("matched") < kinds.index("game_finished") == len(kinds) - 1
    en = phones[bob["id"]].payloads("game_finished", gid)[0]
    assert en["body"] == "Splendor: the game is over." and en["url"] == f"/play/{gid}"
    finished = [h for _, p, h in phones[bob["id"]].received if p["type"] == "game_finished"][0]
    assert finished["Urgency"] == "normal"


def test_a_clock_warns_before_its_deadline_once_in_the_players_language(client, service):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    phone = service.device()
    subscribe(client, ann["key"], phone, **{"Accept-Language": "ko"})
    move_ms = 6000  # warned 1.5 s before its deadline: six of the reconciler's scans (issue 48: was 8 s)
    gid, turns = started_game(client, ann, bob, clock={"per_move_s": move_ms / 1000})
    assert turns[0][0] == 0
    began = time.time() * 1000
    # waited for as long as a failure takes to show: the bound is the assertion's, which says by how much
    warned = wait_for(lambda: phone.payloads("clock_warning", gid))
    assert len(warned) == 1 and warned[0]["body"] == "스플렌더: 이번 수의 남은 시간이 얼마 없습니다."
    # A quarter of the move's time before its deadline, within a reconciler's scan (the decision
    # began before `began`, by the claim's answer: 500 ms allowed for it).
    assert began + move_ms * 3 / 4 - 500 <= warned[0]["at"] < began + move_ms, \
        f"warned {warned[0]['at'] - began:.0f} ms after the start"
    urgency = [h["Urgency"] for _, p, h in phone.received if p["type"] == "clock_warning"]
    assert urgency == ["high"]
    # past the deadline, and two scans more: nothing more about that decision
    time.sleep(max(0.0, (began + move_ms) / 1000 + 2 * WARN_SCAN_S - time.time()))
    assert len(phone.payloads("clock_warning", gid)) == 1


def test_a_decision_is_warned_once_though_another_seats_move_makes_a_new_version(client, service):
    """Witches' passing: every seat owes a decision at once; Bob's pass, after Ann was warned,
    makes a new version of the game, in which Ann's decision goes on: she is not warned again."""
    ann, bob, cy = player(client, "Ann"), player(client, "Bob"), player(client, "Cy")
    phone = service.device()
    subscribe(client, ann["key"], phone)
    gid = open_game(client, ann["key"], [{"me": True}, {"open": True}, {"open": True}], type_="witches",
                    options={"rounds": 1}, clock={"per_move_s": 10})["id"]
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    assert claim(client, gid, 2, cy["key"]).status_code == 201
    assert sorted(read(client, gid)["to_act"]) == [0, 1, 2]
    wait_for(lambda: phone.payloads("clock_warning", gid), timeout=25)
    before = read(client, gid)["version"]
    listed = client.get(f"/games/{gid}/moves", headers=auth(bob["key"])).get_json()
    r = client.post(f"/games/{gid}/moves", json={"expected_version": listed["version"], "move": listed["moves"][0]},
                    headers={**auth(bob["key"]), "Idempotency-Key": uuid.uuid4().hex})
    assert r.status_code == 201, r.get_json()
    after = read(client, gid)
    assert after["version"] > before and 0 in after["to_act"], "Ann's decision goes on in a new version"
    # Three scans of the new version's mark before Ann's deadline (warned 2.5 s before it, at a
    # quarter of 10 s: time for the push, Bob's move and the scans on a host four times slower).
    # Issue 48: 4.5 s of 2 s scans once, past the deadline of a 16 s decision; then 0.5 s scans
    # and a 12 s decision; now 0.25 s and 10 s.
    time.sleep(3 * WARN_SCAN_S)
    assert len(phone.payloads("clock_warning", gid)) == 1


def test_a_revoked_keys_subscriptions_end_with_it(client, service):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    phone, laptop = service.device(), service.device()
    second = client.post("/players/me/keys", json={"name": "laptop"}, headers=auth(ann["key"])).get_json()
    subscribe(client, ann["key"], phone)  # after the laptop's key: that account notice reaches the phone
    subscribe(client, second["key"], laptop)
    first_id = next(k["id"] for k in client.get("/players/me/keys", headers=auth(ann["key"])).get_json()["keys"]
                    if k["current"])
    step_up(client, second["key"], ann["recovery_code"])  # revoking another key (issue 51)
    assert client.delete(f"/players/me/keys/{first_id}", headers=auth(second["key"])).status_code == 204
    gid = open_game(client, second["key"])["id"]
    assert claim(client, gid, 1, bob["key"]).status_code == 201
    wait_for(lambda: laptop.payloads("your_turn", gid))
    time.sleep(0.5)
    assert phone.received == [] and phone.answered == [], "nothing reaches the revoked key's device"
    listed = client.get("/players/me/push-subscriptions", headers=auth(second["key"])).get_json()["subscriptions"]
    assert [s["endpoint"] for s in listed] == [laptop.endpoint]


@pytest.mark.parametrize("mode,status", [("gone", 410), ("missing", 404)])
def test_a_subscription_answered_gone_is_removed(client, service, mode, status):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    dead, alive = service.device(mode), service.device()
    subscribe(client, ann["key"], dead)
    subscribe(client, ann["key"], alive)
    gid, _ = started_game(client, ann, bob)
    wait_for(lambda: dead.answered == [status] and alive.payloads("your_turn", gid))
    listed = client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()["subscriptions"]
    assert [s["endpoint"] for s in listed] == [alive.endpoint]
    play(client, gid, {0: ann["key"], 1: bob["key"]}, 4, {0: alive})
    assert len(alive.payloads("your_turn", gid)) >= 3
    assert dead.answered == [status], "removed: sent nothing more"
    removed = client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()["removed"]
    assert [(r["endpoint"], r["reason"], r["status"]) for r in removed] == [(dead.endpoint, "gone", status)]


def test_a_failing_subscription_is_tried_less_and_less_often_then_removed_and_its_owner_sees_why(client, service):
    """Issue 49 (2): a push service answering 500 was tried every second for ever. Now each
    failure in a row waits twice as long (the reconciler's sweep queues the retry when due),
    and the MAX_ATTEMPTS-th removes the subscription, its player told why; the player's other
    device is not held back meanwhile."""
    ann, bob = player(client, "Ann"), player(client, "Bob")
    failing, alive = service.device("error"), service.device()
    subscribe(client, ann["key"], failing)
    subscribe(client, ann["key"], alive)
    gid, _ = started_game(client, ann, bob)
    wait_for(lambda: alive.payloads("your_turn", gid))
    wait_for(lambda: len(failing.answered) >= MAX_ATTEMPTS, timeout=30)
    # Longer than a next wait would be (the MAX_ATTEMPTS-th failure's back-off, and a reconciler's
    # sweep and as much again): nothing more. A fifth attempt, had the subscription been kept,
    # comes within it; a later one would still leave it listed below (issue 48: was 6.4 s, then
    # 4.2 s with a 0.4 s first back-off and 0.5 s passes).
    time.sleep(RETRY_BASE_S * 2 ** (MAX_ATTEMPTS - 1) + 4 * PASS_S)
    assert failing.answered == [500] * MAX_ATTEMPTS, "a bounded number of attempts"
    gaps = [b - a for a, b in zip(failing.answered_at, failing.answered_at[1:])]
    for i, gap in enumerate(gaps):  # each at least its back-off (the sweep's pass may add to it)
        assert gap >= RETRY_BASE_S * 2 ** i * 0.9, [round(g, 2) for g in gaps]
    listed = client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()
    assert [s["endpoint"] for s in listed["subscriptions"]] == [alive.endpoint]
    assert [(r["endpoint"], r["reason"], r["status"]) for r in listed["removed"]] == [(failing.endpoint, "failing", 500)]
    assert "500" in listed["removed"][0]["detail"]
    again = client.post("/players/me/push-subscriptions", json=failing.subscription(), headers=auth(ann["key"]))
    assert again.status_code == 201  # subscribed again (the browser's page does at each visit)
    listed = client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()
    assert listed["removed"] == [] and len(listed["subscriptions"]) == 2


def test_a_subscription_that_cannot_be_signed_for_backs_off_and_is_removed(client, service, push_app):
    """The issue's case: an IPv6 literal endpoint, accepted by an older server (now refused when
    subscribing), fails every send while signing (py_vapid cannot name it in `aud`). That error
    counts as a failure like any other: backed off, then the subscription removed, not retried
    every second for ever."""
    from api.push.subscriptions import PushSubscription, subscription_id

    ann, bob = player(client, "Ann"), player(client, "Bob")
    keys = service.device().subscription()["keys"]
    endpoint = "https://[::1]:9/push/old"
    refused = client.post("/players/me/push-subscriptions", json={"endpoint": endpoint, "keys": keys},
                          headers=auth(ann["key"]))
    assert (refused.status_code, refused.get_json()["code"]) == (422, "push_endpoint_refused")
    subs = push_app.extensions["services"].pushes.subs
    old = PushSubscription(subscription_id(endpoint), ann["id"], endpoint, keys["p256dh"], keys["auth"], "en",
                           int(time.time() * 1000))
    subs.redis.hset(subs.subs_key(ann["id"]), old.id, old.dumps())  # as the older server stored it
    subs.redis.hset(subs.cursors_key(ann["id"]), old.id, subs.players.inbox_last_id(ann["id"]))
    started_game(client, ann, bob)

    def removed():
        return client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()["removed"]

    found = wait_for(removed, timeout=RETRY_BASE_S * 2 ** MAX_ATTEMPTS + 10)
    assert [(r["endpoint"], r["reason"], r["status"]) for r in found] == [(endpoint, "failing", None)]
    assert "Vapid" in found[0]["detail"], found


def test_a_hanging_push_service_delays_no_other(client, service):
    stalled = PushService()
    stalled.server_key = service.server_key
    try:
        people = [player(client, f"P{i}") for i in range(4)]
        healthy = {}
        for person in people:  # each first on the hanging service (one destination), then a healthy one
            subscribe(client, person["key"], stalled.device("hang"))
            healthy[person["id"]] = service.device()
            subscribe(client, person["key"], healthy[person["id"]])
        games = [started_game(client, people[0], people[1]), started_game(client, people[2], people[3])]
        wait_for(lambda: stalled.hanging >= 1)
        sent = {}  # (device endpoint, game, version) -> when the turn began
        for (gid, _), (a, b) in zip(games, [(people[0], people[1]), (people[2], people[3])]):
            for _ in range(3):
                began = time.monotonic()
                for seat, version in play(client, gid, {0: a["key"], 1: b["key"]}, 1,
                                          {0: healthy[a["id"]], 1: healthy[b["id"]]}):
                    sent[(healthy[(a, b)[seat]["id"]].endpoint, gid, version)] = began
        devices = {d.endpoint: d for d in healthy.values()}

        def arrived():
            found = {}
            for endpoint, device in devices.items():
                for at, payload, _ in device.received:
                    if payload["type"] == "your_turn":
                        found[(endpoint, payload["game_id"], payload["version"])] = at
            return found

        wait_for(lambda: set(sent) <= set(arrived()))
        delays = sorted(arrived()[k] - t for k, t in sent.items())
        assert stalled.hanging >= 1, "the stalled service was hanging meanwhile"
        assert delays[-1] < BOUND_S, f"healthy pushes took {[round(d, 2) for d in delays]} s"
    finally:
        stalled.close()
    assert not stalled.problems, stalled.problems


def test_bad_subscriptions_are_refused_and_change_nothing(client, service):
    ann, bob = player(client, "Ann"), player(client, "Bob")
    good = service.device().subscription()
    off_the_curve = base64.urlsafe_b64encode(b"\x04" + b"\xff" * 64).rstrip(b"=").decode()  # 65 bytes, no point

    def post(body, key=ann["key"]):
        return client.post("/players/me/push-subscriptions", json=body, headers=auth(key))

    refused = [
        ({**good, "endpoint": "ftp://127.0.0.1/x"}, 422, "push_endpoint_refused"),
        ({**good, "endpoint": "http://push.example.com/x"}, 422, "push_endpoint_refused"),
        ({**good, "endpoint": "https://user:pw@push.example.com/x"}, 422, "push_endpoint_refused"),
        ({**good, "endpoint": "https://[::1]/x"}, 422, "push_endpoint_refused"),  # an IPv6 literal
        ({**good, "endpoint": "https://10.0.0.1/x"}, 422, "push_endpoint_refused"),  # a private address
        ({**good, "keys": {"p256dh": "AAAA", "auth": good["keys"]["auth"]}}, 400, "validation_error"),
        ({**good, "keys": {"p256dh": off_the_curve, "auth": good["keys"]["auth"]}}, 400, "validation_error"),
        ({**good, "keys": {"p256dh": good["keys"]["p256dh"], "auth": "c2hvcnQ"}}, 400, "validation_error"),
        ({"endpoint": good["endpoint"]}, 400, "validation_error"),
        ({**good, "lang": "fr"}, 400, "validation_error"),
    ]
    for body, status, code in refused:
        r = post(body)
        assert (r.status_code, r.get_json().get("code")) == (status, code), (body, r.get_json())
        assert r.get_json()["detail"]
    r = client.post("/players/me/push-subscriptions", json={**good, "endpoint": "http://push.example.com/x"},
                    headers={**auth(ann["key"]), "Accept-Language": "ko"})
    assert r.get_json()["detail"].startswith("푸시 엔드포인트는 https URL") and r.headers["Content-Language"] == "ko"
    assert client.post("/players/me/push-subscriptions", json=good).status_code == 401
    assert client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json() == {"subscriptions": [],
                                                                                                  "removed": []}

    made = [post(service.device().subscription()).get_json() for _ in range(3)]
    r = post(service.device().subscription())
    assert (r.status_code, r.get_json()["code"], r.get_json()["details"]) == (422, "too_many_push_subscriptions",
                                                                              {"limit": 3})
    # Another player's subscription is nobody else's to see or delete.
    assert client.get("/players/me/push-subscriptions", headers=auth(bob["key"])).get_json()["subscriptions"] == []
    r = client.delete(f"/players/me/push-subscriptions/{made[0]['id']}", headers=auth(bob["key"]))
    assert (r.status_code, r.get_json()["code"]) == (404, "unknown_push_subscription")
    assert client.delete(f"/players/me/push-subscriptions/{made[0]['id']}", headers=auth(ann["key"])).status_code == 204
    listed = client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()["subscriptions"]
    assert [s["id"] for s in listed] == [m["id"] for m in made[1:]]
    assert "keys" not in listed[0] and "auth" not in json.dumps(listed)


def test_the_push_service_refuses_what_a_real_one_would(client, service, key_file):
    """The checks can fail: a JWT signed by another key, and a payload not for this device."""
    from api.push.subscriptions import PushSubscription
    from workers.push.sending import PushSettings
    from workers.push.webpush import WebPush

    device, other = service.device(), service.device()
    sub = device.subscription()
    as_stored = PushSubscription("ps1", "p1", sub["endpoint"], sub["keys"]["p256dh"], sub["keys"]["auth"], "en", 0)
    entry = {"type": "your_turn", "game_id": "g1", "game_type": "splendor", "version": 3, "at": 0, "seat": 0}
    settings = PushSettings(policy=Policy(True))
    ours = WebPush.of(vapid_keys.load("", key_file), settings)
    assert ours.send(as_stored, entry).status == 201 and device.payloads("your_turn")
    stranger = Vapid()
    stranger.generate_keys()
    assert WebPush.of(stranger, settings).send(as_stored, entry).status == 400
    misdirected = PushSubscription("ps2", "p1", other.endpoint, sub["keys"]["p256dh"], sub["keys"]["auth"], "en", 0)
    assert ours.send(misdirected, entry).status == 400
    assert len(service.problems) == 2 and "signed with a key" in service.problems[0]
    service.problems.clear()


def test_the_web_client_serves_its_push_scripts(client):
    sw = client.get("/sw-push.js")
    assert sw.status_code == 200 and sw.mimetype == "text/javascript"
    assert b'addEventListener("push"' in sw.data and b"notificationclick" in sw.data
    page = client.get("/web/push.js")
    assert page.status_code == 200 and page.mimetype == "text/javascript"
    assert b"export async function enablePush(api" in page.data


def test_the_vapid_key_comes_from_the_setting_or_one_file_made_once(tmp_path):
    made = vapid_keys.load("", str(tmp_path / "k.pem"))
    assert vapid_keys.load("", str(tmp_path / "k.pem")).public_key.public_numbers() == made.public_key.public_numbers()
    pem = (tmp_path / "k.pem").read_text()
    assert (tmp_path / "k.pem").stat().st_mode & 0o777 == 0o600, "the private key is its owner's only"
    raw = made.private_key.private_numbers().private_value.to_bytes(32, "big")
    for given in (pem, base64.urlsafe_b64encode(raw).rstrip(b"=").decode()):
        assert vapid_keys.public_key(vapid_keys.load(given, str(tmp_path / "unused.pem"))) == vapid_keys.public_key(made)
    assert not (tmp_path / "unused.pem").exists()
    assert len(base64.urlsafe_b64decode(vapid_keys.public_key(made) + "=")) == 65


def test_the_owner_is_pushed_an_account_change_refused_and_one_made(client, service):
    """Issue 51: a second device's key trying to revoke the owner's key is refused at the
    step-up, and the owner's phone hears of it at once (high urgency), in its language."""
    ann = player(client, "Ann")
    owner_phone = service.device()
    subscribe(client, ann["key"], owner_phone, **{"Accept-Language": "ko"})
    thief = client.post("/players/me/keys", json={"name": "stolen"}, headers=auth(ann["key"])).get_json()
    owners = next(k["id"] for k in client.get("/players/me/keys", headers=auth(ann["key"])).get_json()["keys"]
                  if k["current"])
    r = client.delete(f"/players/me/keys/{owners}", headers=auth(thief["key"]))
    assert r.status_code == 403 and r.get_json()["code"] == "step_up_required"
    assert wait_for(lambda: owner_phone.payloads("account_change_refused"))
    refused = owner_phone.payloads("account_change_refused")[0]
    assert refused["title"] == "내 계정" and refused["url"] == "/web/account.html" and "“stolen”" in refused["body"]
    added = owner_phone.payloads("account_changed")
    assert [p["body"] for p in added] == ["“first key”에서 새 기기 키 “stolen”를 추가했습니다."]
    urgency = [h.get("Urgency") for _, p, h in owner_phone.received if p["type"] == "account_change_refused"]
    assert urgency == ["high"]
