"""Whether the background side of the server is alive, for `GET /health/ready`.

RQ workers record their own heartbeat (every WORKER_TTL_S - 15 s while idle, and at each job);
the reconciler writes a key that expires unless it is renewed on every pass. Ready means: Redis
answers, at least one worker of the turn queue has a heartbeat younger than its time to live,
and the reconciler's key is there.
"""
from __future__ import annotations

import logging
import threading
from datetime import UTC, datetime

from rq import SimpleWorker, Worker

from .queueing import LOST_BEATS, age_s

log = logging.getLogger(__name__)

WORKER_TTL_S = 30  # RQ heartbeats every WORKER_TTL_S - 15 s when idle
RECONCILER_TTL_FACTOR = 5  # the reconciler's key outlives this many missed passes (at least 10 s)


def reconciler_key(prefix: str) -> str:
    return f"{prefix}reconciler:heartbeat"


def beat_reconciler(connection, prefix: str, interval_s: float) -> None:
    ttl = max(10, int(interval_s * RECONCILER_TTL_FACTOR))
    connection.set(reconciler_key(prefix), datetime.now(UTC).isoformat(), ex=ttl)


def readiness(connection, prefix: str, queue) -> dict:
    """{"redis", "workers", "reconciler"}: "ok" or what is wrong with each."""
    checks = {"redis": "ok", "workers": "ok", "reconciler": "ok"}
    try:
        connection.ping()
    except Exception as e:
        return {"redis": f"unreachable ({type(e).__name__})", "workers": "unknown", "reconciler": "unknown"}
    alive = [w for w in Worker.all(queue=queue) if age_s(w.last_heartbeat) <= WORKER_TTL_S]
    if not alive:
        checks["workers"] = f"no worker of queue '{queue.name}' has a heartbeat in the last {WORKER_TTL_S} s"
    # The reconciler beats on the queues' Redis (its scheduler's connection), a plain Redis
    # beside a cluster.
    if not queue.connection.exists(reconciler_key(prefix)):
        checks["reconciler"] = "no reconciler pass recently"
    return checks


class BeatingWorker(SimpleWorker):
    """RQ's SimpleWorker (jobs in-process, no fork) whose running job keeps a heartbeat: a thread
    renews the job's `last_heartbeat`, its StartedJobRegistry entry and the worker's key every
    `beat_s` while the job runs. The analysis workers' (`python -m workers analysis`): an
    analysis runs for minutes, during which a SimpleWorker alone writes nothing, so a job whose
    worker was SIGKILLed looked alive until RQ's maintenance failed it (30-40 minutes); with the
    beat, AnalysisQueue takes a started job whose heartbeat is LOST_BEATS beats old as lost."""

    beat_s: float = 5.0

    def get_heartbeat_ttl(self, job) -> int:
        # The registries' and the worker key's lease: a few beats and RQ's own minute, not the
        # job's whole timeout (SimpleWorker's), so RQ's maintenance fails a dead worker's job soon too.
        return int(LOST_BEATS * self.beat_s) + 60

    def execute_job(self, job, queue):
        stop = threading.Event()
        beating = threading.Thread(target=self._beat, args=(job, stop), name="job-heartbeat", daemon=True)
        beating.start()
        try:
            super().execute_job(job, queue)
        finally:
            stop.set()
            beating.join()

    def _beat(self, job, stop: threading.Event) -> None:
        while not stop.wait(self.beat_s):
            if getattr(self, "execution", None) is None:
                continue  # not yet started (prepare_execution)
            try:
                self.maintain_heartbeats(job)
            except Exception as e:  # Redis away: the next beat tries again
                log.warning("heartbeat of job %s failed: %s", job.id, e)
