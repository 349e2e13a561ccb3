"""A player's push subscriptions, in Redis beside the player's other keys (one hash tag, one
cluster slot):

- `player:{<id>}:push` hash: subscription id -> its JSON (endpoint, keys, lang, created);
- `player:{<id>}:push-cursors` hash: subscription id -> the id of the last inbox entry it was
  sent (or skipped): each entry is pushed once, in order, after the subscription was made;
- `player:{<id>}:push-lock:<sub>` string: the sending lease (one sender per subscription; a
  holder that died frees it within its time, an attempt's deadline and a few seconds);
- `player:{<id>}:push-failures` hash: subscription id -> its failures in a row (JSON: attempts,
  the next attempt's time, the last error), gone at its next success;
- `player:{<id>}:push-removed` hash: subscription id -> why the server removed it (JSON: reason,
  status, detail, at), shown to its player (`GET /players/me/push-subscriptions`, `removed`) for
  REMOVED_KEPT_MS, at most REMOVED_KEPT of them;
- `push-due` sorted set (one for the server): player id -> when the reconciler's sweep looks at
  the player's subscriptions next (workers/push/: a push job lost with its worker or with Redis,
  a retry due after its back-off).

A subscription's id is derived from its endpoint, so a browser posting its subscription again
(as pages do at every visit) updates it instead of adding a second one. An endpoint is an https
URL checked as a webhook's is (api/webhooks/addresses.py: its form, and the addresses its host
resolves to, none private, link-local or loopback, unless allowed), and named by a host name or
an IPv4 address: a VAPID JWT's `aud` cannot name an IPv6 literal (py_vapid refuses to sign it).
Plain http only to a loopback address when PUSH_ALLOW_LOOPBACK=1, for tests. Where it resolves
is checked again at every sending.

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
import re
import secrets
import time
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlsplit

from api.errors import ApiError, Code, ValidationFailed
from api.players.accounts import Players
from api.webhooks.addresses import AddressRefused, Policy, resolve
from events.connection import unavailable

MAX_ENDPOINT = 2000
LOCK_MS = 60_000  # a sending's lease by default (sending.py asks for its attempt's deadline and a few s)
REMOVED_KEPT = 20  # removals shown to a player
REMOVED_KEPT_MS = 30 * 86400 * 1000
# Why the server removed a subscription (its player's `removed` list): its push service said it
# is gone (404, 410); it failed PUSH_MAX_ATTEMPTS times in a row (a network error, 429, 5xx, an
# error signing); its push service refused that many messages in a row (another 4xx); or the
# player key it was registered with was revoked or replaced.
# A native app's registration (FCM, APNs) is also removed as `bad_token` when its service says the
# token is not one (FCM `INVALID_ARGUMENT`, APNs `400 BadDeviceToken`); `gone` is its service's
# "no longer registered" (FCM `UNREGISTERED`, APNs `410 Unregistered`).
# `key_changed`: the server's VAPID key was changed on purpose (VAPID_ROTATE=1: api/push/vapid.py's
# bind), which a browser's push service would refuse.
REASONS = ("gone", "failing", "refused", "key_ended", "bad_token", "key_changed")
WEB_PUSH = "webpush"
KINDS = (WEB_PUSH, "fcm", "apns")  # the transports (workers/push/: webpush.py, fcm.py, apns.py)
MAX_TOKEN = 4096
# An FCM registration token: URL-safe characters and colons; an APNs device token: hex (32
# bytes today; Apple says it may grow), stored in lower case.
TOKEN_FORMS = {"fcm": re.compile(r"[A-Za-z0-9_:.\-]{16,4096}"), "apns": re.compile(r"(?:[0-9a-fA-F]{2}){16,200}")}

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
_UNDUE = """
local score = redis.call('ZSCORE', KEYS[1], ARGV[1])
if score and tonumber(score) <= tonumber(ARGV[2]) then return redis.call('ZREM', KEYS[1], ARGV[1]) end
return 0
"""
_UNLOCK = """
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
"""


class PushEndpointRefused(ApiError):
    status, code = 422, Code.PUSH_ENDPOINT_REFUSED


class TooManyPushSubscriptions(ApiError):
    status, code = 422, Code.TOO_MANY_PUSH_SUBSCRIPTIONS


class PushKindUnavailable(ApiError):
    status, code = 422, Code.PUSH_KIND_UNAVAILABLE


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
    kind: str = WEB_PUSH  # or a native app's: "fcm", "apns" (KINDS)
    token: str = ""  # a native app's registration token (FCM) or device token (APNs)

    def public(self) -> dict[str, Any]:
        """What its player is shown (the keys stay server-side: nobody needs them back; a native
        app's token is not shown back either: the app has it)."""
        shown: dict[str, Any] = {"id": self.id, "kind": self.kind, "lang": self.lang, "created": self.created}
        if self.kind == WEB_PUSH:
            shown["endpoint"] = self.endpoint
        return shown

    def info(self) -> dict[str, Any]:
        """pywebpush's subscription_info."""
        return {"endpoint": self.endpoint, "keys": {"p256dh": self.p256dh, "auth": self.auth}}

    def dumps(self) -> str:
        if self.kind != WEB_PUSH:
            return json.dumps({"kind": self.kind, "token": self.token, "lang": self.lang, "created": self.created,
                               "key_hash": self.key_hash})
        return json.dumps({"endpoint": self.endpoint, "p256dh": self.p256dh, "auth": self.auth,
                           "lang": self.lang, "created": self.created, "key_hash": self.key_hash})


def subscription_id(endpoint: str) -> str:
    return "ps" + hashlib.sha256(endpoint.encode()).hexdigest()[:16]


def native_id(kind: str, token: str) -> str:
    """A native registration's id, from its kind and token (the same token posted again: the same)."""
    return subscription_id(f"{kind}:{token}")


def check_token(kind: str, token: str) -> str:
    """The token as stored (APNs' in lower case), or ValidationFailed."""
    form = TOKEN_FORMS[kind]
    if len(token) > MAX_TOKEN or not form.fullmatch(token):
        said = ("an FCM registration token (16 to 4096 letters, digits and `_:.-`)" if kind == "fcm"
                else "an APNs device token (hexadecimal, 32 to 200 bytes)")
        raise ValidationFailed(f"token is not {said}.", details={"fields": {"token": [f"Not {said}."]}})
    return token.lower() if kind == "apns" else token


def check_endpoint(endpoint: str, allow_loopback: bool, policy: Policy | None = None) -> None:
    """PushEndpointRefused unless an https URL (or http to loopback, when allowed) whose host
    is a name or an IPv4 address; given `policy`, also unless the host resolves to an address
    it allows (webhooks' rule: no private, link-local or loopback address unless allowed)."""
    if len(endpoint) > MAX_ENDPOINT:
        raise PushEndpointRefused(f"A push endpoint is at most {MAX_ENDPOINT} characters.")
    try:
        parts = urlsplit(endpoint)
        parts.port  # noqa: B018 - raises on a bad port
    except ValueError:
        raise PushEndpointRefused("The push endpoint is not a URL.") from None
    if not parts.hostname or parts.username or parts.password or parts.fragment:
        raise PushEndpointRefused("A push endpoint is a URL with a host, without credentials or a fragment.")
    if ":" in parts.hostname:  # an IPv6 literal: no VAPID `aud` can name it (py_vapid refuses)
        raise PushEndpointRefused("A push endpoint names its host by a name (or an IPv4 address), "
                                  "not an IPv6 address.")
    if not (parts.scheme == "https" or (parts.scheme == "http" and allow_loopback and _loopback(parts.hostname))):
        raise PushEndpointRefused("A push endpoint is an https URL (the one the browser's push service gave).")
    if policy is not None:
        try:
            resolve(endpoint, Policy(allow_loopback, policy.allowed_networks))
        except AddressRefused:
            raise PushEndpointRefused("The push endpoint's host cannot be resolved, or resolves to an address that "
                                      "is not public (private, link-local and loopback addresses are refused)."
                                      ) from None


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
    # here, not at the top: cryptography is 7 MB of every web worker's memory, needed by a subscription only
    from cryptography.hazmat.primitives.asymmetric import ec

    try:
        ec.EllipticCurvePublicKey.from_encoded_point(ec.SECP256R1(), point)
    except ValueError:
        raise ValidationFailed("keys.p256dh is not a P-256 public key.",
                               details={"fields": {"keys.p256dh": ["Not a point on P-256."]}}) from None
    decoded_key(auth, "auth", 16)


class PushSubscriptions:
    """`policy`: where endpoints may resolve (the webhooks' networks); None: not resolved when
    subscribing (tests of the form alone)."""

    def __init__(self, players: Players, max_per_player: int = 10, allow_loopback: bool = False,
                 policy: Policy | None = None, native_kinds: tuple[str, ...] = ()):
        self.players = players
        self.native_kinds = native_kinds  # the native transports the operator configured (FCM, APNs)
        self.redis = players.redis
        self.prefix = players.prefix
        self.max_per_player = max_per_player
        self.allow_loopback = allow_loopback
        self.policy = policy
        self._add = self.redis.register_script(_ADD)
        self._undue = self.redis.register_script(_UNDUE)
        self._save = self.redis.register_script(_SAVE)
        self._unlock = self.redis.register_script(_UNLOCK)

    # ---- keys -------------------------------------------------------------------------------
    def subs_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push"

    def cursors_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-cursors"

    def lock_key(self, player_id: str, sub_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-lock:{sub_id}"

    def failures_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-failures"

    def removed_key(self, player_id: str) -> str:
        return f"{self.prefix}player:{{{player_id}}}:push-removed"

    def due_key(self) -> str:
        return f"{self.prefix}push-due"

    # ---- the endpoints' ---------------------------------------------------------------------
    @unavailable
    def add(self, player_id: str, endpoint: str, p256dh: str, auth: str, lang: str,
            key_hash: str | None = None) -> tuple[PushSubscription, bool]:
        """(the subscription, whether it is new); refused as the module says. `key_hash`: the
        player key the request came with (its subscriptions end with it: sending.py)."""
        check_endpoint(endpoint, self.allow_loopback, self.policy)
        check_keys(p256dh, auth)
        sub = PushSubscription(subscription_id(endpoint), player_id, endpoint, p256dh, auth, lang,
                               int(time.time() * 1000), key_hash)
        return self._added(sub)

    @unavailable
    def add_native(self, player_id: str, kind: str, token: str, lang: str,
                   key_hash: str | None = None) -> tuple[PushSubscription, bool]:
        """A native app's registration (`kind` "fcm" or "apns"), as `add`; PushKindUnavailable
        when the operator configured no credentials for that kind."""
        if kind not in self.native_kinds:
            raise PushKindUnavailable(
                f"This server sends no {kind.upper()} pushes: its operator configured no credentials for them.",
                details={"kind": kind, "available": [WEB_PUSH, *self.native_kinds]})
        token = check_token(kind, token)
        sub = PushSubscription(native_id(kind, token), player_id, "", "", "", lang, int(time.time() * 1000),
                               key_hash, kind, token)
        return self._added(sub)

    def _added(self, sub: PushSubscription) -> tuple[PushSubscription, bool]:
        player_id = sub.player_id
        keys = [self.subs_key(player_id), self.cursors_key(player_id), self.players.inbox_key(player_id)]
        existed = self._add(keys=keys, args=[sub.id, sub.dumps(), self.max_per_player])
        if existed == -1:
            raise TooManyPushSubscriptions(f"At most {self.max_per_player} push subscriptions per player; "
                                           "delete one first.", details={"limit": self.max_per_player})
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(self.removed_key(player_id), sub.id)  # subscribed again: no longer removed
        pipe.hdel(self.failures_key(player_id), sub.id)  # a fresh start
        pipe.execute()
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
    def remove(self, player_id: str, sub_id: str, reason: str | None = None, status: int | None = None,
               detail: str = "") -> bool:
        """Removed (by its player, or by the server for `reason`, which its player is shown)."""
        sub = self.get(player_id, sub_id) if reason is not None else None
        pipe = self.redis.pipeline(transaction=False)
        pipe.hdel(self.subs_key(player_id), sub_id)
        pipe.hdel(self.cursors_key(player_id), sub_id)
        pipe.hdel(self.failures_key(player_id), sub_id)
        if sub is not None:
            record = {"id": sub_id, "kind": sub.kind, "endpoint": sub.endpoint, "reason": reason,
                      "status": status, "detail": detail[:300], "at": int(time.time() * 1000)}
            pipe.hset(self.removed_key(player_id), sub_id, json.dumps(record))
            pipe.pexpire(self.removed_key(player_id), REMOVED_KEPT_MS)
        removed = pipe.execute()[0]
        if sub is not None:
            self._trim_removed(player_id)
        return bool(removed)

    def end_key(self, player_id: str, key_hash: str) -> int:
        """Removes the subscriptions registered with the player key of this hash (revoked or
        replaced: api/players/keys.py); how many. The sender checks the key too."""
        ended = [s.id for s in self.of_player(player_id) if s.key_hash == key_hash]
        for sub_id in ended:
            self.remove(player_id, sub_id, reason="key_ended")
        return len(ended)

    def _trim_removed(self, player_id: str) -> None:
        found = self.removed(player_id)
        if len(found) > REMOVED_KEPT:
            self.redis.hdel(self.removed_key(player_id), *[r["id"] for r in found[REMOVED_KEPT:]])

    @unavailable
    def removed(self, player_id: str) -> list[dict[str, Any]]:
        """The subscriptions the server removed, newest first, each with its reason."""
        found = [{"kind": WEB_PUSH, **json.loads(v)} for v in self.redis.hgetall(self.removed_key(player_id)).values()]
        return sorted(found, key=lambda r: (-r["at"], r["id"]))

    def delete(self, player_id: str, sub_id: str) -> None:
        if not self.remove(player_id, sub_id):
            raise UnknownPushSubscription("You have no push subscription with this id.")

    @staticmethod
    def _loaded(player_id: str, sub_id: str, raw: bytes) -> PushSubscription:
        data = json.loads(raw)
        if data.get("kind", WEB_PUSH) != WEB_PUSH:
            return PushSubscription(sub_id, player_id, "", "", "", data["lang"], data["created"], data.get("key_hash"),
                                    data["kind"], data["token"])
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
    def lock(self, player_id: str, sub_id: str, ms: int = LOCK_MS) -> str | None:
        token = secrets.token_hex(8)
        return token if self.redis.set(self.lock_key(player_id, sub_id), token, nx=True, px=ms) else None

    @unavailable
    def unlock(self, player_id: str, sub_id: str, token: str) -> None:
        self._unlock(keys=[self.lock_key(player_id, sub_id)], args=[token])

    @unavailable
    def save(self, player_id: str, sub_id: str, token: str, entry_id: str) -> bool:
        """The cursor moved to `entry_id`, only under this sender's lease (and while the
        subscription exists: a removed one is not brought back)."""
        keys = [self.lock_key(player_id, sub_id), self.cursors_key(player_id), self.subs_key(player_id)]
        return bool(self._save(keys=keys, args=[token, sub_id, entry_id]))

    # ---- failures and the sweep's schedule ----------------------------------------------------
    @unavailable
    def failure(self, player_id: str, sub_id: str) -> dict[str, Any] | None:
        """Its failures in a row: {"attempts", "next_at" (ms), "error"}, or None."""
        raw = self.redis.hget(self.failures_key(player_id), sub_id)
        return json.loads(raw) if raw is not None else None

    @unavailable
    def record_failure(self, player_id: str, sub_id: str, attempts: int, next_at: int, error: str) -> None:
        self.redis.hset(self.failures_key(player_id), sub_id,
                        json.dumps({"attempts": attempts, "next_at": next_at, "error": error[:300]}))
        self.look_at(player_id, next_at, earlier_only=True)

    @unavailable
    def succeeded(self, player_id: str, sub_id: str) -> None:
        self.redis.hdel(self.failures_key(player_id), sub_id)

    @unavailable
    def look_at(self, player_id: str, at_ms: int, earlier_only: bool = False) -> None:
        """The sweep looks at the player's subscriptions at `at_ms` (or earlier if it was to)."""
        self.redis.zadd(self.due_key(), {player_id: at_ms}, lt=earlier_only)

    @unavailable
    def due_players(self, now_ms: int, limit: int = 500) -> list[tuple[str, int]]:
        """(player, when it was due) of the players the sweep is to look at now."""
        found = self.redis.zrangebyscore(self.due_key(), "-inf", now_ms, start=0, num=limit, withscores=True)
        return [(p.decode(), int(score)) for p, score in found]

    @unavailable
    def looked_at(self, player_id: str, was_due: int) -> None:
        """Nothing more to look at: out of the schedule, unless a notice rescheduled it since."""
        self._undue(keys=[self.due_key()], args=[player_id, was_due])

    @unavailable
    def standing(self, player_id: str) -> tuple[list[PushSubscription], dict[str, str], dict[str, dict[str, Any]],
                                                str, set[str]]:
        """In one round trip: the player's subscriptions, their cursors, their failures, the
        inbox's newest entry id, and the subscriptions whose sending lease is held."""
        subs = self.of_player(player_id)
        pipe = self.redis.pipeline(transaction=False)
        pipe.hgetall(self.cursors_key(player_id))
        pipe.hgetall(self.failures_key(player_id))
        pipe.xrevrange(self.players.inbox_key(player_id), "+", "-", count=1)
        for sub in subs:
            pipe.exists(self.lock_key(player_id, sub.id))
        cursors, failures, last, *locks = pipe.execute()
        return (subs, {k.decode(): v.decode() for k, v in cursors.items()},
                {k.decode(): json.loads(v) for k, v in failures.items()}, last[0][0].decode() if last else "0-0",
                {sub.id for sub, held in zip(subs, locks) if held})
