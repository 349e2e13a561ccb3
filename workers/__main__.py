"""`python -m workers [worker|webhooks|reconciler]`: an RQ worker for turns, one for webhook
deliveries (workers/deliveries.py), or the reconciler loop.

Configuration from the environment: REDIS_URL (required here; app.py sets it; a Redis Cluster
with QUEUE_REDIS_URL for RQ: events/connection.py), KEY_PREFIX
(default none), TURN_QUEUE (default "turns"), RECONCILE_INTERVAL (seconds, default 2),
CLOCK_POLL_S (the turn clocks' poll, default 0.2), CLOCK_REARM_S (their re-arm, default 60),
WEBHOOK_QUEUE (default "webhooks"), EXTRA_GAME_MODULES (comma-separated modules defining GAME, hosted besides domain/'s games).
"""
from __future__ import annotations

import os
import sys

from api import logs
from domain import registry


def main(argv: list[str]) -> None:
    mode = argv[0] if argv else "worker"
    os.environ.setdefault("PROCESS_ROLE", mode)
    logs.configure()
    # The games first: a module that cannot load fails the child before RQ, Redis and the
    # service are imported (a supervisor restarting several failing children waits less).
    registry.register_modules(os.environ.get("EXTRA_GAME_MODULES", "").split(","))
    from rq import SimpleWorker

    from api.history import finished_exports as archive
    from api.players import feed as player_feed
    from api.games.service import GameService
    from events.connection import Connections
    from events.redis_store import RedisEventStore

    from .deliveries import Deliveries
    from .heartbeat import WORKER_TTL_S
    from .queueing import DEFAULT_QUEUE, TurnScheduler
    from .reconciler import run_forever

    registry.all_games()  # loaded now, not in the first job (a bot's first reply)
    connections = Connections.from_env()
    connection, queue_connection = connections.store, connections.queue
    prefix = os.environ.get("KEY_PREFIX", "")
    queue_name = os.environ.get("TURN_QUEUE", DEFAULT_QUEUE)
    scheduler = TurnScheduler(queue_connection, prefix, queue_name)
    deliveries = Deliveries(connection, prefix, os.environ.get("WEBHOOK_QUEUE", "webhooks"),
                            queue_connection=queue_connection)
    if mode == "reconciler":
        store = RedisEventStore(connection, prefix)
        wiring = player_feed.wiring(connection, prefix, store, archive.ttl_from_env())
        wiring["listeners"].append(deliveries.notifier())
        from api.seating.control import SeatControl

        from .clocks import CLOCK_POLL_S, CLOCK_REARM_S, ClockTick

        service = GameService(store, scheduler, **wiring)
        tick = ClockTick(service, SeatControl(service), float(os.environ.get("CLOCK_REARM_S", CLOCK_REARM_S)))
        run_forever(service, scheduler, float(os.environ.get("RECONCILE_INTERVAL", "2")), sweeps=[deliveries.sweep],
                    clock_tick=tick, clock_poll_s=float(os.environ.get("CLOCK_POLL_S", CLOCK_POLL_S)))
    elif mode == "webhooks":
        SimpleWorker([deliveries.queue], connection=queue_connection, worker_ttl=WORKER_TTL_S).work(
            with_scheduler=False, logging_level=os.environ.get("LOG_LEVEL", "INFO"))
    elif mode == "worker":
        # SimpleWorker runs jobs in-process (no fork per job): a bot's reply lands within
        # milliseconds. A job that dies takes the worker with it; app.py restarts workers
        # and the reconciler re-enqueues the turn.
        SimpleWorker([scheduler.queue], connection=queue_connection, worker_ttl=WORKER_TTL_S).work(
            with_scheduler=False, logging_level=os.environ.get("LOG_LEVEL", "INFO"))
    else:
        sys.exit(f"unknown mode {mode!r}: use 'worker', 'webhooks' or 'reconciler'")


if __name__ == "__main__":
    main(sys.argv[1:])
