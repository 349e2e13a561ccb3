"""The server's VAPID key pair (RFC 8292): the ES256 key that signs each push request's JWT,
whose public half a browser's `pushManager.subscribe` is given (`applicationServerKey`).

From VAPID_PRIVATE_KEY (the raw 32-byte key in base64url, or a PEM) when set; otherwise from
the file VAPID_KEY_FILE (default `vapid_private.pem` under DATA_DIR), which the first process
to start makes. Every process (web and workers) must use the same key: a subscription made
with one public key is refused by the push service when signed with another, so the file is
made atomically (written aside, then linked into place: a process that lost the race reads
the winner's).

The key is bound to the subscriptions made with it: Redis records its public half
(`push:vapid-public-key`), and `python app.py` checks at start (`bind`) that the key it would
sign with is that one. A different key while subscriptions exist (a lost DATA_DIR, a new
VAPID_PRIVATE_KEY) is refused: every push would be refused by the push services and the
subscriptions would die silently. VAPID_ROTATE=1 changes it on purpose: the subscriptions made
with the old key are ended (removed as the server removes a failing one, its failure counter
with it; their owners see each in `removed` with the reason `key_changed`, and their pages
subscribe again with the new key) and the new key recorded."""
from __future__ import annotations

import base64
import json
import logging
import os
import tempfile
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from events.keys import glob_escaped

if TYPE_CHECKING:
    from py_vapid import Vapid

log = logging.getLogger(__name__)

KEY_FILE = "vapid_private.pem"


class KeyChanged(RuntimeError):
    """The VAPID key differs from the one the push subscriptions were made with."""


def key_file(configured: str, data_dir: str | None = None) -> str:
    if configured:
        return configured
    directory = data_dir or os.environ.get("DATA_DIR") or os.path.join(".", "var", "redis")
    return os.path.join(directory, KEY_FILE)


def load(private_key: str = "", path: str = "") -> Vapid:
    """The key pair: the given key, else the file's (made now if there is none)."""
    # py_vapid (and its cryptography, 7 MB) here and in _make and public_key, not at the top: a
    # web worker loads them at the first push subscription or public-key read, if ever
    from py_vapid import Vapid

    if private_key.strip():
        text = private_key.strip()
        if text.startswith("-----BEGIN"):
            return Vapid.from_pem(text.encode())
        return Vapid.from_string(text)
    path = key_file(path)
    if not os.path.exists(path):
        _make(path)
    return Vapid.from_file(path)


def _make(path: str) -> None:
    from py_vapid import Vapid

    directory = os.path.dirname(os.path.abspath(path))
    os.makedirs(directory, exist_ok=True)
    vapid = Vapid()
    vapid.generate_keys()
    fd, aside = tempfile.mkstemp(dir=directory, prefix=".vapid-")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(vapid.private_pem())
        os.chmod(aside, 0o600)
        try:
            os.link(aside, path)  # fails if another process made it first: its key is kept
        except FileExistsError:
            pass
    finally:
        os.unlink(aside)


def public_key(vapid: Vapid) -> str:
    """The public key as a browser's `applicationServerKey` takes it: the uncompressed P-256
    point, base64url without padding."""
    from cryptography.hazmat.primitives import serialization

    raw = vapid.public_key.public_bytes(serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint)
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def record_key(prefix: str) -> str:
    return f"{prefix}push:vapid-public-key"


def subscriptions(redis: Any, prefix: str) -> list[tuple[str, str]]:
    """(player, subscription id) of every Web Push subscription (a SCAN: once, at start); a native
    app's registration (FCM, APNs: issue 54) owes the VAPID key nothing and is not listed."""
    pattern = f"{glob_escaped(prefix)}player:*:push"
    found = []
    for key in redis.scan_iter(match=pattern, count=1000):
        name = key.decode() if isinstance(key, bytes) else key
        player = name[len(prefix):].split("{", 1)[1].split("}", 1)[0]
        found += [(player, sub.decode() if isinstance(sub, bytes) else sub) for sub, raw in redis.hgetall(key).items()
                  if json.loads(raw).get("kind", "webpush") == "webpush"]
    return found


Remove = Callable[..., object]  # PushSubscriptions.remove(player, subscription, reason=...)


def bind(redis: Any, prefix: str, public: str, rotate: bool = False, remove: Remove | None = None) -> str:
    """Checks the key about to be used (its public half) against the one Redis recorded; says
    what was done: `recorded` (none was), `same`, `changed` (no subscription was made with the
    old one), `rotated` (rotate: the old key's subscriptions ended by `remove`,
    api/push/subscriptions.py's PushSubscriptions.remove, with the reason `key_changed`: their
    failure counters go with them and their owners see why in `removed`). KeyChanged when it
    differs while subscriptions exist and rotate is off."""
    key = record_key(prefix)
    if redis.set(key, public, nx=True):
        return "recorded"
    recorded = (redis.get(key) or b"").decode()
    if recorded == public:
        return "same"
    subs = subscriptions(redis, prefix)
    if subs and not rotate:
        raise KeyChanged(
            f"The VAPID key changed: {len(subs)} push subscription(s) were made with the public key "
            f"{recorded[:16]}..., this process would sign with {public[:16]}... and every push would be "
            "refused. Give back the old key (VAPID_PRIVATE_KEY, or the file VAPID_KEY_FILE / vapid_private.pem "
            "under DATA_DIR), or set VAPID_ROTATE=1 to end those subscriptions and use the new key.")
    if subs and remove is None:
        raise ValueError("a rotation ends the subscriptions through PushSubscriptions.remove: give it")
    for player, sub in subs:
        assert remove is not None
        remove(player, sub, reason="key_changed")
    redis.set(key, public)
    if subs:
        log.warning("VAPID key rotated (VAPID_ROTATE=1): %d push subscription(s) made with the old key ended",
                    len(subs))
        return "rotated"
    return "changed"

