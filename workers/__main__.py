"""`python -m workers [worker|reconciler]`: an RQ worker for turns, or the reconciler loop.

Configuration from the environment: REDIS_URL (required here; app.py sets it), KEY_PREFIX
(default none), TURN_QUEUE (default "turns"), RECONCILE_INTERVAL (seconds, default 2),
EXTRA_GAME_MODULES (comma-separated modules defining GAME, hosted besides domain/'s games).
"""
from __future__ import annotations

import os
import sys

import redis
from rq import SimpleWorker

from api import logs, player_feed
from api.service import GameService
from domain import registry
from events.redis_store import RedisEventStore

from .heartbeat import WORKER_TTL_S
from .queueing import DEFAULT_QUEUE, TurnScheduler
from .reconciler import run_forever


def main(argv: list[str]) -> None:
    mode = argv[0] if argv else "worker"
    os.environ.setdefault("PROCESS_ROLE", mode)
    logs.configure()
    registry.register_modules(os.environ.get("EXTRA_GAME_MODULES", "").split(","))
    registry.all_games()  # loaded now, not in the first job (a bot's first reply)
    connection = redis.Redis.from_url(os.environ["REDIS_URL"])
    prefix = os.environ.get("KEY_PREFIX", "")
    queue_name = os.environ.get("TURN_QUEUE", DEFAULT_QUEUE)
    scheduler = TurnScheduler(connection, prefix, queue_name)
    if mode == "reconciler":
        service = GameService(RedisEventStore(connection, prefix), scheduler,
                              **player_feed.wiring(connection, prefix))
        run_forever(service, scheduler, float(os.environ.get("RECONCILE_INTERVAL", "2")))
    elif mode == "worker":
        # SimpleWorker runs jobs in-process (no fork per job): a bot's reply lands within
        # milliseconds. A job that dies takes the worker with it; app.py restarts workers
        # and the reconciler re-enqueues the turn.
        SimpleWorker([scheduler.queue], connection=connection, worker_ttl=WORKER_TTL_S).work(
            with_scheduler=False, logging_level=os.environ.get("LOG_LEVEL", "INFO"))
    else:
        sys.exit(f"unknown mode {mode!r}: use 'worker' or 'reconciler'")


if __name__ == "__main__":
    main(sys.argv[1:])
