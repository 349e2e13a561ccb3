"""CPU of a turn job in the RQ worker, piece by piece (issue 57): the scoring turn that follows
most of a Small World person's turns, as the worker runs it.

    python -m bench.job_cost [--moves 600] [--game smallworld-of-warcraft] [--seats 2]

In one process, on a private Redis: the app's WSGI callable plays the table client's compact
moves (`POST /moves?include=next_moves&seat=S&labels=false`, as bench/wrk_moves.lua's
`BENCH_LABELS=false` table client); whenever the answer names no person to act, a job waits in
the turn queue and an RQ SimpleWorker built as workers/__main__.py builds it (job class
`jobs.Job`, INFO logging in the text format, to /dev/null instead of stderr) runs it the way its
work loop does: dequeue, execute, heartbeat. Per job: process CPU (time.process_time) of the
whole, of the service's work inside it (workers.jobs.play_chain: the game's load, the move's
decide and append, the after-append steps), of the log lines, and the Redis commands it sent
(INFO commandstats before and after, the INFO calls taken out).
"""
from __future__ import annotations

import argparse
import collections
import functools
import json
import logging
import os
import random
import time

from bench.common import private_redis, table
from bench.request_cost import call, environ


class Clock:
    """Process CPU per named piece, summed while a job runs."""

    def __init__(self):
        self.on = False  # counting (while a job runs)
        self.cpu: collections.Counter[str] = collections.Counter()
        self.depth: dict[str, int] = collections.Counter()

    def wrap(self, owner, name: str, label: str) -> None:
        real = getattr(owner, name)

        @functools.wraps(real)
        def timed(*a, **k):
            if self.depth[label] or not self.on:  # a recursive call is in its caller's figure
                return real(*a, **k)
            self.depth[label] += 1
            start = time.process_time()
            try:
                return real(*a, **k)
            finally:
                self.cpu[label] += time.process_time() - start
                self.depth[label] -= 1
        setattr(owner, name, timed)


def commands(connection) -> int:
    return sum(v["calls"] for v in connection.info("commandstats").values())


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--game", default="smallworld-of-warcraft")
    parser.add_argument("--seats", type=int, default=2)
    parser.add_argument("--log-level", default=os.environ.get("LOG_LEVEL", "INFO"))
    parser.add_argument("--workers", default="SimpleWorker,TurnWorker",
                        help="the worker classes, each job run by the next in turn")
    parser.add_argument("--pieces", action="store_true", help="time the job's parts (wrappers: a little CPU)")
    parser.add_argument("--profile", action="store_true", help="cProfile the jobs (inflates small calls)")
    args = parser.parse_args()
    profiler = None
    if args.profile:
        import cProfile

        profiler = cProfile.Profile(time.process_time)

    with private_redis() as url:
        os.environ["REDIS_URL"] = url
        os.environ["PROCESS_ROLE"] = "worker"
        import redis
        from rq import Queue, SimpleWorker

        import api.games.service as service_module
        import events.redis_store as store_module
        from api import logs
        from app import create_app
        from workers import jobs as turns
        from workers.heartbeat import WORKER_TTL_S
        from workers.turn_worker import TurnWorker

        logs.configure(args.log_level)
        sink = open(os.devnull, "w")  # the run's whole life
        for handler in logging.getLogger().handlers:
            handler.setStream(sink)
        # The outbox of a web move runs before its answer: no thread of the app runs during a job.
        api = create_app({"REDIS_URL": url, "RATE_LIMIT": 10 ** 9, "DEFER_AFTER_APPEND": False})
        connection = redis.Redis.from_url(url)
        kinds = {"SimpleWorker": SimpleWorker, "TurnWorker": TurnWorker}
        asked = [k for k in args.workers.split(",") if k]
        workers = {}
        for kind in asked:
            workers[kind] = kinds[kind]([Queue("turns", connection=connection)], connection=connection,
                                        worker_ttl=WORKER_TTL_S, job_class="jobs.Job")
            workers[kind].bootstrap(args.log_level)
        for handler in logging.getLogger().handlers + logging.getLogger("rq.worker").handlers:
            if isinstance(handler, logging.StreamHandler):
                handler.setStream(sink)

        clock = Clock()
        if args.pieces:
            from rq.job import Job as RQJob
            from rq.worker.base import BaseWorker

            clock.wrap(turns, "play_chain", "service: play_chain")
            clock.wrap(service_module.GameService, "load", "  load (catch-up read, fold)")
            clock.wrap(service_module.GameService, "move", "  move")
            clock.wrap(store_module.RedisEventStore, "append", "    the append (Lua, its round trip)")
            clock.wrap(service_module.GameService, "_outbox", "    after-append (outbox)")
            for name in ("heartbeat", "set_state", "prepare_execution", "prepare_job_execution",
                         "handle_execution_ended", "handle_job_success"):
                clock.wrap(BaseWorker, name, f"rq: worker.{name}")
            clock.wrap(RQJob, "perform", "rq: job.perform (take_turn in it)")
            clock.wrap(RQJob, "delete", "rq: job.delete (result_ttl=0)")
        lines = {kind: collections.Counter() for kind in asked}
        real_handle = logging.Handler.handle
        now = [asked[0]]

        def counted(self, record):
            if clock.on:
                lines[now[0]][record.name] += 1
            return real_handle(self, record)
        logging.Handler.handle = counted
        if args.pieces:
            clock.wrap(logging.Handler, "handle", "log lines (formatted, written)")

        cpus = {kind: collections.Counter() for kind in asked}
        jobs_run = collections.Counter()
        job_cpu = collections.Counter()
        job_commands = collections.Counter()
        rng = random.Random(7)
        moves = key = 0
        while moves < args.moves:
            body = json.dumps({"type": args.game, "seats": [{"name": f"p{i}"} for i in range(args.seats)]}).encode()
            created = json.loads(call(api, environ("POST", "/games", body))[1])
            gid, auth = created["id"], {"Authorization": f"Bearer {created['table_token']}"}
            page = json.loads(call(api, environ("GET", f"/games/{gid}/moves", headers=auth,
                                                query="labels=false"))[1])
            while moves < args.moves:
                key += 1
                move = json.dumps({"expected_version": page["version"], "move": rng.choice(page["moves"])}).encode()
                status, out = call(api, environ("POST", f"/games/{gid}/moves", move,
                                                {**auth, "Idempotency-Key": f"t{key}"},
                                                query=f"include=next_moves&seat={page['seat']}&labels=false"))
                assert status == 201, out
                moves += 1
                nxt = json.loads(out)["next_moves"]
                while not nxt or not nxt["moves"]:
                    kind = now[0] = asked[sum(jobs_run.values()) % len(asked)]  # the kinds in turn
                    worker = workers[kind]
                    clock.cpu = cpus[kind]
                    before = commands(connection)
                    clock.on = True
                    if profiler:
                        profiler.enable()
                    start = time.process_time()
                    result = worker.dequeue_job_and_maintain_ttl(None)  # its loop: dequeue, execute, heartbeat
                    if result is None:
                        clock.on = False
                        break
                    worker.execute_job(*result)
                    worker.heartbeat()
                    job_cpu[kind] += time.process_time() - start
                    if profiler:
                        profiler.disable()
                    clock.on = False
                    job_commands[kind] += commands(connection) - before - 1
                    jobs_run[kind] += 1
                    game = json.loads(call(api, environ("GET", f"/games/{gid}", headers=auth))[1])
                    if game["status"] == "finished":
                        nxt = None
                        break
                    nxt = json.loads(call(api, environ("GET", f"/games/{gid}/moves", headers=auth,
                                                       query="labels=false"))[1])
                    if "moves" not in nxt:
                        nxt = None
                if not nxt or not nxt.get("moves"):
                    break
                page = nxt
        total = sum(jobs_run.values())
        print(f"{args.game}: {moves} moves, {total} jobs ({total / max(1, moves):.2f} a move), the worker kinds "
              f"in turn, job by job")
        labels = ["a job, all (dequeue, execute, heartbeat)", "Redis commands a job", "log lines a job"]
        labels += sorted({label for cpu in cpus.values() for label in cpu}, key=lambda x: x.strip())
        if args.pieces:
            labels.append("RQ and the rest (all - service - log lines)")
        rows = []
        for label in labels:
            row = [label]
            for kind in asked:
                n = max(1, jobs_run[kind])
                cpu = cpus[kind]
                if label.startswith("a job"):
                    row.append(f"{1000 * job_cpu[kind] / n:.3f}")
                elif label.startswith("Redis"):
                    row.append(f"{job_commands[kind] / n:.1f}")
                elif label.startswith("log lines a job"):
                    row.append(", ".join(f"{k} {v / n:.1f}" for k, v in sorted(lines[kind].items())))
                elif label.startswith("RQ and"):
                    rest = job_cpu[kind] - cpu["service: play_chain"] - cpu["log lines (formatted, written)"]
                    row.append(f"{1000 * rest / n:.3f}")
                else:
                    row.append(f"{1000 * cpu[label] / n:.3f}")
            rows.append(tuple(row))
        print(table(rows, ("per job, process CPU ms", *(f"{k} ({jobs_run[k]} jobs)" for k in asked))))
        if profiler:
            import pstats

            pstats.Stats(profiler).sort_stats("cumulative").print_stats(60)

if __name__ == "__main__":
    main()
