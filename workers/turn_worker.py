"""The turn and webhook workers' RQ worker (`python -m workers worker|webhooks`): RQ's
SimpleWorker with fewer round trips and log lines around each job; the same jobs, registries,
job states and failure handling (issue 57).

Around each job, RQ's SimpleWorker renews its worker key three times (before and after the
dequeue, after the job), each an HSET and an EXPIRE in round trips of their own; writes the
state `idle` twice (after the job, again before the next dequeue); and logs four INFO lines (the
job dequeued, "Successfully completed", "Job OK", "result discarded"), beside the turn's own line
(jobs.take_turn: game, version, outcome). Here:
- a renewal without arguments is one round trip (the HSET and the EXPIRE pipelined), and none
  when the last was less than HEARTBEAT_EVERY_S ago: the key outlives it by far (worker_ttl + 60
  s, 90) and the readiness check (workers/heartbeat.py) wants one younger than WORKER_TTL_S
  (30 s); an idle worker renews when its blocking dequeue times out (worker_ttl - 15 s), as
  before. Renewals with a timeout or a pipeline (a job's start, its lease) are RQ's, unchanged;
- the state is written when it changes, not again;
- RQ's per-job INFO lines are logged at DEBUG (LOG_LEVEL=DEBUG shows them); its other lines, its
  warnings and a failing job's error and traceback are as they were.
"""
from __future__ import annotations

import logging
import time

from rq import SimpleWorker

HEARTBEAT_EVERY_S = 5.0

# RQ 2.12's INFO lines of every job (rq/worker/base.py): the dequeue and "Job OK" share the first.
PER_JOB_LINES = frozenset({
    "Worker %s: %s: %s (%s)",
    "Worker %s: %s: %s",
    "Successfully completed %s job in %ss on worker %s",
    "Successfully completed job %s in %ss on worker %s",
    "Worker %s: job %s result discarded immediately",
    "Worker %s: job %s result is kept for %s seconds",
    "Worker %s: job %s result will never expire, clean up result key manually",
})


class PerJobAtDebug(logging.LoggerAdapter):
    """RQ's worker logger with its per-job INFO lines at DEBUG."""

    def info(self, msg, *args, **kwargs):
        self.logger.log(logging.DEBUG if msg in PER_JOB_LINES else logging.INFO, msg, *args, **kwargs)


class TurnWorker(SimpleWorker):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.log = PerJobAtDebug(self.log, None)  # type: ignore[assignment]  # a Logger to RQ (info, debug...)
        self._renewed_at: float | None = None  # time.monotonic() of the last renewal of the worker key

    def heartbeat(self, timeout: int | None = None, pipeline=None):
        if timeout is not None or pipeline is not None:
            return super().heartbeat(timeout, pipeline)
        at = time.monotonic()
        if self._renewed_at is not None and at - self._renewed_at < HEARTBEAT_EVERY_S:
            return None
        with self.connection.pipeline(transaction=False) as pipe:
            super().heartbeat(None, pipe)
            pipe.execute()
        self._renewed_at = at
        return None

    def set_state(self, state: str, pipeline=None):
        if pipeline is None and state == self._state:
            return
        super().set_state(state, pipeline)
