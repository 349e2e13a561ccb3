"""The analysis workers' RQ worker (`python -m workers analysis`): a SimpleWorker whose running
job keeps a heartbeat (issue 49, item 4)."""
from __future__ import annotations

import logging
import threading

from rq import SimpleWorker

from .queueing import LOST_BEATS

log = logging.getLogger(__name__)


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
