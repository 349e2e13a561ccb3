"""The analysis job (issue 34): a finished game analysed once, by the analysis workers
(`python -m workers analysis`, on ANALYSIS_QUEUE: never the turn workers' queue, so a turn
never waits behind minutes of search). api/analysis/analyses.py computes and keeps it."""
from __future__ import annotations

import logging

from rq import get_current_job

import wiring
from api import logs

log = logging.getLogger(__name__)


def analyse(prefix: str, game_id: str) -> str:
    job = get_current_job()
    context = logs.bind(game_id=game_id)
    try:
        outcome = wiring.for_job(job.connection, prefix).analyses.compute(game_id)
        log.info("analysis of %s: %s", game_id, outcome)
        return outcome
    finally:
        logs.unbind(context)
