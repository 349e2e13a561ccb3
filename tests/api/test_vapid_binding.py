"""The VAPID key stays the subscriptions' (issue 49, item 8): Redis records the public key the
push subscriptions were made with, and `python app.py` refuses at start a different key while
subscriptions exist (a lost DATA_DIR, a new VAPID_PRIVATE_KEY: every push would be refused by the
push services, the subscriptions dying silently), unless VAPID_ROTATE=1 ends them on purpose."""
from __future__ import annotations

import json
import logging
import subprocess
import sys
import uuid

import pytest

import app as app_module
from api.push import vapid
from tests.conftest import ROOT, _free_port

LOG = logging.getLogger("test")


def _env(redis_url: str, prefix: str, data_dir, **more: str) -> dict[str, str]:
    return {"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "DATA_DIR": str(data_dir), **more}


def _subscribe(redis_client, prefix: str, player: str = "p1", sub: str = "ps1") -> None:
    redis_client.hset(f"{prefix}player:{{{player}}}:push", sub,
                      json.dumps({"endpoint": "https://push.example/x", "p256dh": "k", "auth": "a", "lang": "en",
                                  "created": 1}))


def test_a_changed_key_is_refused_while_subscriptions_exist_and_rotated_on_purpose(redis_url, redis_client,
                                                                                  tmp_path):
    prefix = f"vb{uuid.uuid4().hex[:6]}:"
    first, second = tmp_path / "first", tmp_path / "second"  # two DATA_DIRs: a recreated container
    app_module._check_vapid_key(_env(redis_url, prefix, first), LOG)
    recorded = redis_client.get(vapid.record_key(prefix)).decode()
    assert recorded == vapid.public_key(vapid.load(path=str(first / vapid.KEY_FILE)))
    app_module._check_vapid_key(_env(redis_url, prefix, first), LOG)  # the same key: fine
    _subscribe(redis_client, prefix)
    with pytest.raises(vapid.KeyChanged, match="1 push subscription"):
        app_module._check_vapid_key(_env(redis_url, prefix, second), LOG)
    assert redis_client.get(vapid.record_key(prefix)).decode() == recorded  # nothing changed
    assert redis_client.hlen(f"{prefix}player:{{p1}}:push") == 1
    app_module._check_vapid_key(_env(redis_url, prefix, second, VAPID_ROTATE="1"), LOG)  # on purpose
    assert redis_client.hlen(f"{prefix}player:{{p1}}:push") == 0  # the old key's subscription ended
    assert redis_client.get(vapid.record_key(prefix)).decode() == vapid.public_key(
        vapid.load(path=str(second / vapid.KEY_FILE)))


def test_without_subscriptions_a_new_key_is_taken(redis_client, tmp_path):
    prefix = f"vb{uuid.uuid4().hex[:6]}:"
    assert vapid.bind(redis_client, prefix, "A") == "recorded"
    assert vapid.bind(redis_client, prefix, "A") == "same"
    assert vapid.bind(redis_client, prefix, "B") == "changed"
    _subscribe(redis_client, prefix)
    with pytest.raises(vapid.KeyChanged):
        vapid.bind(redis_client, prefix, "C")


@pytest.mark.process
def test_app_py_refuses_to_start_with_another_key(redis_url, redis_client, tmp_path):
    prefix = f"vb{uuid.uuid4().hex[:6]}:"
    vapid.bind(redis_client, prefix, "the key the subscriptions were made with")
    _subscribe(redis_client, prefix)
    env = {**_env(redis_url, prefix, tmp_path), "PORT": str(_free_port()), "HOST": "127.0.0.1", "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "app.py"], cwd=ROOT, env=env, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2, done.stderr[-2000:]
    assert "VAPID key changed" in done.stderr


def test_a_native_apps_registration_owes_the_vapid_key_nothing(redis_client):
    """FCM and APNs registrations (issue 54) neither block a new VAPID key nor end with it."""
    prefix = f"vb{uuid.uuid4().hex[:6]}:"
    assert vapid.bind(redis_client, prefix, "A") == "recorded"
    redis_client.hset(f"{prefix}player:{{p1}}:push", "psn",
                      json.dumps({"kind": "fcm", "token": "t" * 20, "lang": "en", "created": 1}))
    assert vapid.bind(redis_client, prefix, "B") == "changed"
    _subscribe(redis_client, prefix)
    assert vapid.bind(redis_client, prefix, "C", rotate=True) == "rotated"
    assert redis_client.hkeys(f"{prefix}player:{{p1}}:push") == [b"psn"]
