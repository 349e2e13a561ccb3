"""Whether the background side of the server is alive, for `GET /health/ready`.

RQ workers record their own heartbeat (every WORKER_TTL_S - 15 s while idle, and at each job);
the reconciler writes a key that expires unless it is renewed on every pass. Ready means: Redis
answers, at least one worker of the turn queue has a heartbeat younger than its time to live,
and the reconciler's key is there.
"""
from __future__ import annotations

import time
from collections.abc import Callable
from datetime import UTC, datetime

from rq import Worker

from events.store import StoreUnavailable

from .queueing import age_s

WORKER_TTL_S = 30  # RQ heartbeats every WORKER_TTL_S - 15 s when idle
RECONCILER_TTL_FACTOR = 5  # the reconciler's key outlives this many missed passes...
RECONCILER_TTL_MIN_S = 10  # ...and lives at least this long (RECONCILER_HEARTBEAT_MIN_S)


def reconciler_key(prefix: str) -> str:
    return f"{prefix}reconciler:heartbeat"


def degraded_key(prefix: str) -> str:
    """The parts of the last pass that failed (hash: part -> why), beside the heartbeat."""
    return f"{prefix}reconciler:degraded"


def beat_reconciler(connection, prefix: str, interval_s: float, failed: dict[str, str] | None = None,
                    min_ttl_s: int = RECONCILER_TTL_MIN_S) -> None:
    ttl = max(min_ttl_s, int(interval_s * RECONCILER_TTL_FACTOR))
    pipe = connection.pipeline(transaction=False)
    pipe.set(reconciler_key(prefix), datetime.now(UTC).isoformat(), ex=ttl)
    pipe.delete(degraded_key(prefix))
    if failed:
        pipe.hset(degraded_key(prefix), mapping=failed)
        pipe.expire(degraded_key(prefix), ttl)
    pipe.execute()


def readiness(connection, prefix: str, queue, archive_state: Callable[[], str] | None = None) -> dict:
    """{"redis", "workers", "reconciler"} and, with an archive, "archive": "ok" or what is wrong
    with each. A part that is "degraded: ..." is named without failing readiness: the reconciler
    passes that some sweeps failed (the archive away fails the archiver's and the ratings'),
    and an archive that cannot be reached, while the live games are served from Redis. An
    archive that answers without the games Redis knows archived (an empty one in its place)
    fails it (`archive_state`: events/archived_store.py)."""
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
    else:
        failed = queue.connection.hgetall(degraded_key(prefix))
        if failed:
            told = "; ".join(f"{k.decode()}: {v.decode()}" for k, v in sorted(failed.items()))
            checks["reconciler"] = f"degraded: sweeps failing ({told})"
    if archive_state is not None:
        checks["archive"] = archive_state()
    return checks


def archive_said(state: Callable[[], str]) -> str:
    """The archive's state (ArchivingStore.archive_state), or "degraded: ..." if it cannot be read."""
    try:
        return state()
    except StoreUnavailable as e:
        return f"degraded: the archive cannot be read ({e}); finished games' reads answer 503"


class ArchiveCheck:
    """The archive's state (ArchivingStore.archive_state) for the readiness probe, looked at
    most every `every_s` (a probe every second costs no more than one every `every_s`)."""

    def __init__(self, state: Callable[[], str], every_s: float = 5.0, clock: Callable[[], float] = time.monotonic):
        self.state, self.every_s, self.clock = state, every_s, clock
        self._found: tuple[float, str] | None = None

    def __call__(self) -> str:
        now = self.clock()
        if self._found is None or now - self._found[0] >= self.every_s:
            self._found = (now, archive_said(self.state))
        return self._found[1]
