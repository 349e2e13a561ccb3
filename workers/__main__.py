"""`python -m workers [worker|webhooks|analysis|reconciler]`: an RQ worker for turns, one for
webhook deliveries (workers/deliveries.py) and Web Push (workers/push/), one for game analyses
(jobs.analyse, on ANALYSIS_QUEUE), or the reconciler loop.

Configuration from the environment, read once into api/settings.py's Settings: REDIS_URL
(required here; app.py sets it; a Redis Cluster with QUEUE_REDIS_URL for RQ:
events/connection.py), KEY_PREFIX (default none), TURN_QUEUE (default "turns"),
RECONCILE_INTERVAL (seconds, default 2), ABANDON_AFTER (seconds, default a week), CLOCK_POLL_S
(the turn clocks' poll, default 0.2), CLOCK_REARM_S (their re-arm, default 60), WEBHOOK_QUEUE
(default "webhooks"), EXTRA_GAME_MODULES (comma-separated modules defining GAME, hosted besides
domain/'s games), LOG_LEVEL. The services are built by the composition root (wiring.py), as the
web process's: this program sits above it, as app.py.
"""
from __future__ import annotations

import os
import sys

from api import logs
from api.settings import of_process
from domain import registry, search

REDIS_RETRY_S = 1.0


def main(argv: list[str]) -> None:
    mode = argv[0] if argv else "worker"
    os.environ.setdefault("PROCESS_ROLE", mode)
    settings = of_process()
    logs.configure(settings.log_level)
    # The games first: a module that cannot load fails the child before RQ, Redis and the
    # service are imported (a supervisor restarting several failing children waits less).
    registry.register_modules(settings.extra_game_modules)
    search.set_iterations_scale(settings.bot_iterations)  # the search bots' budgets
    if mode not in ("worker", "webhooks", "analysis", "reconciler"):
        sys.exit(f"unknown mode {mode!r}: use 'worker', 'webhooks', 'analysis' or 'reconciler'")
    from wiring import bootstrap

    from .beating import BeatingWorker
    from .heartbeat import WORKER_TTL_S
    from .reconciler import run_forever
    from .turn_worker import TurnWorker

    registry.all_games()  # loaded now, not in the first job (a bot's first reply)
    services = bootstrap(settings)
    if mode == "reconciler":
        run_forever(services.service, services.turn_scheduler(), settings.reconcile_interval, settings.abandon_after,
                    sweeps=(services.deliveries.sweep, services.pushes.sweep, services.rate_ended_games,
                            services.pair_seeks, services.archiver, services.clock_warnings,
                            services.advance_tournaments),
                    clock_tick=services.clock_tick,
                    clock_poll_s=settings.clock_poll_s, waiting_ttl_s=settings.waiting_ttl,
                    heartbeat_min_s=settings.reconciler_heartbeat_min_s)
    else:
        # SimpleWorker runs jobs in-process (no fork per job): a bot's reply lands within
        # milliseconds. A job that dies takes the worker with it; app.py restarts workers
        # and the reconciler re-enqueues the turn. Webhook deliveries have workers of their own.
        queue = {"worker": services.turn_scheduler().queue, "webhooks": services.deliveries.queue,
                 "analysis": services.analysis_queue.queue}[mode]
        if mode == "webhooks":
            # Its jobs only hand their pairs to the process's sender threads and end: one
            # receiver's slowness costs a thread of its own, not the worker (dispatcher.py).
            import workers.deliveries

            workers.deliveries.DISPATCHING = True
        # The jobs' entry points are jobs.py's (above the root); its Job runs one queued under
        # an old name too.
        # An analysis runs for minutes: its worker beats while it runs (BeatingWorker), so one
        # whose worker died is queued again within seconds of a read (AnalysisQueue).
        # The turns' and the webhooks' jobs are many and short: TurnWorker is RQ's SimpleWorker
        # with fewer round trips and log lines around each (workers/turn_worker.py).
        worker_class = BeatingWorker if mode == "analysis" else TurnWorker
        worker = worker_class([queue], connection=services.connections.queue, worker_ttl=WORKER_TTL_S,
                              job_class="jobs.Job")
        if isinstance(worker, BeatingWorker):
            worker.beat_s = settings.analysis_heartbeat_s
        # While Redis is away RQ retries after 1 s, doubling up to 60 s: a worker would sleep on
        # long after Redis is back. Once a second, it is back within a second of Redis.
        worker.max_connection_wait_time = REDIS_RETRY_S
        worker.work(with_scheduler=False, logging_level=settings.log_level)


if __name__ == "__main__":
    main(sys.argv[1:])
