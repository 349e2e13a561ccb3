"""The turn and webhook workers' RQ worker (workers/turn_worker.py): RQ's SimpleWorker with fewer
round trips and log lines around each job, the same jobs, registries and failures (issue 57)."""
from __future__ import annotations

import logging
import uuid

import pytest
import redis
import redis.client
from rq import Queue
from rq.job import Job
from rq.registry import FailedJobRegistry

from workers.turn_worker import HEARTBEAT_EVERY_S, TurnWorker


@pytest.fixture
def sent(monkeypatch):
    """The round trips to Redis: a command's name, or "pipeline" for a pipeline's."""
    trips: list[str] = []
    command, execute = redis.Redis.execute_command, redis.client.Pipeline.execute
    monkeypatch.setattr(redis.Redis, "execute_command",
                        lambda self, *a, **k: trips.append(str(a[0]).upper()) or command(self, *a, **k))
    monkeypatch.setattr(redis.client.Pipeline, "execute",
                        lambda self, *a, **k: trips.append("pipeline") or execute(self, *a, **k))
    return trips


def _worker(redis_client) -> tuple[TurnWorker, Queue]:
    queue = Queue(f"tw{uuid.uuid4().hex[:8]}", connection=redis_client)
    return TurnWorker([queue], connection=redis_client, worker_ttl=30, job_class="jobs.Job"), queue


def test_the_worker_key_is_renewed_in_one_round_trip_and_not_again_within_seconds(redis_client, sent):
    worker, _ = _worker(redis_client)
    worker.register_birth()
    try:
        sent.clear()
        worker.heartbeat()
        assert sent == ["pipeline"]  # the HSET and the EXPIRE together
        assert redis_client.ttl(worker.key) > 60 and redis_client.hget(worker.key, "last_heartbeat")
        sent.clear()
        worker.heartbeat()
        worker.heartbeat()
        assert sent == []  # younger than HEARTBEAT_EVERY_S: the key has 90 s
        worker._renewed_at -= HEARTBEAT_EVERY_S
        worker.heartbeat()
        assert sent == ["pipeline"]
        sent.clear()
        worker.heartbeat(120)  # with a timeout (a job's start: its lease) it is RQ's own
        assert sent == ["HSET", "EXPIRE"] and redis_client.ttl(worker.key) > 90
    finally:
        worker.register_death()


def test_the_state_is_written_when_it_changes(redis_client, sent):
    worker, _ = _worker(redis_client)
    worker.register_birth()
    try:
        worker.set_state("idle")
        sent.clear()
        worker.set_state("idle")
        assert sent == []
        worker.set_state("busy")
        assert sent == ["HSET"] and redis_client.hget(worker.key, "state") == b"busy"
    finally:
        worker.register_death()


def test_jobs_run_and_fail_as_with_rq_and_their_info_lines_are_debug(redis_client, caplog):
    worker, queue = _worker(redis_client)
    done = queue.enqueue_call("builtins.len", args=("abc",), result_ttl=0, job_id=f"ok-{uuid.uuid4().hex[:6]}")
    failing = queue.enqueue_call("builtins.int", args=("x",), failure_ttl=60, job_id=f"ko-{uuid.uuid4().hex[:6]}")
    with caplog.at_level(logging.INFO):
        assert worker.work(burst=True, logging_level="INFO")
    assert not redis_client.exists(done.key)  # finished, result_ttl 0: gone, as RQ does
    assert failing.id in FailedJobRegistry(queue=queue).get_job_ids()
    assert Job.fetch(failing.id, connection=redis_client).get_status() == "failed"
    said = [r for r in caplog.records if r.name == "rq.worker"]
    messages = [r.getMessage() for r in said]
    assert any("started with PID" in m for m in messages)  # the worker's own lines stay
    assert not any("Job OK" in m or "Successfully completed" in m or "result discarded" in m for m in messages)
    assert not any(done.id in m for m in messages)  # the dequeue's line of the job that succeeded
    errors = [r for r in said if r.levelno >= logging.ERROR]
    assert errors and any(r.exc_info or "ValueError" in r.getMessage() for r in errors)  # the failure's traceback

    again = queue.enqueue_call("builtins.len", args=("abc",), result_ttl=0)
    with caplog.at_level(logging.DEBUG):
        caplog.clear()
        worker.work(burst=True, logging_level="DEBUG")
    messages = [r.getMessage() for r in caplog.records if r.name == "rq.worker"]
    assert any("Job OK" in m and again.id in m for m in messages)
    queue.delete(delete_jobs=True)
