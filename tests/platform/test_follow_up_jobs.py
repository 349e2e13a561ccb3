"""One helper queues the jobs that read the newest state when they run (the webhooks' fan-out of
a game, a player's Web Push job): a job waits at most once per id, and behind one that runs, one
follow-up (workers/queueing/ enqueue_with_follow_up)."""
from __future__ import annotations

import uuid

from rq import Queue
from rq.job import Job, JobStatus

from workers.queueing import enqueue_with_follow_up


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

    asked = []
    for module in (deliveries, push):
        monkeypatch.setattr(module, "enqueue_with_follow_up", lambda *a, **k: asked.append(a[1:4]) or True)
    fan_out = deliveries.Enqueueing()
    fan_out.prefix, fan_out.queue = "p:", None
    assert fan_out.fan_out("g1") is True
    pushes = push.Pushes.__new__(push.Pushes)
    pushes.prefix, pushes.queue = "p:", None
    assert pushes.enqueue("pl1") is True
    assert asked == [("p_whf-g1", "jobs.fan_out_job", ("p:", "g1")),
                     ("p_push-pl1", "jobs.push_job", ("p:", "pl1"))]


def test_a_job_queued_under_its_old_name_runs_its_entry_point_now(redis_client):
    """The entry points moved above the composition root (jobs.py): a job queued before, under
    its old dotted name, runs the new one in a worker (its job_class: jobs.Job)."""
    import jobs

    for old, new in jobs.RENAMED.items():
        job = jobs.Job.create(old, args=("p:",), connection=redis_client)
        assert job.func is getattr(jobs, new.removeprefix("jobs.")), old
    assert jobs.Job.create("jobs.take_turn", connection=redis_client).func is jobs.take_turn
    assert jobs.Job.create("builtins.print", connection=redis_client).func is print
