"""Moves over HTTP on one Redis against a Redis Cluster (3 primaries, 3 replicas on loopback,
tests/cluster/cluster.py), with 1 and 2 API nodes (`python app.py` each, one web worker), and
on the cluster with REPLICAS_ACK=1 (WAIT 1 after each append).

    python -m bench.cluster [--seconds 8] [--conns 16]

Figures per row: moves/s, p50/p99 of the POST, and CPU per move: the API nodes' processes
(web, RQ worker, reconciler) and Redis's (every node of the cluster, replicas included), read
from /proc. Every Redis here fsyncs once a second (the cluster's nodes do; the single Redis is
started the same way so that only the topology differs). On a 2-core machine the generator
(Python threads) and the servers share the cores: throughput is a ratio between rows, and CPU
per move the figure to plan with (docs/scaling.md). The load average is printed with the rows.
"""
from __future__ import annotations

import argparse
import contextlib
import os
import tempfile
import threading
import time

from bench.common import percentile, running_server, table
from bench.http_moves import _tree, cpu_seconds, run_python


def _load(bases: list[str], conns: int, seconds: float, server_pids: list[int], redis_pids: list[int]) -> dict:
    pids = [p for root in server_pids for p in _tree(root)]
    before = cpu_seconds(pids), cpu_seconds(redis_pids)
    results = [None] * len(bases)

    def one(i):
        results[i] = run_python(bases[i], "game", max(1, conns // len(bases)), seconds)

    threads = [threading.Thread(target=one, args=(i,)) for i in range(len(bases))]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    after = cpu_seconds(pids), cpu_seconds(redis_pids)
    moves = max(1, sum(r["moves"] for r in results))
    post = [x for r in results for x in r["post"]]
    duration = max(r["duration"] for r in results)
    return {"rate": moves / duration, "p50": percentile(post, 0.5), "p99": percentile(post, 0.99),
            "cpu_server": (after[0] - before[0]) / moves, "cpu_redis": (after[1] - before[1]) / moves,
            "errors": sum(r["errors"] for r in results), "conflicts": sum(r["conflicts"] for r in results)}


def _server_pids(bases: list[str]) -> list[int]:
    from bench.http_moves import _server_pid

    return [_server_pid(b) for b in bases]


def _redis_pid(url: str) -> int:
    import redis

    return int(redis.Redis.from_url(url).info("server")["process_id"])


@contextlib.contextmanager
def _nodes(url: str, n: int, **env):
    with contextlib.ExitStack() as stack:
        bases = [stack.enter_context(running_server(url, WEB_WORKERS="1", TURN_WORKERS="1", WEBHOOK_WORKERS="0",
                                                    KEY_PREFIX="bench:", **env)) for _ in range(n)]
        yield bases


def run(seconds: float = 8, conns: int = 16) -> list[tuple]:
    from events import local_redis
    from tests.cluster.cluster import Cluster

    rows = []
    with tempfile.TemporaryDirectory() as single_dir, tempfile.TemporaryDirectory() as queue_dir:
        single, single_proc = local_redis.start(single_dir, fsync="everysec")
        queue, queue_proc = local_redis.start(queue_dir, fsync="everysec")
        cluster = Cluster().start()
        try:
            cluster_pids = [n.proc.pid for n in cluster.nodes]
            plans = [("one Redis, 1 node", single, 1, {}, [_redis_pid(single)]),
                     ("one Redis, 2 nodes", single, 2, {}, [_redis_pid(single)]),
                     ("cluster, 1 node", cluster.url, 1, {"QUEUE_REDIS_URL": queue}, cluster_pids),
                     ("cluster, 2 nodes", cluster.url, 2, {"QUEUE_REDIS_URL": queue}, cluster_pids),
                     ("cluster, 1 node, REPLICAS_ACK=1", cluster.url, 1,
                      {"QUEUE_REDIS_URL": queue, "REPLICAS_ACK": "1"}, cluster_pids)]
            for name, url, n, env, redis_pids in plans:
                with _nodes(url, n, **env) as bases:
                    r = _load(bases, conns, seconds, _server_pids(bases), redis_pids)
                load = os.getloadavg()[0]
                rows.append((name, f"{r['rate']:.0f}", f"{r['p50'] * 1000:.1f}", f"{r['p99'] * 1000:.1f}",
                             f"{r['cpu_server'] * 1000:.2f}", f"{r['cpu_redis'] * 1000:.2f}", r["errors"],
                             f"{load:.2f}"))
                print(" | ".join(str(x) for x in rows[-1]), flush=True)
        finally:
            cluster.stop()
            for proc in (single_proc, queue_proc):
                if proc is not None:
                    proc.terminate()
                    proc.wait(timeout=10)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--conns", type=int, default=16)
    args = parser.parse_args()
    started = time.time()
    rows = run(args.seconds, args.conns)
    print(table(rows, ("setup", "moves/s", "p50 ms", "p99 ms", "API CPU ms/move", "Redis CPU ms/move", "errors",
                       "load avg")))
    print(f"({args.conns} clients, {args.seconds:.0f} s a row, {time.time() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
