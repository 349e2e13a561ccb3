"""Enqueueing turns with deterministic job ids, so a turn is queued once however often asked.

A job id names the game, the version the turn is due at and the actor:
`turn-<game>-<version>-<actor>`. RQ refuses a second job with that id while the first
exists; `ensure(..., repair=True)` (the reconciler) replaces one that failed or was lost with
its worker.
"""
from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import UTC
from typing import Any

from rq import Queue
from rq.exceptions import DuplicateJobError, NoSuchJobError
from rq.job import Job, JobStatus

DEFAULT_QUEUE = "turns"
JOB_TIMEOUT_S = 60
# A job started this long ago whose game has not moved is taken as lost with its worker.
LOST_AFTER_S = 20
QUEUED_GRACE_S = 5


def job_id(prefix: str, game_id: str, version: int, actor) -> str:
    # RQ allows letters, digits, "_" and "-" in job ids; game ids are URL-safe base64 already.
    safe_prefix = re.sub(r"[^A-Za-z0-9_-]", "_", prefix)
    return f"{safe_prefix}turn-{game_id}-{version}-{actor}"


class TurnScheduler:
    """The service's scheduler: hands the turns of bots and of the system to RQ."""

    def __init__(self, connection, prefix: str = "", queue_name: str = DEFAULT_QUEUE,
                 lost_after_s: float = LOST_AFTER_S):
        self.connection = connection
        self.prefix = prefix
        self.queue = Queue(queue_name, connection=connection)
        self.lost_after_s = lost_after_s

    def __call__(self, game_id: str, version: int, actors: list) -> None:
        for actor in actors:
            self.ensure(game_id, version, actor)

    def ensure(self, game_id: str, version: int, actor, repair: bool = False) -> bool:
        """Enqueues the turn unless it already is; True when a job was (re)enqueued."""
        jid = job_id(self.prefix, game_id, version, actor)
        return enqueue_unique(lambda: self._enqueue(jid, game_id, version, actor), jid, self.connection,
                              self._lost if repair else None)

    def _enqueue(self, jid, game_id, version, actor):
        self.queue.enqueue_call(
            "jobs.take_turn",
            args=(self.prefix, game_id, version, actor),
            job_id=jid,
            unique=True,
            timeout=JOB_TIMEOUT_S,
            result_ttl=0,
            failure_ttl=3600,
            description=f"turn of {actor} in {game_id} at version {version}",
        )

    def _lost(self, jid: str) -> bool:
        return lost_job(self.queue, jid, self.lost_after_s)


def enqueue_unique(enqueue: Callable[[], object], jid: str, connection: Any,
                   lost: Callable[[str], bool] | None = None) -> bool:
    """Runs `enqueue`, which queues the unique job `jid`, unless that job exists already; given
    `lost` (a repair), a job that exists but is lost is deleted and queued again. True when a job
    was (re)enqueued. The turns' and the webhook deliveries' one rule."""
    try:
        enqueue()
        return True
    except DuplicateJobError:
        if lost is None or not lost(jid):
            return False
    try:
        Job.fetch(jid, connection=connection).delete()
    except NoSuchJobError:
        pass
    try:
        enqueue()
        return True
    except DuplicateJobError:
        return False


def lost_job(queue: Queue, jid: str, started_lost_after_s: float, queued_grace_s: float = QUEUED_GRACE_S) -> bool:
    """Whether the job `jid` exists no more in any useful way: gone, ended (failed, stopped,
    finished), queued in name only for longer than `queued_grace_s` (its queue entry gone, as
    when a worker popped it into RQ's intermediate queue and was killed, or Redis lost the
    list), or started, its last heartbeat
    (its start, for a worker that beats only then) longer ago than `started_lost_after_s` (its
    worker died). The one rule of the turns, the webhook deliveries, the push jobs and the
    analyses (whose BeatingWorker beats while the job runs)."""
    try:
        job = Job.fetch(jid, connection=queue.connection)
    except NoSuchJobError:
        return True
    status = job.get_status(refresh=False)
    if status in (JobStatus.FAILED, JobStatus.STOPPED, JobStatus.CANCELED, JobStatus.FINISHED):
        return True
    if status == JobStatus.QUEUED:
        # Queued in name only (its queue entry is gone) and for a while: a worker that has
        # just popped the job has not yet marked it started, and must not lose it to us.
        return age_s(job.enqueued_at) > queued_grace_s and jid not in queue.get_job_ids()
    if status == JobStatus.STARTED:
        return age_s(job.last_heartbeat or job.started_at) > started_lost_after_s
    return False


FOLLOW_UP = "-next"  # the job id of the one follow-up that may wait behind a running job


def enqueue_with_follow_up(queue: Queue, job_id: str, function: str, args: tuple, timeout: int,
                           description: str, failure_ttl: int = 60,
                           lost: Callable[[str], bool] | None = None) -> bool:
    """Queues `function(*args)` as the job `job_id` unless that job waits already (it will read
    the newest state when it runs: the webhooks' fan-out of a game, a player's push job). One
    that runs may have read before this call: a follow-up (`job_id` + "-next") then waits behind
    it, at most one. False when nothing new was queued (both taken: the one waiting covers it).
    Each through enqueue_unique: given `lost` (lost_job's rule, say), a job that only seems to
    wait or run (lost with its worker, or with Redis) is replaced rather than waited for."""
    for jid in (job_id, job_id + FOLLOW_UP):
        def enqueue(jid: str = jid) -> None:
            queue.enqueue_call(function, args=args, job_id=jid, unique=True, timeout=timeout, result_ttl=0,
                               failure_ttl=failure_ttl, description=description)
        if enqueue_unique(enqueue, jid, queue.connection, lost):
            return True
        if waiting(queue, jid):
            return False
    return False


def waiting(queue: Queue, jid: str) -> bool:
    """Whether the job waits to run (queued, deferred, scheduled), not runs or ended."""
    try:
        return Job.fetch(jid, connection=queue.connection).get_status(refresh=False) in (
            JobStatus.QUEUED, JobStatus.DEFERRED, JobStatus.SCHEDULED)
    except NoSuchJobError:
        return False


def age_s(moment) -> float:
    """Seconds since an RQ timestamp (RQ writes UTC, naive in some versions)."""
    if moment is None:
        return float("inf")
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return time.time() - moment.timestamp()


ANALYSIS_JOB_TIMEOUT_S = 1800  # a long game at the full budget: minutes
ANALYSIS_HEARTBEAT_S = 5.0  # a running analysis's heartbeat (workers/beating.py's BeatingWorker)
LOST_BEATS = 4  # a started analysis whose heartbeat is this many beats old is lost with its worker


class AnalysisQueue:
    """The analysis jobs' queue (ANALYSIS_QUEUE), apart from the turns': an analysis takes
    minutes of search, and no turn ever waits behind one. One job per game
    (`analysis-<game>`): a repeated request finds it queued; one that is lost is queued again:
    failed or ended, queued in name only (its queue entry gone with a Redis restart), or started
    by a worker that died (its job's heartbeat, renewed every `heartbeat_s` while it runs,
    older than LOST_BEATS beats: a SIGKILLed worker's job is taken as lost within seconds, not
    when RQ's maintenance fails it half an hour later)."""

    def __init__(self, connection, prefix: str = "", queue_name: str = "analysis",
                 heartbeat_s: float = ANALYSIS_HEARTBEAT_S):
        self.connection = connection
        self.prefix = prefix
        self.queue = Queue(queue_name, connection=connection)
        self.lost_after_s = LOST_BEATS * heartbeat_s

    def job_id(self, game_id: str) -> str:
        return f"{re.sub(r'[^A-Za-z0-9_-]', '_', self.prefix)}analysis-{game_id}"

    def __call__(self, game_id: str) -> bool:
        """Queues the game's analysis unless its job exists and is not lost; True when queued."""
        jid = self.job_id(game_id)
        return enqueue_unique(lambda: self._enqueue(jid, game_id), jid, self.connection, self._lost)

    def _lost(self, jid: str) -> bool:
        return lost_job(self.queue, jid, self.lost_after_s)

    def _enqueue(self, jid: str, game_id: str) -> None:
        self.queue.enqueue_call("jobs.analyse", args=(self.prefix, game_id), job_id=jid, unique=True,
                                timeout=ANALYSIS_JOB_TIMEOUT_S, result_ttl=0, failure_ttl=600,
                                description=f"analysis of {game_id}")

    def peek(self, game_id: str) -> bool:
        """Queues the finished game's peeking evidence (jobs.peek, issue 50: api/moderation/peeking.py)
        on this queue, one job per game (`peeking-<game>`), as an analysis is."""
        jid = self.job_id(game_id).replace("analysis-", "peeking-", 1)

        def enqueue() -> None:
            self.queue.enqueue_call("jobs.peek", args=(self.prefix, game_id), job_id=jid, unique=True,
                                    timeout=ANALYSIS_JOB_TIMEOUT_S, result_ttl=0, failure_ttl=600,
                                    description=f"peeking evidence of {game_id}")
        return enqueue_unique(enqueue, jid, self.connection, self._lost)
