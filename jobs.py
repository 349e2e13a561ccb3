"""The RQ jobs' entry points: what a worker runs, by these dotted names (`jobs.take_turn`...).

They sit above the composition root (wiring.py), as app.py does: each takes its services from
`wiring.for_job` (built once per process and queue) and hands the work to them. Nothing the
root builds imports this module; the queues enqueue these functions by name (workers/queueing/,
workers/deliveries/enqueueing.py, workers/push/), so no import points back up.

Jobs queued before the entry points moved here name their old homes (`workers.jobs.take_turn`...):
the workers run them with `Job` below, which finds each under its new name (RENAMED).
"""
from __future__ import annotations

import logging

from rq import get_current_job
from rq.job import Job as RQJob
from rq.utils import import_attribute

import wiring
from api import logs
from workers import jobs as turns

log = logging.getLogger(__name__)

# The old dotted names of jobs that may still wait in a queue -> their entry points now.
RENAMED = {
    "workers.jobs.take_turn": "jobs.take_turn",
    "workers.analysis.analyse": "jobs.analyse",
    "workers.deliveries.fan_out_job": "jobs.fan_out_job",
    "workers.deliveries.deliver_job": "jobs.deliver_job",
    "workers.deliveries.redeliver_job": "jobs.redeliver_job",
    "workers.push.push_job": "jobs.push_job",
}


class Job(RQJob):
    """RQ's job, running a job queued under an old name as its new entry point (the workers'
    job_class: workers/__main__.py)."""

    @property
    def func(self):
        renamed = RENAMED.get(self.func_name or "")
        return import_attribute(renamed) if renamed and not self.instance else super().func


def _job() -> RQJob:
    """The RQ job running now (these functions run only as RQ jobs)."""
    job = get_current_job()
    if job is None:
        raise RuntimeError("not inside an RQ job")
    return job


def _services(prefix: str, turn_queue: str | None = None, webhook_queue: str | None = None) -> wiring.Services:
    """The services of the running job (its connection, the queue it came from)."""
    return wiring.for_job(_job().connection, prefix, turn_queue, webhook_queue)


def take_turn(prefix: str, game_id: str, version: int, actor) -> str:
    context = logs.bind(game_id=game_id, version=version)
    try:
        service = _services(prefix=prefix, turn_queue=_job().origin).service
        outcome, played = turns.play_chain(service, game_id, version, actor)
        log.info("turn of %s at version %s: %s (%d turn(s) played)", actor, version, outcome, played)
        return outcome
    finally:
        logs.unbind(context)


def analyse(prefix: str, game_id: str) -> str:
    """A finished game analysed once, by the analysis workers (`python -m workers analysis`, on
    ANALYSIS_QUEUE: never the turn workers' queue, so a turn never waits behind minutes of
    search). api/analysis/analyses.py computes and keeps it."""
    context = logs.bind(game_id=game_id)
    try:
        outcome = _services(prefix=prefix).analyses.compute(game_id)
        log.info("analysis of %s: %s", game_id, outcome)
        return outcome
    finally:
        logs.unbind(context)


def peek(prefix: str, game_id: str) -> str:
    """A finished game's peeking evidence (issue 50), on the analysis queue beside the analyses:
    api/moderation/peeking.py computes it and keeps it as moderation events."""
    context = logs.bind(game_id=game_id)
    try:
        outcome = _services(prefix=prefix).peeking.record(game_id)
        log.info("peeking evidence of %s: %s", game_id, outcome)
        return outcome
    finally:
        logs.unbind(context)


def fan_out_job(prefix: str, game_id: str) -> int:
    return _webhooks(prefix).deliveries.run_fan_out(game_id)


def deliver_job(prefix: str, sub_id: str, game_id: str) -> str:
    return _webhooks(prefix).deliveries.run_delivery(sub_id, game_id)


def redeliver_job(prefix: str, sub_id: str, message_id: str) -> str:
    return _webhooks(prefix).deliveries.redeliver_now(sub_id, message_id)


def push_job(prefix: str, player_id: str) -> str:
    return _webhooks(prefix).pushes.run(player_id)


def _webhooks(prefix: str) -> wiring.Services:
    """The services of a job of the webhooks' queue (deliveries and pushes)."""
    return _services(prefix=prefix, webhook_queue=_job().origin)
