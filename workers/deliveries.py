"""Webhook deliveries: RQ jobs on their own queue (WEBHOOK_QUEUE, worked by `python -m workers
webhooks`), so a slow receiver never delays a turn.

- `fan_out(game)`: after a subscribed game's append (api/webhooks/notify.py), one job per
  game delivers the news to each covering subscription itself for a short budget, and hands
  the rest to delivery jobs of their own. Its id is the game's
  (`whf-<game>`, unique): while one waits in the queue, later appends add nothing (it reads the
  stream when it runs); while one runs, one follow-up (`whf-<game>-next`) may wait behind it.
- `deliver(sub, game)`: under a per-(subscription, game) lock, sends the subscription's
  pending messages of that game in order (api/webhooks/messages.py derives them from the
  stream), each until it is answered 2xx: at least once, in order per game. A failure records
  the attempt and waits (exponential back-off from WEBHOOK_RETRY_BASE_S up to
  WEBHOOK_RETRY_MAX_S; the next messages of that game wait behind it); a receiver failing for
  WEBHOOK_DISABLE_AFTER_S (a day) has its subscription disabled, and marked so.
- `sweep()`: run by the reconciler each pass: enqueues the retries that are due, and the
  deliveries of stopped games whose subscriptions are behind (a fan-out lost with a process,
  a delivery job lost with its worker). Delivery job ids are deterministic and enqueued with
  RQ's unique guard, so a (subscription, game) has at most one delivery job at a time however
  often asked. A finished game every subscription has heard all of is retired: its progress
  keys expire after WEBHOOK_PROGRESS_TTL_S (a week).
"""
from __future__ import annotations

import logging
import os
import re
import time
from dataclasses import dataclass, field
from typing import Optional

import redis
from rq import Queue, get_current_job
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

from api import metrics
from api.errors import ApiError, UnknownGame
from api.games.repository import GameRepository
from api.webhooks import messages, sender
from api.webhooks.addresses import Policy
from api.webhooks.notify import Notifier
from api.webhooks.signing import headers as signed_headers
from api.webhooks.subscriptions import PROGRESS_TTL_S, Progress, SubscriptionStore
from events.redis_store import RedisEventStore
from events.store import StoreUnavailable

from .queueing import age_s

log = logging.getLogger(__name__)

DEFAULT_QUEUE = "webhooks"
JOB_TIMEOUT_S = 600
ROUNDS = 20  # drains per job (each re-checks the stream after releasing the lock)
LOST_AFTER_S = 120
DRAIN_SECONDS = 20  # well within the lock's minute (subscriptions.LOCK_TTL_MS)
FAN_OUT_INLINE_S = 2.0  # a fan-out job delivers itself for this long, then queues the rest


@dataclass(frozen=True)
class Settings:
    timeout_s: float = 5.0
    retry_base_s: float = 10.0
    retry_max_s: float = 3600.0
    disable_after_s: float = 86400.0
    policy: Policy = field(default_factory=Policy)
    progress_ttl_s: int = PROGRESS_TTL_S

    @classmethod
    def from_env(cls, env=None) -> "Settings":
        env = os.environ if env is None else env
        return cls(float(env.get("WEBHOOK_TIMEOUT_S", 5)), float(env.get("WEBHOOK_RETRY_BASE_S", 10)),
                   float(env.get("WEBHOOK_RETRY_MAX_S", 3600)), float(env.get("WEBHOOK_DISABLE_AFTER_S", 86400)),
                   Policy.from_env(env), int(env.get("WEBHOOK_PROGRESS_TTL_S", PROGRESS_TTL_S)))

    def backoff_s(self, attempts: int) -> float:
        """The wait after the n-th failed attempt: base, 2 base, 4 base, ... up to the maximum
        (10 s doubling to an hour: 30 attempts in the first day)."""
        return min(self.retry_max_s, self.retry_base_s * 2 ** min(attempts - 1, 30))


def _now_ms() -> int:
    return int(time.time() * 1000)


def delivery_job_id(prefix: str, sub_id: str, game_id: str) -> str:
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', prefix)}whd-{sub_id}-{game_id}"


def fan_out_job_id(prefix: str, game_id: str, follow_up: bool = False) -> str:
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', prefix)}whf-{game_id}" + ("-next" if follow_up else "")


class Deliveries:
    """The queue's side: enqueue fan-outs and deliveries (web processes, turn workers, the
    reconciler), and the jobs' work (webhook workers)."""

    def __init__(self, connection, prefix: str = "", queue_name: str = DEFAULT_QUEUE,
                 settings: Optional[Settings] = None, queue_connection=None):
        # `connection`: the store's (maybe a cluster); `queue_connection`: RQ's (a plain Redis;
        # by default the same): events/connection.py.
        self.connection = queue_connection or connection
        self.prefix = prefix
        self.queue = Queue(queue_name, connection=self.connection)
        self.subs = SubscriptionStore(connection, prefix)
        self.events = RedisEventStore(connection, prefix)
        self.games = GameRepository(self.events)
        self.settings = settings or Settings.from_env()
        self.seen: dict[str, int] = {}  # the sweep's: game -> version at the last pass
        self.judged: dict[str, int] = {}  # the sweep's: game -> version found caught up
        self._connections: Optional[sender.Connections] = None

    # ---- enqueueing ----------------------------------------------------------------------
    def notifier(self) -> Notifier:
        """The GameService's after-append listener."""
        return Notifier(self.subs, self.fan_out)

    def fan_out(self, game_id: str) -> bool:
        """Queues the game's fan-out unless one is waiting already (it will read the newest
        stream). One that runs may have read the stream before this append: a follow-up then
        waits behind it. False when nothing new was queued."""
        for follow_up in (False, True):
            jid = fan_out_job_id(self.prefix, game_id, follow_up)
            try:
                self.queue.enqueue_call("workers.deliveries.fan_out_job", args=(self.prefix, game_id), job_id=jid,
                                        unique=True, timeout=60, result_ttl=0, failure_ttl=60,
                                        description=f"webhook fan-out of {game_id}")
                return True
            except DuplicateJobError:
                if self._waiting(jid):
                    return False
        return False  # both running: the sweep repairs a miss (a delivery job re-reads the stream anyway)

    def _waiting(self, jid: str) -> bool:
        try:
            return Job.fetch(jid, connection=self.connection).get_status(refresh=False) in (
                JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED)
        except NoSuchJobError:
            return False

    def ensure(self, sub_id: str, game_id: str, repair: bool = False) -> bool:
        jid = delivery_job_id(self.prefix, sub_id, game_id)
        try:
            self._enqueue(jid, sub_id, game_id)
            return True
        except DuplicateJobError:
            if not repair or not self._lost(jid):
                return False
        try:
            Job.fetch(jid, connection=self.connection).delete()
        except NoSuchJobError:
            pass
        try:
            self._enqueue(jid, sub_id, game_id)
            return True
        except DuplicateJobError:
            return False

    def _enqueue(self, jid, sub_id, game_id):
        self.queue.enqueue_call("workers.deliveries.deliver_job", args=(self.prefix, sub_id, game_id), job_id=jid,
                                unique=True, timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=3600,
                                description=f"webhook {sub_id} for {game_id}")

    def _lost(self, jid: str) -> bool:
        try:
            job = Job.fetch(jid, connection=self.connection)
        except NoSuchJobError:
            return True
        status = job.get_status(refresh=False)
        if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED, JobStatus.FINISHED):
            return True
        if status == JobStatus.QUEUED:
            return age_s(job.enqueued_at) > 5 and jid not in self.queue.get_job_ids()
        return status == JobStatus.STARTED and age_s(job.started_at) > LOST_AFTER_S

    def redeliver(self, sub_id: str, message_id: str) -> None:
        self.queue.enqueue_call("workers.deliveries.redeliver_job", args=(self.prefix, sub_id, message_id),
                                timeout=60, result_ttl=0, failure_ttl=3600,
                                description=f"webhook {sub_id}: {message_id} again")

    # ---- the jobs' work ------------------------------------------------------------------
    def fan_out_now(self, game_id: str) -> int:
        """Delivers the game's news to its subscriptions in this job, one after the other, for
        FAN_OUT_INLINE_S; those left then get delivery jobs of their own. Inline, because a
        job's own bookkeeping in RQ cost twice the delivery it carried (measured: bench/README.md);
        a subscription waiting out a back-off costs a look at its progress, and a slow receiver
        delays the game's other subscriptions by at most the budget and one timeout. Returns
        how many were delivered here or queued."""
        deadline = time.monotonic() + FAN_OUT_INLINE_S
        done = 0
        for sub_id in self.subs.covering(game_id):
            left = deadline - time.monotonic()
            if left > 0:
                try:
                    self.deliver(sub_id, game_id, rounds=1, drain_s=left)
                    done += 1
                except UnknownGame:
                    raise  # gone: nothing more to tell anyone (fan_out_job retires it)
                except (redis.ConnectionError, redis.TimeoutError, StoreUnavailable):
                    raise
                except Exception:  # noqa: BLE001 - one subscription's trouble must not stop the others'
                    log.exception("webhook %s for game %s: inline delivery failed", sub_id, game_id)
                    done += self.ensure(sub_id, game_id)
            else:
                done += self.ensure(sub_id, game_id)
        return done

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
            token = self.subs.lock(game_id, sub_id)
            if token is None:
                return "busy"  # the holder re-checks the stream after releasing the lock
            try:
                outcome = self._drain(sub, game_id, drain_s)
            finally:
                self.subs.unlock(game_id, sub_id, token)
            if outcome != "caught_up":
                return outcome
            progress = self.subs.progress(game_id, sub_id)
            if progress is None or self.events.version(game_id) < progress.version:
                return outcome
        self.ensure(sub_id, game_id)  # a very busy game: the rest in a new job, behind others
        return outcome

    def _drain(self, sub, game_id: str, drain_s: float = DRAIN_SECONDS) -> str:
        """Sends the pending messages in order on one kept-alive connection; progress and the
        attempts log are written once per batch (a crash in between sends a few messages
        again, under the same ids: at least once)."""
        connections = self.connections()
        records: list = []
        # The lock outlives a drain: a drain stops after DRAIN_SECONDS (the caller re-locks).
        deadline = time.monotonic() + drain_s
        try:
            while time.monotonic() < deadline:
                progress = self.subs.progress(game_id, sub.id)
                if progress is None:
                    return "inactive"
                if progress.next_at > _now_ms():
                    return "waiting"
                pending, last = messages.pending(self.games, self.events, sub, game_id, progress.version,
                                                 progress.index)
                if last is None:
                    return "caught_up"
                for message in pending:
                    if not self._send(sub, message, progress, connections, records):
                        return "waiting" if sub.status == "active" else "disabled"
                    progress.version, progress.index = message.version, message.index + 1
                    progress.attempts, progress.failing_since, progress.next_at = 0, None, 0
                    if time.monotonic() > deadline:
                        break
                else:
                    progress.version, progress.index = last + 1, 0
                self.subs.save_progress(game_id, sub.id, progress)
                self._flush(sub.id, records)
            return "caught_up"  # for now: deliver() looks again
        finally:
            self._flush(sub.id, records)

    def connections(self) -> sender.Connections:
        """The worker's kept-alive connections, shared by its jobs (one job at a time: a
        SimpleWorker's), so consecutive deliveries to a receiver reuse one connection."""
        if self._connections is None:
            self._connections = sender.Connections(self.settings.policy, self.settings.timeout_s)
        return self._connections

    def _flush(self, sub_id: str, records: list) -> None:
        if records:
            self.subs.record_attempts(sub_id, records)
            records.clear()

    def _send(self, sub, message: messages.Message, progress: Optional[Progress], connections: sender.Connections,
              records: list, manual: bool = False) -> bool:
        """One attempt; on failure (unless manual) the back-off or the subscription's end."""
        now = time.time()
        outcome = connections.post(sub.url, message.body.encode(),
                                   signed_headers(sub.secret, message.id, message.body, now))
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
        if manual or progress is None:
            return False
        now_ms = int(now * 1000)
        progress.attempts = attempt
        progress.failing_since = progress.failing_since or now_ms
        if now_ms - progress.failing_since >= self.settings.disable_after_s * 1000:
            self._disable(sub, f"failing since {progress.failing_since} (ms since the epoch): "
                               f"{attempt} attempts of {message.id} failed, the last: "
                               f"{outcome.error or outcome.status}")
        else:
            progress.next_at = now_ms + int(self.settings.backoff_s(attempt) * 1000)
            self.subs.retry_at(sub.id, message.game_id, progress.next_at)
        self.subs.save_progress(message.game_id, sub.id, progress)
        return False

    def _disable(self, sub, reason: str) -> None:
        sub.status, sub.disabled_at, sub.disabled_reason = "disabled", _now_ms(), reason
        self.subs.update(sub)
        log.warning("webhook %s disabled: %s", sub.id, reason)

    def redeliver_now(self, sub_id: str, message_id: str) -> str:
        """A message sent again on request (once, out of the game's order: the client asked)."""
        sub = self.subs.get(sub_id)
        parsed = messages.parse_message_id(message_id)
        if sub is None or parsed is None:
            return "inactive"
        game_id, version, kind = parsed
        found, _ = messages.pending(self.games, self.events, sub, game_id, version, 0, limit=1)
        chosen = [m for m in found if m.version == version and m.kind == kind]
        if not chosen:
            return "unknown"
        connections, records = sender.Connections(self.settings.policy, self.settings.timeout_s), []
        try:
            return "delivered" if self._send(sub, chosen[0], None, connections, records, manual=True) else "failed"
        finally:
            connections.close()
            self._flush(sub.id, records)

    # ---- the reconciler's pass -----------------------------------------------------------
    def sweep(self) -> int:
        """Enqueues due retries and the deliveries of stopped games that are behind; returns
        how many jobs were (re)enqueued."""
        queued = 0
        now = _now_ms()
        for sub_id, game_id in self.subs.due_retries(now):
            try:
                queued += self.ensure(sub_id, game_id, repair=True)
            except (redis.ConnectionError, redis.TimeoutError):
                raise
            except Exception:  # noqa: BLE001
                log.exception("webhook sweep: the retry of %s in %s could not be queued", sub_id, game_id)
            self.subs.retry_taken(sub_id, game_id)
        games = self.subs.subscribed_games()
        versions = self.events.versions(games) if games else {}
        for game_id in games:
            version = versions[game_id]
            last, self.seen[game_id] = self.seen.get(game_id), version
            if last != version or self.judged.get(game_id) == version:
                continue  # moving (its fan-out runs), or already found caught up
            try:
                queued += self._catch_up(game_id, version, now)
            except ApiError:
                self.subs.retire_game(game_id, self.settings.progress_ttl_s)  # gone (FINISHED_TTL)
            except (redis.ConnectionError, redis.TimeoutError, StoreUnavailable):
                raise
            except Exception:  # noqa: BLE001 - one game's trouble must not stop the others' repair
                log.exception("webhook sweep: game %s could not be judged", game_id)
        if len(self.seen) > len(games):
            kept = set(games)
            self.seen = {g: v for g, v in self.seen.items() if g in kept}
            self.judged = {g: v for g, v in self.judged.items() if g in kept}
        return queued

    def _catch_up(self, game_id: str, version: int, now: int) -> int:
        subs = self.subs.covering(game_id)
        progress = self.subs.progresses(game_id, subs)
        behind = [s for s in subs if s in progress and progress[s].version <= version]
        game = None
        if behind:
            game = self.games.load(game_id)
            if game.setup_version is None:
                behind = []  # waiting for people: nothing to tell before its setup
        queued = 0
        for sub_id in behind:
            if progress[sub_id].next_at <= now and not self.subs.locked(game_id, sub_id):
                queued += self.ensure(sub_id, game_id, repair=True)
        if not behind:
            self.judged[game_id] = version
            if not subs:
                self.subs.forget_game(game_id)
            elif (game or self.games.load(game_id)).finished:
                # Nothing more will happen in it: its keys expire, Redis does not keep every game.
                self.subs.retire_game(game_id, self.settings.progress_ttl_s)
        return queued


def _failure_kind(outcome: sender.Outcome) -> str:
    if outcome.status is not None:
        return "http_error"
    if outcome.error and outcome.error.startswith("refused"):
        return "refused"
    return "timeout" if outcome.error and outcome.error.startswith("timeout") else "network_error"


# ---- the RQ jobs ----------------------------------------------------------------------------

def _context(prefix: str) -> Deliveries:
    from api import wiring  # not at the top: api/wiring.py builds its graph from this module

    job = get_current_job()
    return wiring.for_job(job.connection, prefix, webhook_queue=job.origin).deliveries


def fan_out_job(prefix: str, game_id: str) -> int:
    # Never fails, as deliver_job: a failed job would keep the game's fan-out id taken.
    deliveries = _context(prefix)
    try:
        return deliveries.fan_out_now(game_id)
    except UnknownGame:
        deliveries.subs.retire_game(game_id, deliveries.settings.progress_ttl_s)
        return 0
    except Exception:  # noqa: BLE001
        log.exception("webhook fan-out of game %s failed; the reconciler will catch up", game_id)
        return 0


def deliver_job(prefix: str, sub_id: str, game_id: str) -> str:
    # A delivery job never fails: a failed job would keep its id (and so the next delivery of
    # this subscription and game) taken for failure_ttl; what it did not send, the sweep sends.
    deliveries = _context(prefix)
    try:
        return deliveries.deliver(sub_id, game_id)
    except UnknownGame:
        # Gone (FINISHED_TTL): nothing more to tell; its webhook keys expire too.
        deliveries.subs.retire_game(game_id, deliveries.settings.progress_ttl_s)
        return "gone"
    except Exception:  # noqa: BLE001
        log.exception("webhook %s for game %s: delivery failed; the reconciler will try again", sub_id, game_id)
        return "error"


def redeliver_job(prefix: str, sub_id: str, message_id: str) -> str:
    return _context(prefix).redeliver_now(sub_id, message_id)
