"""The floor for bot latency: an RQ job that does nothing but the server's atomic Lua append,
run by the same RQ SimpleWorker class the server uses (`python -m bench.floor_jobs <redis-url>`
starts one on the queue `bench-floor`)."""
from __future__ import annotations

import sys
import time

import redis

from events.redis_store import encode_entries
from events.scripts import APPEND
from events.store import NewEvent

QUEUE = "bench-floor"


def append(key: str, expected_version: int) -> str:
    from rq import get_current_job

    connection = get_current_job().connection
    reply = connection.register_script(APPEND)(
        keys=[key, key + ":idem:-"],
        args=[expected_version, 0, "", "", 0, 1,
              *encode_entries([NewEvent("bot_move", {"type": "bot_move"}, 1)], int(time.time() * 1000))])
    return reply[0].decode()


if __name__ == "__main__":
    from rq import Queue, SimpleWorker

    conn = redis.Redis.from_url(sys.argv[1])
    SimpleWorker([Queue(QUEUE, connection=conn)], connection=conn).work(with_scheduler=False)
