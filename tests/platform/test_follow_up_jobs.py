"""One helper queues the jobs that read the newest state when they run (the webhooks' fan-out of
a game, a player's Web Push job): a job waits at most once per id, and behind one that runs, one
follow-up (workers/queueing/ enqueue_with_follow_up), each through enqueue_unique: a job lost
with its worker (left in RQ's intermediate queue, or started by a worker that died) is replaced,
not waited for (issue 49, item 3)."""
from __future__ import annotations

import uuid
from datetime import UTC, datetime, timedelta
from types import SimpleNamespace

from rq import Queue
from rq.job import Job, JobStatus

from workers.queueing import QUEUED_GRACE_S, enqueue_with_follow_up, lost_job


def _start(queue: Queue, jid: str) -> None:
    job = Job.fetch(jid, connection=queue.connection)
    queue.remove(job)
    job.set_status(JobStatus.STARTED)


def test_a_job_waits_once_and_one_follow_up_waits_behind_a_running_one(redis_client):
    queue = Queue(f"fu{uuid.uuid4().hex[:8]}", connection=redis_client)
    jid = f"fu-{uuid.uuid4().hex[:8]}"

    def ask():
        return enqueue_with_follow_up(queue, jid, "builtins.print", ("x",), 30, "a test job")

    assert ask() is True and queue.get_job_ids() == [jid]
    assert ask() is False and queue.get_job_ids() == [jid]  # it waits: it will read the newest
    _start(queue, jid)
    assert ask() is True and queue.get_job_ids() == [jid + "-next"]  # behind the running one
    assert ask() is False and queue.get_job_ids() == [jid + "-next"]
    _start(queue, jid + "-next")
    assert ask() is False and queue.get_job_ids() == []  # both run: nothing more
    job = Job.fetch(jid, connection=redis_client)
    assert (job.func_name, job.args, job.timeout, job.description) == ("builtins.print", ("x",), 30, "a test job")
    queue.delete(delete_jobs=True)


def test_the_fan_out_and_the_push_job_are_queued_by_it(redis_url, monkeypatch):
    import workers.deliveries.enqueueing as deliveries
    import workers.push as push

    asked, lost = [], []
    for module in (deliveries, push):
        monkeypatch.setattr(module, "enqueue_with_follow_up",
                            lambda *a, **k: asked.append(a[1:4]) or lost.append(k.get("lost")) or True)
    fan_out = deliveries.Enqueueing()
    fan_out.prefix, fan_out.queue = "p:", None
    assert fan_out.fan_out("g1") is True
    pushes = push.Pushes.__new__(push.Pushes)
    pushes.prefix, pushes.queue = "p:", None
    pushes.subs = SimpleNamespace(look_at=lambda *a, **k: None)  # the sweep's schedule
    assert pushes.enqueue("pl1") is True
    assert asked == [("p_whf-g1", "jobs.fan_out_job", ("p:", "g1")),
                     ("p_push-pl1", "jobs.push_job", ("p:", "pl1"))]
    assert lost[1] is not None, "a push job lost with its worker is replaced"


def test_a_job_lost_with_its_worker_is_replaced_not_waited_for(redis_client):
    """A worker blocked in BLMOVE takes the job into RQ's intermediate queue even while frozen;
    killed then, the job stays `queued` in name only. Waited for, every later ask is skipped
    (issue 49: a player's pushes stalled ~11 minutes); given `lost`, it is queued again once past
    its grace. A job started by a worker that died is replaced too, not followed."""
    queue = Queue(f"lost{uuid.uuid4().hex[:8]}", connection=redis_client)
    jid = f"lost-{uuid.uuid4().hex[:8]}"

    def ask(lost=True):
        return enqueue_with_follow_up(queue, jid, "builtins.print", ("x",), 30, "a test job",
                                      lost=(lambda j: lost_job(queue, j, 60)) if lost else None)

    def aged(**moments):
        job = Job.fetch(jid, connection=redis_client)
        for name, seconds in moments.items():
            setattr(job, name, datetime.now(UTC) - timedelta(seconds=seconds))
        job.save()

    assert ask() is True
    redis_client.lmove(queue.key, queue.intermediate_queue_key)  # popped by a worker, which dies
    assert Job.fetch(jid, connection=redis_client).get_status() == JobStatus.QUEUED and queue.get_job_ids() == []
    assert ask() is False, "within its grace: a live worker may be about to start it"
    aged(enqueued_at=QUEUED_GRACE_S + 1)
    assert ask(lost=False) is False and queue.get_job_ids() == [], "waited for: lost for good"
    assert ask() is True and queue.get_job_ids() == [jid], "replaced"
    assert ask() is False  # and it waits, once
    _start(queue, jid)
    aged(started_at=61)  # its worker died a minute ago
    assert ask() is True and queue.get_job_ids() == [jid], "replaced, not a follow-up behind a dead one"
    queue.delete(delete_jobs=True)


def test_a_job_queued_under_its_old_name_runs_its_entry_point_now(redis_client):
    """The entry points moved above the composition root (jobs.py): a job queued before, under
    its old dotted name, runs the new one in a worker (its job_class: jobs.Job)."""
    import jobs

    for old, new in jobs.RENAMED.items():
        job = jobs.Job.create(old, args=("p:",), connection=redis_client)
        assert job.func is getattr(jobs, new.removeprefix("jobs.")), old
    assert jobs.Job.create("jobs.take_turn", connection=redis_client).func is jobs.take_turn
    assert jobs.Job.create("builtins.print", connection=redis_client).func is print
