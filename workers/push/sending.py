"""One subscription's pending pushes: under its lease, the player's inbox entries after its
cursor, in order, each pushed (encrypted to the browser's keys with RFC 8291's aes128gcm
through pywebpush, signed with the server's VAPID key) until the push service takes it, the
cursor saved after each.

- 201 (or any 2xx): sent; the cursor moves on, the subscription's failures are forgotten.
- 404 or 410: the subscription is gone (RFC 8030 7.3: the browser unsubscribed, or the service
  expired it): removed (`gone`, shown to its player), nothing more is sent to it.
- 429, 5xx, a timeout, the network, an error before sending (signing, encrypting): not sent;
  the cursor stays, and the subscription waits PUSH_RETRY_BASE_S, doubled at each failure in a
  row up to PUSH_RETRY_MAX_S (its failures in Redis: api/push/subscriptions.py); the reconciler's
  sweep queues its retry when due (workers/push/__init__.py). PUSH_MAX_ATTEMPTS failures in a row:
  removed (`failing`). An entry older than its TTL is skipped: the push service would drop it.
- any other 4xx (a payload it refuses, a VAPID key it does not know): that entry is skipped,
  not retried; PUSH_MAX_ATTEMPTS refusals in a row: removed (`refused`).
- a `your_turn` whose game has moved past it (the player's mark of the game is newer:
  Players.stale_turns) is skipped, not sent: a device hears no turn that is no longer its own,
  nor an older turn after a newer one (the payload carries its `version`).
- the player key that registered the subscription was revoked or replaced: it is removed
  (`key_ended`), before anything more is sent (checked before each push).

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
from api.push.subscriptions import PushSubscription, PushSubscriptions
from api.webhooks.addresses import Policy
from api.webhooks.sender import Connections, Outcome

log = logging.getLogger(__name__)

JWT_LIFETIME_S = 12 * 3600  # RFC 8292: at most 24 hours
BATCH = 50  # inbox entries read at a time
DRAIN_S = 5.0  # a lease's time for starting pushes: its last attempt may take the deadline more


@dataclass(frozen=True)
class PushSettings:
    subject: str = "mailto:push@localhost"  # VAPID_SUBJECT: who the push services may contact
    ttl_s: int = 86400
    timeout_s: float = 5.0  # the longest wait within an attempt
    deadline_s: float = 10.0  # an attempt's whole time
    policy: Policy = Policy()
    retry_base_s: float = 5.0
    retry_max_s: float = 3600.0
    max_attempts: int = 12

    def backoff_s(self, attempts: int) -> float:
        """The wait after `attempts` failures in a row."""
        return min(self.retry_max_s, self.retry_base_s * 2 ** min(attempts - 1, 30))


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
        it), `failed` (the push service did not take an entry: its retry waits its back-off),
        `waiting` (a retry not yet due) or `later` (the lease's time is up with entries left)."""
        sub = self.subs.get(player_id, sub_id)
        if sub is None:
            return "gone"
        failure = self.subs.failure(player_id, sub_id)
        if failure is not None and failure.get("next_at", 0) > time.time() * 1000:
            return "waiting"
        # The lease: DRAIN_S of starting attempts, the last one's deadline, 2 s to save its cursor.
        # A holder that died (a webhook worker SIGKILLed) holds the subscription no longer.
        started = time.monotonic()
        token = self.subs.lock(player_id, sub_id, int((DRAIN_S + self.settings.deadline_s + 2) * 1000))
        if token is None:
            return "busy"
        try:
            return self._drain(sub, token, started + DRAIN_S)
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
                    self.subs.remove(sub.player_id, sub.id, "key_ended")  # its key was revoked or replaced
                    return "gone"
                outcome = self._one(sub, entry_id, entry)
                if outcome == "gone":
                    return "gone"
                if outcome == "failed":
                    return "failed"
                if not self.subs.save(sub.player_id, sub.id, token, entry_id):
                    return "gone"  # deleted meanwhile (or the lease lost: its new holder goes on)
                cursor = entry_id

    def _one(self, sub: PushSubscription, entry_id: str, entry: dict) -> str:
        """`sent`, `skipped`, `gone` (removed) or `failed` (its retry scheduled)."""
        if not messages.pushed(entry):
            return "skipped"
        if time.time() * 1000 - int(entry.get("at") or 0) > self.settings.ttl_s * 1000:
            return "skipped"  # past its TTL: a push service would drop it unheard
        if self.players.stale_turns(sub.player_id, [(entry_id, entry)]):
            log.info("push subscription %s: your_turn of %s at %s skipped, its game moved on", sub.id,
                     entry.get("game_id"), entry.get("version"))
            return "skipped"
        try:
            outcome = self.push(sub, entry)
        except Exception as e:  # before sending (an endpoint py_vapid cannot sign for, say): a failure
            log.warning("push subscription %s: not sent (%s: %s)", sub.id, type(e).__name__, e)
            return self._failed(sub, None, f"{type(e).__name__}: {e}", refused=False)
        if self.attempted is not None:
            self.attempted(sub.endpoint, outcome.ok or outcome.status in (404, 410))
        if outcome.ok:
            if self._failures(sub) is not None:
                self.subs.succeeded(sub.player_id, sub.id)
            return "sent"
        if outcome.status in (404, 410):
            log.info("push subscription %s of %s: %s, removed", sub.id, sub.player_id, outcome.status)
            self.subs.remove(sub.player_id, sub.id, "gone", outcome.status)
            return "gone"
        if outcome.status is not None and 400 <= outcome.status < 500 and outcome.status != 429:
            log.warning("push subscription %s: %s refused (%s), skipped", sub.id, entry.get("type"), outcome.status)
            return self._failed(sub, outcome.status, outcome.excerpt or f"refused ({outcome.status})", refused=True)
        log.info("push subscription %s: not sent (%s %s)", sub.id, outcome.status, outcome.error)
        return self._failed(sub, outcome.status, outcome.error or f"status {outcome.status}", refused=False)

    def _failures(self, sub: PushSubscription) -> dict | None:
        return self.subs.failure(sub.player_id, sub.id)

    def _failed(self, sub: PushSubscription, status: int | None, error: str, refused: bool) -> str:
        """One more failure in a row: removed at the last allowed, else its retry scheduled after
        its back-off (a refusal: the entry is passed over, the next one sent now)."""
        attempts = ((self._failures(sub) or {}).get("attempts") or 0) + 1
        if attempts >= self.settings.max_attempts:
            reason = "refused" if refused else "failing"
            log.warning("push subscription %s of %s: %d failures in a row (%s), removed", sub.id, sub.player_id,
                        attempts, error)
            self.subs.remove(sub.player_id, sub.id, reason, status, error)
            return "gone"
        now_ms = int(time.time() * 1000)
        next_at = now_ms if refused else now_ms + int(self.settings.backoff_s(attempts) * 1000)
        self.subs.record_failure(sub.player_id, sub.id, attempts, next_at, error)
        return "skipped" if refused else "failed"

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
