"""One subscription's pending pushes: under its lease, the player's inbox entries after its
cursor, in order, each pushed through its kind's transport (transport.py: Web Push, webpush.py:
encrypted to the browser's keys with RFC 8291's aes128gcm through pywebpush, signed with the
server's VAPID key; FCM, fcm.py; APNs, apns.py) until the service takes it, the cursor saved
after each. The same rules for every transport:

- taken (2xx): sent; the cursor moves on, the subscription's failures are forgotten.
- gone (Web Push 404 or 410, RFC 8030 7.3: the browser unsubscribed, or the service expired it;
  FCM `UNREGISTERED` or `INVALID_ARGUMENT`; APNs 410 `Unregistered` or 400 `BadDeviceToken`):
  removed (`gone`, or `bad_token`, shown to its player), nothing more is sent to it.
- 429, 5xx, a timeout, the network, an error before sending (signing, encrypting): not sent;
  the cursor stays, and the subscription waits PUSH_RETRY_BASE_S, doubled at each failure in a
  row up to PUSH_RETRY_MAX_S, or the service's `Retry-After` when longer (its failures in Redis:
  api/push/subscriptions.py); the reconciler's
  sweep queues its retry when due (workers/push/__init__.py). PUSH_MAX_ATTEMPTS failures in a row:
  removed (`failing`). An entry older than its TTL is skipped: the push service would drop it.
- any other 4xx (a payload it refuses, a VAPID key it does not know): that entry is skipped,
  not retried; PUSH_MAX_ATTEMPTS refusals in a row: removed (`refused`).
- a `your_turn` whose game has moved past it (the player's mark of the game is newer:
  Players.stale_turns) is skipped, not sent: a device hears no turn that is no longer its own,
  nor an older turn after a newer one (the payload carries its `version`).
- the player key that registered the subscription was revoked or replaced: it is removed
  (`key_ended`), before anything more is sent (checked before each push).
- a reminder (`clock_warning`) over the etiquette's caps (api/push/reminders.py: at most
  PUSH_REMINDERS_PER_GAME per game before its timeout, PUSH_REMINDERS_PER_DAY per player in 24
  hours) is skipped, not sent; decided once per entry, the same for every device.

Every Web Push attempt ends within its deadline whatever the push service does (api/webhooks/sender.py's
Connections: the lookup, connect, TLS and the whole answer are bounded, and the address it
resolves to is checked against the same policy as webhooks'); FCM's and APNs' are bounded by
PUSH_TIMEOUT_S per step (httpx), their hosts the operator's settings."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from api.players.accounts import Players
from api.push import messages
from api.push.reminders import Reminders, is_reminder
from api.push.subscriptions import WEB_PUSH, PushSubscription, PushSubscriptions
from api.webhooks.addresses import Policy

from .transport import Transport

log = logging.getLogger(__name__)

BATCH = 50  # inbox entries read at a time


@dataclass(frozen=True)
class PushSettings:
    subject: str = "mailto:push@localhost"  # VAPID_SUBJECT: who the push services may contact
    ttl_s: int = 86400
    timeout_s: float = 5.0  # the longest wait within an attempt
    deadline_s: float = 10.0  # an attempt's whole time
    drain_s: float = 5.0  # a lease's time for starting pushes: its last attempt may take the deadline more
    queued_grace_s: float = 5.0  # PUSH_QUEUED_GRACE_S: a push job queued in name only this long is lost
    policy: Policy = Policy()
    retry_base_s: float = 5.0
    retry_max_s: float = 3600.0
    max_attempts: int = 12
    reminders_per_game: int = 2  # PUSH_REMINDERS_PER_GAME (api/push/reminders.py)
    reminders_per_day: int = 5  # PUSH_REMINDERS_PER_DAY

    def backoff_s(self, attempts: int) -> float:
        """The wait after `attempts` failures in a row."""
        return min(self.retry_max_s, self.retry_base_s * 2 ** min(attempts - 1, 30))


class Sender:
    """Sends subscriptions' pending pushes (thread-safe: a connection cache per thread)."""

    def __init__(self, subs: PushSubscriptions, players: Players, transports: Mapping[str, Transport],
                 settings: PushSettings, attempted=None):
        self.subs, self.players, self.transports, self.settings = subs, players, transports, settings
        self.attempted = attempted  # (url, ok): the dispatcher's trust and parking
        self.reminders = Reminders(players, settings.reminders_per_game, settings.reminders_per_day)
        self._stranded: dict[tuple[str, str], str] = {}  # (player, subscription) -> a lease not released
        self._stranded_lock = threading.Lock()

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
        # The lease: drain_s of starting attempts, the last one's deadline, 2 s to save its cursor.
        # A holder that died (a webhook worker SIGKILLed) holds the subscription no longer.
        started = time.monotonic()
        self._release_stranded(player_id, sub_id)
        token = self.subs.lock(player_id, sub_id, int((self.settings.drain_s + self.settings.deadline_s + 2) * 1000))
        if token is None:
            return "busy"
        try:
            return self._drain(sub, token, started + self.settings.drain_s)
        finally:
            try:
                self.subs.unlock(player_id, sub_id, token)
            except Exception:
                # Redis went away mid-send: the lease outlives the outage. Its token is kept, so
                # this sender frees it once Redis is back, instead of every sender finding the
                # subscription "busy" until the lease expires (seconds of pushes held back).
                with self._stranded_lock:
                    self._stranded[(player_id, sub_id)] = token
                raise

    def _release_stranded(self, player_id: str, sub_id: str) -> None:
        """Frees a lease of this sender's whose release failed (only its holder knows its token)."""
        with self._stranded_lock:
            token = self._stranded.pop((player_id, sub_id), None)
        if token is not None:
            try:
                self.subs.unlock(player_id, sub_id, token)  # compare-and-delete: a lease since, not ours, stays
            except Exception:
                with self._stranded_lock:
                    self._stranded.setdefault((player_id, sub_id), token)
                raise

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

    def _one(self, sub: PushSubscription, entry_id: str, entry: dict[str, Any]) -> str:
        """`sent`, `skipped`, `gone` (removed) or `failed` (its retry scheduled)."""
        if not messages.pushed(entry):
            return "skipped"
        if time.time() * 1000 - int(entry.get("at") or 0) > self.settings.ttl_s * 1000:
            return "skipped"  # past its TTL: a push service would drop it unheard
        if self.players.stale_turns(sub.player_id, [(entry_id, entry)]):
            log.info("push subscription %s: your_turn of %s at %s skipped, its game moved on", sub.id,
                     entry.get("game_id"), entry.get("version"))
            return "skipped"
        if is_reminder(entry) and not self.reminders.allowed(sub.player_id, entry_id, entry):
            log.info("push subscription %s: reminder of %s held back (the reminders' caps)", sub.id,
                     entry.get("game_id"))
            return "skipped"
        transport = self.transports.get(sub.kind)
        if transport is None:  # its kind's credentials were taken away: kept, tried after the back-off
            return self._failed(sub, None, f"no {sub.kind} transport configured", refused=False)
        try:
            answer = transport.send(sub, entry)
        except Exception as e:  # before sending (an endpoint py_vapid cannot sign for, say): a failure
            log.warning("push subscription %s: not sent (%s: %s)", sub.id, type(e).__name__, e)
            return self._failed(sub, None, f"{type(e).__name__}: {e}", refused=False)
        if self.attempted is not None:
            self.attempted(transport.destination(sub), answer.ok or answer.gone is not None)
        if answer.ok:
            if self._failures(sub) is not None:
                self.subs.succeeded(sub.player_id, sub.id)
            return "sent"
        if answer.gone is not None:
            log.info("push subscription %s of %s: %s %s, removed (%s)", sub.id, sub.player_id, answer.status,
                     answer.error, answer.gone)
            # a native service's word (UNREGISTERED, BadDeviceToken) is its player's detail
            self.subs.remove(sub.player_id, sub.id, answer.gone, answer.status,
                             "" if sub.kind == WEB_PUSH else answer.error)
            return "gone"
        if answer.status is not None and 400 <= answer.status < 500 and answer.status != 429 and not answer.transient:
            log.warning("push subscription %s: %s refused (%s), skipped", sub.id, entry.get("type"), answer.status)
            return self._failed(sub, answer.status, answer.error or f"refused ({answer.status})", refused=True)
        log.info("push subscription %s: not sent (%s %s)", sub.id, answer.status, answer.error)
        return self._failed(sub, answer.status, answer.error or f"status {answer.status}", refused=False,
                            retry_after_s=answer.retry_after_s)

    def _failures(self, sub: PushSubscription) -> dict | None:
        return self.subs.failure(sub.player_id, sub.id)

    def _failed(self, sub: PushSubscription, status: int | None, error: str, refused: bool,
                retry_after_s: float | None = None) -> str:
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
        wait_s = max(self.settings.backoff_s(attempts), min(retry_after_s or 0.0, self.settings.retry_max_s))
        next_at = now_ms if refused else now_ms + int(wait_s * 1000)
        self.subs.record_failure(sub.player_id, sub.id, attempts, next_at, error)
        return "skipped" if refused else "failed"
