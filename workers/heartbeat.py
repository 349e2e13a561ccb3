"""Whether the background side of the server is alive, for `GET /health/ready`.

RQ workers record their own heartbeat (every WORKER_TTL_S - 15 s while idle, and at each job);
the reconciler writes a key that expires unless it is renewed on every pass. Ready means: Redis
answers, at least one worker of the turn queue has a heartbeat younger than its time to live,
and the reconciler's key is there.
"""
from __future__ import annotations

from datetime import UTC, datetime

from rq import Worker

from .queueing import age_s

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
