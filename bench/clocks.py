"""Turn clocks (issue 21): `python -m bench.clocks [N]` (default 200; --quick: 60).

How late a deadline fires, and what waiting for deadlines costs, for the two ways considered:

- `due set` (what the server runs): N clocked Splendor games (two people, `per_move_s: 1`,
  created over 2 s, nobody moves). The reconciler's clock step (workers/clocks.py: one
  ZRANGEBYSCORE a poll, then per due game a load and the version-checked append of
  `seat_timed_out` + `seat_taken_by_bot`) runs every CLOCK_POLL_S (0.2 s). Lateness: the
  timeout event's `at` minus the deadline derived from the history.
- `enqueue_at`: N RQ jobs scheduled (all before the first is due) at the same kind of due times with RQ's own scheduler (a
  SimpleWorker started `with_scheduler=True`, as ours are not); each job only stamps the time
  it ran. Lateness: that stamp minus its due time (a lower bound of a real timeout: no load,
  no append).

Also printed: the Redis commands of an idle poll of the due set (nothing due).
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
import threading
import time
from datetime import UTC

import redis

from bench.common import ROOT, private_redis

STAMPS = "bench:clocks:stamps"


def stamp(due_ms: int) -> None:
    """The enqueue_at job: records how late it ran."""
    from rq import get_current_job

    job = get_current_job()
    job.connection.rpush(STAMPS, f"{due_ms}:{int(time.time() * 1000)}")


def _summary(late: list[int]) -> str:
    late = sorted(late)
    p = lambda q: late[min(len(late) - 1, int(q * len(late)))]
    return (f"n={len(late)} p50 {statistics.median(late):.0f} ms, p95 {p(0.95):.0f} ms, max {late[-1]:.0f} ms, "
            f"min {late[0]:.0f} ms")


def due_set(url: str, n: int, poll_s: float) -> tuple[list[int], float]:
    from api.games.service import GameService
    from api.platform import events as pe
    from api.seating.control import SeatControl
    from events.redis_store import RedisEventStore
    from workers.clocks import fire_due

    client = redis.Redis.from_url(url)
    prefix = f"bclk{time.monotonic_ns()}:"
    service = GameService(RedisEventStore(client, prefix))
    control = SeatControl(service)
    ids = []
    spread = 2.0
    done = threading.Event()

    def poll():  # the reconciler's clock step, running while the games are made
        while not done.is_set():
            fire_due(service, control)
            time.sleep(poll_s)

    poller = threading.Thread(target=poll, daemon=True)
    poller.start()
    for i in range(n):
        ids.append(service.create("splendor", [{"name": "A"}, {"name": "B"}], {}, None,
                                  clock={"per_move_s": 1})["id"])
        time.sleep(spread / n)
    end = time.monotonic() + 10
    while client.zcard(f"{prefix}games:clocks") and time.monotonic() < end:
        time.sleep(0.1)
    done.set()
    poller.join()
    late = []
    for gid in ids:
        events = service.store.read(gid)
        timed = [e for e in events if e.type == pe.TIMED_OUT]
        late += [e.at - e.data["deadline"] for e in timed]
    # an idle poll: nothing due
    before = client.info("stats")["total_commands_processed"]
    for _ in range(100):
        fire_due(service, control)
    idle_commands = (client.info("stats")["total_commands_processed"] - before - 1) / 100
    return late, idle_commands


def enqueue_at(url: str, n: int) -> list[int]:
    from datetime import datetime

    from rq import Queue

    client = redis.Redis.from_url(url)
    client.delete(STAMPS)
    queue_name = f"bclk{time.monotonic_ns()}"
    queue = Queue(queue_name, connection=client)
    worker = subprocess.Popen(
        [sys.executable, "-c",
         "import sys, redis; from rq import SimpleWorker, Queue; c = redis.Redis.from_url(sys.argv[1]); "
         "SimpleWorker([Queue(sys.argv[2], connection=c)], connection=c).work(with_scheduler=True, "
         "logging_level='WARNING')", url, queue_name], cwd=ROOT, env={**os.environ, "PYTHONPATH": str(ROOT)})
    try:
        time.sleep(2)  # the worker (and its scheduler) up
        spread, start = 2.0, time.time() + 3  # all enqueued before the first is due
        for i in range(n):
            due = start + spread * i / n
            queue.enqueue_at(datetime.fromtimestamp(due, tz=UTC), "bench.clocks.stamp", int(due * 1000))
        deadline = time.monotonic() + spread + 10
        while client.llen(STAMPS) < n and time.monotonic() < deadline:
            time.sleep(0.2)
        late = []
        for raw in client.lrange(STAMPS, 0, -1):
            due_ms, ran = (int(x) for x in raw.decode().split(":"))
            late.append(ran - due_ms)
        return late
    finally:
        worker.terminate()
        worker.wait(timeout=20)


def main(argv: list[str]) -> None:
    quick = "--quick" in argv
    numbers = [a for a in argv if a.isdigit()]
    n = int(numbers[0]) if numbers else (60 if quick else 200)
    from workers.clocks import CLOCK_POLL_S

    print(f"# bench.clocks: {n} deadlines over 2 s, load average {os.getloadavg()[0]:.1f}")
    with private_redis() as url:
        late, idle = due_set(url, n, CLOCK_POLL_S)
        print(f"due set, poll {CLOCK_POLL_S} s (load + append of the timeout included): {_summary(late)}")
        print(f"due set: Redis commands of an idle poll: {idle:.1f}")
        late = enqueue_at(url, n)
        if late:
            print(f"RQ enqueue_at, with_scheduler=True (the job only stamps the time): {_summary(late)}")
        else:
            print("RQ enqueue_at: no job ran")


if __name__ == "__main__":
    main(sys.argv[1:])
