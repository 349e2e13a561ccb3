"""One subscription's pending pushes: under its lease, the player's inbox entries after its
cursor, in order, each pushed (encrypted to the browser's keys with RFC 8291's aes128gcm
through pywebpush, signed with the server's VAPID key) until the push service takes it, the
cursor saved after each.

- 201 (or any 2xx): sent; the cursor moves on.
- 404 or 410: the subscription is gone (RFC 8030 7.3: the browser unsubscribed, or the service
  expired it): removed, nothing more is sent to it.
- 429, 5xx, a timeout, the network: not sent; the cursor stays, and the dispatcher tries again
  (the push service parked after failing in a row: workers/deliveries/dispatcher.py). An entry
  older than its TTL is skipped then: the push service would drop it anyway.
- any other 4xx (a payload it refuses, a VAPID key it does not know): that entry is skipped,
  not retried for ever.
- the player key that registered the subscription was revoked or replaced: it is removed,
  before anything more is sent (checked before each push).

Every attempt ends within its deadline whatever the push service does (api/webhooks/sender.py's
Connections: the lookup, connect, TLS and the whole answer are bounded, and the address it
resolves to is checked against the same policy as webhooks')."""
from __future__ import annotations

import logging
import threading
import time
from dataclasses import dataclass
from urllib.parse import urlsplit

from py_vapid import Vapid
from pywebpush import WebPusher

from api.players.accounts import Players
from api.push import messages
from api.push.subscriptions import LOCK_MS, PushSubscription, PushSubscriptions
from api.webhooks.addresses import Policy
from api.webhooks.sender import Connections, Outcome

log = logging.getLogger(__name__)

JWT_LIFETIME_S = 12 * 3600  # RFC 8292: at most 24 hours
BATCH = 50  # inbox entries read at a time


@dataclass(frozen=True)
class PushSettings:
    subject: str = "mailto:push@localhost"  # VAPID_SUBJECT: who the push services may contact
    ttl_s: int = 86400
    timeout_s: float = 5.0  # the longest wait within an attempt
    deadline_s: float = 10.0  # an attempt's whole time
    policy: Policy = Policy()


class Sender:
    """Sends subscriptions' pending pushes (thread-safe: a connection cache per thread)."""

    def __init__(self, subs: PushSubscriptions, players: Players, vapid: Vapid, settings: PushSettings,
                 attempted=None):
        self.subs, self.players, self.vapid, self.settings = subs, players, vapid, settings
        self.attempted = attempted  # (url, ok): the dispatcher's trust and parking
        self._local = threading.local()

    def _connections(self) -> Connections:
        held = getattr(self._local, "connections", None)
        if held is None:
            held = self._local.connections = Connections(self.settings.policy, self.settings.timeout_s,
                                                         self.settings.deadline_s)
        return held

    def send_pending(self, player_id: str, sub_id: str) -> str:
        """`caught_up`, `gone` (removed, or no such subscription), `busy` (another sender holds
        it), `failed` (the push service did not take an entry: try again later) or `later`
        (the lease's time is up with entries left)."""
        sub = self.subs.get(player_id, sub_id)
        if sub is None:
            return "gone"
        token = self.subs.lock(player_id, sub_id)
        if token is None:
            return "busy"
        try:
            return self._drain(sub, token, time.monotonic() + LOCK_MS / 1000 - self.settings.deadline_s - 2)
        finally:
            self.subs.unlock(player_id, sub_id, token)

    def _drain(self, sub: PushSubscription, token: str, until: float) -> str:
        cursor = self.subs.cursor(sub.player_id, sub.id) or "0-0"
        while True:
            entries = self.players.inbox_after(sub.player_id, cursor, BATCH)
            if not entries:
                return "caught_up"
            for entry_id, entry in entries:
                if time.monotonic() > until:
                    return "later"
                if sub.key_hash is not None and not self.players.key_in_use(sub.key_hash):
                    self.subs.remove(sub.player_id, sub.id)  # its key was revoked or replaced
                    return "gone"
                outcome = self._one(sub, entry)
                if outcome == "gone":
                    self.subs.remove(sub.player_id, sub.id)
                    return "gone"
                if outcome == "failed":
                    return "failed"
                if not self.subs.save(sub.player_id, sub.id, token, entry_id):
                    return "gone"  # deleted meanwhile (or the lease lost: its new holder goes on)
                cursor = entry_id

    def _one(self, sub: PushSubscription, entry: dict) -> str:
        """`sent`, `skipped`, `gone` or `failed`."""
        if not messages.pushed(entry):
            return "skipped"
        if time.time() * 1000 - int(entry.get("at") or 0) > self.settings.ttl_s * 1000:
            return "skipped"  # past its TTL: a push service would drop it unheard
        outcome = self.push(sub, entry)
        if self.attempted is not None:
            self.attempted(sub.endpoint, outcome.ok or outcome.status in (404, 410))
        if outcome.ok:
            return "sent"
        if outcome.status in (404, 410):
            log.info("push subscription %s of %s: %s, removed", sub.id, sub.player_id, outcome.status)
            return "gone"
        if outcome.status is not None and 400 <= outcome.status < 500 and outcome.status != 429:
            log.warning("push subscription %s: %s refused (%s), skipped", sub.id, entry.get("type"), outcome.status)
            return "skipped"
        log.info("push subscription %s: not sent (%s %s)", sub.id, outcome.status, outcome.error)
        return "failed"

    def push(self, sub: PushSubscription, entry: dict) -> Outcome:
        """One push request: the entry's payload encrypted to the subscription, its headers."""
        body = WebPusher(sub.info()).encode(messages.payload(entry, sub.lang), "aes128gcm")["body"]
        headers = {**messages.headers(entry, self.settings.ttl_s), **self._authorization(sub.endpoint),
                   "Content-Encoding": "aes128gcm", "Content-Type": "application/octet-stream"}
        return self._connections().post(sub.endpoint, body, headers)

    def _authorization(self, endpoint: str) -> dict:
        parts = urlsplit(endpoint)
        claims = {"aud": f"{parts.scheme}://{parts.netloc}", "sub": self.settings.subject,
                  "exp": int(time.time()) + JWT_LIFETIME_S}
        return self.vapid.sign(claims)
