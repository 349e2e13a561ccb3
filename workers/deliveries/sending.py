"""One subscription's delivery of one game: its pending messages sent in order under the
(subscription, game) lock, each until answered 2xx; a failure's back-off (jittered, or what a
429's or 503's Retry-After asks, bounded), or the subscription disabled (at once on a 410 Gone,
or once it has failed for WEBHOOK_DISABLE_AFTER_S); and a message sent again on request."""
from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Any

from api import metrics
from api.games.repository import GameRepository
from api.webhooks import messages, sender
from api.webhooks.signing import headers as signed_headers
from api.webhooks.subscriptions import Progress
from events.store import EventStore

from .enqueueing import Enqueueing
from .leases import Lease, Leases
from .settings import Settings, now_ms

log = logging.getLogger(__name__)

ROUNDS = 20  # drains per job (each re-checks the stream after releasing the lock)
DRAIN_SECONDS = 20


class Sending(Enqueueing):
    """What a delivery job (or a fan-out, inline) sends, over the worker's kept-alive connections."""

    # set by Deliveries.__init__
    events: EventStore
    games: GameRepository
    settings: Settings
    leases: Leases
    observer: Callable[[str, bool], None] | None  # told each attempt's URL and success (the dispatcher)
    rating_changes: messages.ChangesOf  # a game's counted rating changes (game.rated)
    rating_log: messages.RatingLog  # a player's re-ratings (rating.changed)
    news_log: messages.NewsLog  # a player's news (tournaments, challenges, direct messages)
    _local: threading.local  # each thread's kept-alive connections

    def deliver(self, sub_id: str, game_id: str, rounds: int = ROUNDS, drain_s: float = DRAIN_SECONDS) -> str:
        """Delivers what the subscription is owed of the game (for at most `rounds` drains of
        `drain_s`; what is left then goes to a delivery job); says how it ended."""
        outcome = "caught_up"
        for _ in range(rounds):
            sub = self.subs.get(sub_id)
            if sub is None:
                # Deleted, perhaps while an append covered a game for it: nothing may stay behind
                # (the sweep would find its progress behind forever).
                self.subs.drop(sub_id, game_id)
                return "inactive"
            if sub.status != "active" or not self.subs.covers(sub, game_id):
                return "inactive"
            if self.subs.key_ended(sub):  # made with a player key since revoked or replaced
                self.subs.remove(sub)
                return "inactive"
            lease = self.leases.take(game_id, sub_id)
            if lease is None:
                return "busy"  # the holder re-checks the stream after releasing its lease
            try:
                outcome = self._drain(sub, game_id, drain_s, lease)
            finally:
                self.leases.release(lease)
            if outcome != "caught_up":
                return outcome
            progress = self.subs.progress(game_id, sub_id)
            if progress is None or messages.is_player_stream(game_id):  # (re-ratings, news: caught up already)
                return outcome
            if self.events.version(game_id) < progress.version:
                return outcome
        self.ensure(sub_id, game_id)  # a very busy game: the rest in a new job, behind others
        return outcome

    def _drain(self, sub, game_id: str, drain_s: float, lease: Lease) -> str:
        """Sends the pending messages in order on one kept-alive connection, each only while
        the lease is surely held; progress (fenced by the lease) and the attempts log are
        written once per batch (a crash in between sends a few messages again, under the same
        ids: at least once, and never an older message after a newer one's first sending).
        "lost" when the lease was: another holder may be sending."""
        connections = self.connections()
        records: list = []
        # A drain stops after drain_s, so that the pair's successors (other games' and
        # subscriptions') get their turn; the caller takes the lease again.
        deadline = time.monotonic() + drain_s
        try:
            while time.monotonic() < deadline:
                progress = self.subs.progress(game_id, sub.id)
                if progress is None:
                    return "inactive"
                if progress.next_at > now_ms():
                    return "waiting"
                if self.subs.key_ended(sub):  # its key revoked while it drains: not one batch more
                    return "inactive"
                if messages.is_rating_stream(game_id):  # a player's re-ratings, not a game
                    pending, last = messages.rating_pending(sub, game_id, progress.version, self.rating_log)
                elif messages.is_player_stream(game_id):  # a player's news
                    pending, last = messages.news_pending(sub, game_id, progress.version, self.news_log)
                else:
                    pending, last = messages.pending(self.games, self.events, sub, game_id, progress.version,
                                                     progress.index, changes_of=self.rating_changes)
                if last is None:
                    return "caught_up"
                for message in pending:
                    if not lease.held():
                        return "lost"
                    if not self._send(sub, message, progress, connections, records, lease=lease):
                        return "lost" if lease.lost else "waiting" if sub.status == "active" else "disabled"
                    progress.version, progress.index = message.version, message.index + 1
                    progress.attempts, progress.failing_since, progress.next_at = 0, None, 0
                    if time.monotonic() > deadline:
                        break
                else:
                    progress.version, progress.index = last + 1, 0
                if not self.subs.save_progress(game_id, sub.id, progress, lease.token):
                    lease.lost = True
                    return "lost"
                self._flush(sub.id, records)
            return "caught_up"  # for now: deliver() looks again
        finally:
            self._flush(sub.id, records)

    def connections(self) -> sender.Connections:
        """This thread's kept-alive connections (a Connections is one thread's), kept across
        its deliveries, so consecutive deliveries to a receiver reuse one connection."""
        kept = getattr(self._local, "connections", None)
        if kept is None:
            kept = self._local.connections = self._new_connections(max_open=8)
        return kept

    def _new_connections(self, max_open: int = 64) -> sender.Connections:
        return sender.Connections(self.settings.policy, self.settings.timeout_s, self.settings.deadline_s,
                                  max_open=max_open)

    def _flush(self, sub_id: str, records: list) -> None:
        if records:
            self.subs.record_attempts(sub_id, records)
            records.clear()

    def _send(self, sub, message: messages.Message, progress: Progress | None, connections: sender.Connections,
              records: list, manual: bool = False, lease: Lease | None = None) -> bool:
        """One attempt; on failure (unless manual) the back-off (saved under the lease) or the
        subscription's end."""
        now = time.time()
        outcome = connections.post(sub.url, message.body.encode(),
                                   signed_headers(sub.secret, message.id, message.body, now))
        if self.observer is not None:
            self.observer(sub.url, outcome.ok)
        attempt = (progress.attempts + 1) if progress is not None else 1
        records.append({"delivery": message.id, "event": message.kind, "game_id": message.game_id,
                        "version": message.version, "attempt": attempt, "at": int(now * 1000),
                        "status": "delivered" if outcome.ok else "failed", "response_code": outcome.status,
                        "duration_ms": outcome.duration_ms, "error": outcome.error,
                        "response_excerpt": outcome.excerpt})
        metrics.webhook_deliveries.labels("delivered" if outcome.ok else _failure_kind(outcome)).inc()
        if outcome.ok:
            metrics.webhook_delay.observe(max(0.0, now - message.at / 1000))
            return True
        now_ms = int(now * 1000)
        if outcome.status == 410:  # Gone: the receiver says so for good (Standard Webhooks), manual or not
            self._disable(sub, f"the receiver answered 410 Gone to {message.id} at {now_ms} (ms since the epoch)")
            return False
        if manual or progress is None:
            return False
        progress.attempts = attempt
        progress.failing_since = progress.failing_since or now_ms
        if now_ms - progress.failing_since >= self.settings.disable_after_s * 1000:
            self._disable(sub, f"failing since {progress.failing_since} (ms since the epoch): "
                               f"{attempt} attempts of {message.id} failed, the last: "
                               f"{outcome.error or outcome.status}")
        else:
            wait = (self.settings.backoff_s(attempt) if outcome.retry_after_s is None
                    else self.settings.asked_wait_s(outcome.retry_after_s))
            progress.next_at = now_ms + int(wait * 1000)
            self.subs.retry_at(sub.id, message.game_id, progress.next_at)
        if not self.subs.save_progress(message.game_id, sub.id, progress, lease.token if lease else None):
            assert lease is not None
            lease.lost = True
        return False

    def _disable(self, sub, reason: str) -> None:
        sub.status, sub.disabled_at, sub.disabled_reason = "disabled", now_ms(), reason
        self.subs.update(sub)
        log.warning("webhook %s disabled: %s", sub.id, reason)

    def redeliver_now(self, sub_id: str, message_id: str) -> str:
        """A message sent again on request (once, out of the game's order: the client asked)."""
        sub = self.subs.get(sub_id)
        news = messages.parse_news_id(message_id)
        parsed = news or messages.parse_message_id(message_id)
        if sub is None or parsed is None:
            return "inactive"
        game_id, version, kind = parsed
        place = messages.place_of(version, kind)
        if news is not None:  # a player's news: its log, as its deliveries read it
            found, _ = messages.news_pending(sub, game_id, place, self.news_log)
        else:
            found, _ = messages.pending(self.games, self.events, sub, game_id, place, 0, limit=1,
                                        changes_of=self.rating_changes)
        chosen = [m for m in found if m.version == place and m.kind == kind]
        if not chosen:
            return "unknown"
        connections = self._new_connections()
        records: list[dict[str, Any]] = []
        try:
            return "delivered" if self._send(sub, chosen[0], None, connections, records, manual=True) else "failed"
        finally:
            connections.close()
            self._flush(sub.id, records)


def _failure_kind(outcome: sender.Outcome) -> str:
    error = outcome.error or ""
    if error.startswith("timeout"):  # an answer's headers may have come before the deadline passed
        return "timeout"
    if outcome.status is not None:
        return "http_error"
    return "refused" if error.startswith("refused") else "network_error"
