"""Native apps' push end to end (issue 54): a phone registers its FCM token and another its APNs
device token over HTTP, a game is played, and real webhook workers (their dispatcher, a queue
per service) push each `your_turn` to the fakes of FCM (tests/api/fcm_service.py) and APNs over
HTTP/2 (tests/api/apns_service.py), which check every request as the services would: each turn
once, in order, one collapse key per game, priority high."""
from __future__ import annotations

import json
import uuid

import pytest

from api.push import messages
from tests.api.apns_service import ApnsService
from tests.api.fcm_service import FcmService
from tests.api.helpers import auth
from tests.api.test_web_push import play, started_game
from tests.conftest import running_workers, wait_for
from tests.lobby.helpers import player

# The tier (tests/tiers.py): it starts a webhook worker.
pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def services():
    fcm, apns = FcmService(), ApnsService()
    yield fcm, apns
    fcm.close()
    apns.close()
    assert not fcm.problems and not apns.problems, (fcm.problems, apns.problems)


@pytest.fixture(scope="module")
def native_app(redis_url, services, tmp_path_factory):
    from app import create_app

    fcm, apns = services
    prefix = f"nw{uuid.uuid4().hex[:6]}:"
    key_file = str(tmp_path_factory.mktemp("vapid") / "vapid_private.pem")
    env = {"FCM_CREDENTIALS": json.dumps(fcm.credentials()), "FCM_URL": fcm.origin, "APNS_KEY": apns.key_pem(),
           "APNS_KEY_ID": apns.key_id, "APNS_TEAM_ID": apns.team_id, "APNS_BUNDLE_ID": apns.bundle_id,
           "APNS_URL": apns.origin}
    with running_workers(redis_url, prefix, ("webhooks",),
                         {**env, "WEBHOOK_QUEUE": f"{prefix}webhooks", "VAPID_KEY_FILE": key_file}):
        yield create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                          "WEBHOOK_QUEUE": f"{prefix}webhooks", "TESTING": True, "RATE_LIMIT": 1_000_000,
                          "DEFER_AFTER_APPEND": False, "VAPID_KEY_FILE": key_file, **env})


def test_each_turn_reaches_an_android_and_an_iphone_once(native_app, services):
    from tests.api.spec import SpecCheckingClient

    fcm, apns = services
    client = SpecCheckingClient(native_app, native_app.response_class, use_cookies=True)
    ann, bob = player(client, "Ann"), player(client, "Bob")
    android, iphone = fcm.device(), apns.device()
    for key, body in ((ann["key"], {"kind": "fcm", "token": android.token, "lang": "ko"}),
                      (bob["key"], {"kind": "apns", "token": iphone.token})):
        r = client.post("/players/me/push-subscriptions", json=body, headers=auth(key))
        assert r.status_code == 201, r.get_json()
    gid, turns = started_game(client, ann, bob)
    wait_for(lambda: android.payloads("your_turn", gid))  # else Ann's move makes it stale: never sent
    turns += play(client, gid, {0: ann["key"], 1: bob["key"]}, 8, {0: android, 1: iphone})
    expected = {0: [v for s, v in turns if s == 0], 1: [v for s, v in turns if s == 1]}
    wait_for(lambda: [p["version"] for p in android.payloads("your_turn", gid)] == expected[0]
             and [p["version"] for p in iphone.payloads("your_turn", gid)] == expected[1], timeout=30)
    said = android.payloads("your_turn", gid)[0]
    assert (said["title"], said["body"], said["url"]) == ("스플렌더", "스플렌더: 내 차례입니다.", f"/play/{gid}")
    key = messages.topic({"game_id": gid})
    assert {m["android"]["collapse_key"] for _, m in android.received} == {key}
    assert {m["android"]["priority"] for _, m in android.received if m["data"]["type"] == "your_turn"} == {"HIGH"}
    assert {h["apns-collapse-id"] for _, h, _ in iphone.received} == {key}
    assert {h["apns-priority"] for _, h, b in iphone.received if b["message"]["type"] == "your_turn"} == {"10"}
    assert fcm.grants == 1, "one OAuth2 token for every push"
