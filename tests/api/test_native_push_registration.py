"""A native app registers for push (issue 54): `POST /players/me/push-subscriptions` with
`{"kind": "fcm" | "apns", "token"}` beside a browser's body. A kind the operator configured no
credentials for is refused with its code, in the caller's language; a token of the wrong form is
a validation error; the same token again updates its registration; nothing shows a token back."""
from __future__ import annotations

import json
import uuid

import pytest

from tests.api.fcm_service import FcmService
from tests.api.helpers import auth
from tests.lobby.helpers import player

FCM_TOKEN = "dQw4w9WgXcQ:APA91bHun4MxP5egoKMwt2KZFBaFUH-1RYqx"
APNS_TOKEN = "a" * 64


@pytest.fixture(scope="module")
def fcm_app(redis_url):
    from app import create_app

    fake = FcmService()
    prefix = f"np{uuid.uuid4().hex[:6]}:"
    yield create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TESTING": True, "RATE_LIMIT": 1_000_000,
                      "FCM_CREDENTIALS": json.dumps(fake.credentials()), "FCM_URL": fake.origin})
    fake.close()


@pytest.fixture
def fcm_client(fcm_app):
    from tests.api.spec import SpecCheckingClient

    return SpecCheckingClient(fcm_app, fcm_app.response_class, use_cookies=True)


def test_a_kind_without_credentials_is_refused_in_both_languages(client):
    ann = player(client, "Ann")
    for lang in ("en", "ko"):
        r = client.post("/players/me/push-subscriptions", json={"kind": "apns", "token": APNS_TOKEN},
                        headers={**auth(ann["key"]), "Accept-Language": lang})
        body = r.get_json()
        assert (r.status_code, body["code"]) == (422, "push_kind_unavailable"), body
        assert body["details"]["available"] == ["webpush"]
        assert ("운영자" in body["detail"]) == (lang == "ko"), body["detail"]
    listed = client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()
    assert listed["subscriptions"] == []


def test_an_fcm_token_registers_once_and_is_not_shown_back(fcm_client):
    ann = player(fcm_client, "Ann")
    r = fcm_client.post("/players/me/push-subscriptions", json={"kind": "fcm", "token": FCM_TOKEN, "lang": "ko"},
                        headers=auth(ann["key"]))
    assert r.status_code == 201, r.get_json()
    made = r.get_json()
    assert made["kind"] == "fcm" and "endpoint" not in made and FCM_TOKEN not in json.dumps(made)
    again = fcm_client.post("/players/me/push-subscriptions", json={"kind": "fcm", "token": FCM_TOKEN},
                            headers=auth(ann["key"]))
    assert (again.status_code, again.get_json()["id"]) == (200, made["id"])
    listed = fcm_client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()
    assert [s["id"] for s in listed["subscriptions"]] == [made["id"]]
    assert FCM_TOKEN not in json.dumps(listed)
    refused = fcm_client.post("/players/me/push-subscriptions", json={"kind": "apns", "token": APNS_TOKEN},
                              headers=auth(ann["key"]))
    assert refused.get_json()["details"]["available"] == ["webpush", "fcm"]


@pytest.mark.parametrize("body", [{"kind": "fcm", "token": "short"}, {"kind": "fcm", "token": "bad token with spaces"},
                                  {"kind": "fcm"}, {"kind": "fcm", "token": FCM_TOKEN, "endpoint": "x"},
                                  {"kind": "sms", "token": FCM_TOKEN}])
def test_a_malformed_registration_is_refused_and_nothing_is_kept(fcm_client, body):
    ann = player(fcm_client, "Ann")
    r = fcm_client.post("/players/me/push-subscriptions", json=body, headers=auth(ann["key"]))
    assert (r.status_code, r.get_json()["code"]) == (400, "validation_error"), r.get_json()
    assert fcm_client.get("/players/me/push-subscriptions", headers=auth(ann["key"])).get_json()["subscriptions"] == []
