"""A player's push subscriptions, in Redis beside the player's other keys (one hash tag, one
cluster slot):

- `player:{<id>}:push` hash: subscription id -> its JSON (endpoint, keys, lang, created);
- `player:{<id>}:push-cursors` hash: subscription id -> the id of the last inbox entry it was
  sent (or skipped): each entry is pushed once, in order, after the subscription was made;
- `player:{<id>}:push-lock:<sub>` string: the sending lease (one sender per subscription).

A subscription's id is derived from its endpoint, so a browser posting its subscription again
(as pages do at every visit) updates it instead of adding a second one. An endpoint is an https
URL (plain http to a loopback address only when PUSH_ALLOW_LOOPBACK=1, for tests); where it
resolves is checked again at every sending (api/webhooks/addresses.py's policy).

A subscription registered with a player key lasts as long as that key: once the key is revoked
or replaced, nothing more is sent to it and it is removed (a stolen key's subscriptions end with
the key; the device that rotated its own subscribes again with the new one, as pages do at every
visit). The key's revocation or replacement removes them at once (`end_key`, which the
composition root hooks to the key ring), and the sender checks the key before each push."""
from __future__ import annotations

import base64
import binascii
import hashlib
import ipaddress
import json
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from cryptography.hazmat.primitives.asymmetric import ec

from api.errors import ApiError, Code, ValidationFailed
from api.players.accounts import Players
from events.connection import unavailable

MAX_ENDPOINT = 2000
LOCK_MS = 60_000  # a sending's lease: longer than the attempts it starts (sending.py stops before it)

_ADD = """
local exists = redis.call('HEXISTS', KEYS[1], ARGV[1])
if exists == 0 and redis.call('HLEN', KEYS[1]) >= tonumber(ARGV[3]) then return -1 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
if exists == 0 then
  local last = redis.call('XREVRANGE', KEYS[3], '+', '-', 'COUNT', 1)
  redis.call('HSET', KEYS[2], ARGV[1], last[1] and last[1][1] or '0-0')
end
return exists
"""
_SAVE = """
if redis.call('GET', KEYS[1]) ~= ARGV[1] then return 0 end
if redis.call('HEXISTS', KEYS[3], ARGV[2]) == 0 then return 0 end
redis.call('HSET', KEYS[2], ARGV[2], ARGV[3])
return 1
"""
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class PushEndpointRefused(ApiError):
    status, code = 422, Code.PUSH_ENDPOINT_REFUSED


class TooManyPushSubscriptions(ApiError):
    status, code = 422, Code.TOO_MANY_PUSH_SUBSCRIPTIONS


class UnknownPushSubscription(ApiError):
    status, code = 404, Code.UNKNOWN_PUSH_SUBSCRIPTION


@dataclass(frozen=True)
class PushSubscription:
    id: str
    player_id: str
    endpoint: str
    p256dh: str  # the browser's ECDH public key (base64url), what the payload is encrypted to
    auth: str  # the browser's authentication secret (base64url)
    lang: str
    created: int  # ms
    key_hash: str | None = None  # the player key that registered it (None: an identity token's)

    def public(self) -> dict[str, Any]:
        """What its player is shown (the keys stay server-side: nobody needs them back)."""
        return {"id": self.id, "endpoint": self.endpoint, "lang": self.lang, "created": self.created}

    def info(self) -> dict[str, Any]:
        """pywebpush's subscription_info."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def dumps(self) -> str:
        return json.dumps({"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": self.auth,
                           "lang": self.lang, "created": self.created, "key_hash": self.key_hash})


def subscription_id(endpoint: str) -> str:
    return "ps" + hashlib.sha256(endpoint.encode()).hexdigest()[:16]


def check_endpoint(endpoint: str, allow_loopback: bool) -> None:
    """PushEndpointRefused unless an https URL (or http to loopback, when allowed)."""
    if len(endpoint) > MAX_ENDPOINT:
        raise PushEndpointRefused(f"A push endpoint is at most {MAX_ENDPOINT} characters.")
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise PushEndpointRefused("The push endpoint is not a URL.") from None
    if not parts.hostname or parts.username or parts.password or parts.fragment:
        raise PushEndpointRefused("A push endpoint is a URL with a host, without credentials or a fragment.")
    if parts.scheme == "https":
        return
    if parts.scheme == "http" and allow_loopback and _loopback(parts.hostname):
        return
    raise PushEndpointRefused("A push endpoint is an https URL (the one the browser's push service gave).")


def _loopback(host: str) -> bool:
    try:
        return host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


def decoded_key(value: str, field: str, length: int) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))
    except (binascii.Error, ValueError):
        raw = b""
    if len(raw) != length:
        raise ValidationFailed(f"keys.{field} is the browser's {length}-byte value in base64url.",
                               details={"fields": {f"keys.{field}": [f"{length} bytes, base64url."]}})
    return raw


def check_keys(p256dh: str, auth: str) -> None:
    point = decoded_key(p256dh, "p256dh", 65)
    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValidationFailed("keys.p256dh is not a P-256 public key.",
                               details={"fields": {"keys.p256dh": ["Not a point on P-256."]}}) from None
    decoded_key(auth, "auth", 16)


class PushSubscriptions:
    def __init__(self, players: Players, max_per_player: int = 10, allow_loopback: bool = False):
        self.players = players
        self.redis = players.redis
        self.prefix = players.prefix
        self.max_per_player = max_per_player
        self.allow_loopback = allow_loopback
        self._add = self.redis.register_script(_ADD)
        self._save = self.redis.register_script(_SAVE)
        self._unlock = self.redis.register_script(_UNLOCK)

    # ---- keys -------------------------------------------------------------------------------
    def subs_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push"

    def cursors_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-cursors"

    def lock_key(self, player_id: str, sub_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-lock:{sub_id}"

    # ---- the endpoints' ---------------------------------------------------------------------
    @unavailable
    def add(self, player_id: str, endpoint: str, p256dh: str, auth: str, lang: str,
            key_hash: str | None = None) -> tuple[PushSubscription, bool]:
        """(the subscription, whether it is new); refused as the module says. `key_hash`: the
        player key the request came with (its subscriptions end with it: sending.py)."""
        check_endpoint(endpoint, self.allow_loopback)
        check_keys(p256dh, auth)
        sub = PushSubscription(subscription_id(endpoint), player_id, endpoint, p256dh, auth, lang,
                               int(time.time() * 1000), key_hash)
        keys = [self.subs_key(player_id), self.cursors_key(player_id), self.players.inbox_key(player_id)]
        existed = self._add(keys=keys, args=[sub.id, sub.dumps(), self.max_per_player])
        if existed == -1:
            raise TooManyPushSubscriptions(f"At most {self.max_per_player} push subscriptions per player; "
                                           "delete one first.", details={"limit": self.max_per_player})
        return sub, existed == 0

    @unavailable
    def of_player(self, player_id: str) -> list[PushSubscription]:
        found = self.redis.hgetall(self.subs_key(player_id))
        subs = [self._loaded(player_id, k.decode(), v) for k, v in found.items()]
        return sorted(subs, key=lambda s: (s.created, s.id))

    @unavailable
    def get(self, player_id: str, sub_id: str) -> PushSubscription | None:
        raw = self.redis.hget(self.subs_key(player_id), sub_id)
        return self._loaded(player_id, sub_id, raw) if raw is not None else None

    @unavailable
    def remove(self, player_id: str, sub_id: str) -> bool:
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(self.subs_key(player_id), sub_id)
        pipe.hdel(self.cursors_key(player_id), sub_id)
        removed, _ = pipe.execute()
        return bool(removed)

    def end_key(self, player_id: str, key_hash: str) -> int:
        """Removes the subscriptions registered with the player key of this hash (revoked or
        replaced: api/players/keys.py); how many. The sender checks the key too."""
        ended = [s.id for s in self.of_player(player_id) if s.key_hash == key_hash]
        for sub_id in ended:
            self.remove(player_id, sub_id)
        return len(ended)

    def delete(self, player_id: str, sub_id: str) -> None:
        if not self.remove(player_id, sub_id):
            raise UnknownPushSubscription("You have no push subscription with this id.")

    @staticmethod
    def _loaded(player_id: str, sub_id: str, raw: bytes) -> PushSubscription:
        data = json.loads(raw)
        return PushSubscription(sub_id, player_id, data["endpoint"], data["p256dh"], data["auth"], data["lang"],
                                data["created"], data.get("key_hash"))

    # ---- the sender's -------------------------------------------------------------------------
    @unavailable
    def subscribed(self, player_ids: list[str]) -> list[str]:
        """Those of the players that have a push subscription (one round trip)."""
        if not player_ids:
            return []
        pipe = self.redis.pipeline(transaction=False)
        for player_id in player_ids:
            pipe.exists(self.subs_key(player_id))
        return [p for p, n in zip(player_ids, pipe.execute()) if n]

    @unavailable
    def cursor(self, player_id: str, sub_id: str) -> str | None:
        raw = self.redis.hget(self.cursors_key(player_id), sub_id)
        return raw.decode() if raw is not None else None

    @unavailable
    def lock(self, player_id: str, sub_id: str) -> str | None:
        token = secrets.token_hex(8)
        return token if self.redis.set(self.lock_key(player_id, sub_id), token, nx=True, px=LOCK_MS) else None

    @unavailable
    def unlock(self, player_id: str, sub_id: str, token: str) -> None:
        self._unlock(keys=[self.lock_key(player_id, sub_id)], args=[token])

    @unavailable
    def save(self, player_id: str, sub_id: str, token: str, entry_id: str) -> bool:
        """The cursor moved to `entry_id`, only under this sender's lease (and while the
        subscription exists: a removed one is not brought back)."""
        keys = [self.lock_key(player_id, sub_id), self.cursors_key(player_id), self.subs_key(player_id)]
        return bool(self._save(keys=keys, args=[token, sub_id, entry_id]))
