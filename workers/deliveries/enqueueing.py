"""The queue's side of the deliveries: fan-outs and delivery jobs enqueued (by web processes,
turn workers, the reconciler) under deterministic ids, at most one waiting per game or per
(subscription, game), and a lost one told from a running one."""
from __future__ import annotations

import re
from collections.abc import Callable

import redis
from rq import Queue

from api.webhooks.notify import Notifier
from api.webhooks.subscriptions import SubscriptionStore

from ..queueing import FOLLOW_UP, enqueue_unique, enqueue_with_follow_up, lost_job

JOB_TIMEOUT_S = 600
LOST_AFTER_S = 120


def delivery_job_id(prefix: str, sub_id: str, game_id: str) -> str:
    # A player's stream (`~rating.<id>`, `~news.<id>`) holds characters RQ refuses in an id.
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', prefix)}whd-{sub_id}-{re.sub(r'[^A-Za-z0-9_-]', '_', game_id)}"


def fan_out_job_id(prefix: str, game_id: str, follow_up: bool = False) -> str:
    return f"{re.sub(r'[^A-Za-z0-9_-]', '_', prefix)}whf-{game_id}" + (FOLLOW_UP if follow_up else "")


class Enqueueing:
    """Fan-outs and deliveries put on the queue. The jobs are named by their path, which jobs
    already queued keep: they stay in workers/deliveries/__init__.py."""

    # set by Deliveries.__init__
    connection: redis.Redis  # RQ's (a plain Redis)
    prefix: str
    queue: Queue
    subs: SubscriptionStore

    def notifier(self, hint: Callable[[str, int], bool | None] | None = None) -> Notifier:
        """The GameService's after-append listener; `hint`: its store's watched_hint."""
        return Notifier(self.subs, self.fan_out, hint)

    def fan_out(self, game_id: str) -> bool:
        """Queues the game's fan-out unless one is waiting already (it will read the newest
        stream). One that runs may have read the stream before this append: a follow-up then
        waits behind it. False when nothing new was queued (both running: the sweep repairs a
        miss; a delivery job re-reads the stream anyway)."""
        return enqueue_with_follow_up(self.queue, fan_out_job_id(self.prefix, game_id),
                                      "jobs.fan_out_job", (self.prefix, game_id), 60,
                                      f"webhook fan-out of {game_id}")

    def ensure(self, sub_id: str, game_id: str, repair: bool = False) -> bool:
        jid = delivery_job_id(self.prefix, sub_id, game_id)
        return enqueue_unique(lambda: self._enqueue(jid, sub_id, game_id), jid, self.connection,
                              self._lost if repair else None)

    def _enqueue(self, jid, sub_id, game_id):
        self.queue.enqueue_call("jobs.deliver_job", args=(self.prefix, sub_id, game_id), job_id=jid,
                                unique=True, timeout=JOB_TIMEOUT_S, result_ttl=0, failure_ttl=3600,
                                description=f"webhook {sub_id} for {game_id}")

    def _lost(self, jid: str) -> bool:
        return lost_job(self.queue, jid, LOST_AFTER_S)

    def redeliver(self, sub_id: str, message_id: str) -> None:
        self.queue.enqueue_call("jobs.redeliver_job", args=(self.prefix, sub_id, message_id),
                                timeout=60, result_ttl=0, failure_ttl=3600,
                                description=f"webhook {sub_id}: {message_id} again")
