"""An analysis whose worker is SIGKILLed while it computes is queued again within a minute
(issue 49, item 4): the analysis worker beats while a job runs (workers/beating.py's
BeatingWorker), and a read takes a started job whose heartbeat stopped as lost
(workers/queueing's AnalysisQueue). Before, the job stayed `started` until RQ's maintenance
failed it, 30-40 minutes later, and the request `pending` all that time."""
from __future__ import annotations

import time

import pytest
from rq.job import Job, JobStatus

from api.analysis import analyses as analyses_module
from tests.analysis.helpers import analysed, person_game
from tests.api.helpers import auth
from tests.conftest import running_workers, wait_for

pytestmark = pytest.mark.process

BEAT_S = 0.5  # the slow worker's heartbeat
LOST_AFTER_S = 6 * BEAT_S  # the web side's threshold in this test (4 beats in service): room for a loaded host


def test_an_analysis_whose_worker_is_killed_is_queued_again_and_answered(
        client, app, workers, redis_url, session_prefix, monkeypatch):
    services = app.extensions["services"]
    queue = services.analysis_queue
    monkeypatch.setattr(queue, "lost_after_s", LOST_AFTER_S)
    monkeypatch.setattr(analyses_module, "REQUEUE_AFTER_S", 0)  # a read re-queues at once (a minute in service)
    gid, ann, _ = person_game(client, "splendor", seed=41, decisions=1)
    slow = {"ANALYSIS_ITERATIONS": "10000000", "ANALYSIS_HEARTBEAT_S": str(BEAT_S)}  # would take hours
    with running_workers(redis_url, session_prefix, modes=("analysis",), env=slow) as doomed:
        assert client.post(f"/games/{gid}/analysis", headers=auth(ann["key"])).status_code == 202

        def started():
            job = Job.fetch(queue.job_id(gid), connection=services.connections.queue)
            return job if job.get_status() == JobStatus.STARTED else None
        first = wait_for(started, timeout=60, interval=0.1)
        # Alive and beating, it is left alone however long it runs and however often it is read.
        time.sleep(1.5 * LOST_AFTER_S)
        for _ in range(3):
            assert client.get(f"/games/{gid}/analysis").get_json()["status"] == "pending"
        still = started()
        assert still is not None and still.worker_name == first.worker_name
        assert still.enqueued_at == first.enqueued_at  # the same job, not queued again

        doomed.procs[0].kill()  # SIGKILL: no handler runs, the job stays `started` in RQ
        doomed.procs[0].wait()
        killed_at = time.monotonic()
    with running_workers(redis_url, session_prefix, modes=("analysis",), env={"ANALYSIS_ITERATIONS": "8"}):
        done = analysed(client, gid, timeout=60)
    assert done["status"] == "done" and done["iterations"] == 8  # computed by the new worker
    assert time.monotonic() - killed_at < 60
