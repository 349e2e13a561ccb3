"""Moves over HTTP on one Redis against a Redis Cluster (3 primaries, 3 replicas on loopback,
tests/cluster/cluster.py), with 1 and 2 API nodes (`python app.py` each, one web worker), and
on the cluster with REPLICAS_ACK=1 (WAIT 1 after each append).

    python -m bench.cluster [--seconds 8] [--conns 16] [--only http,appends,memory]

`appends`: the price of durability, in-process (no HTTP): sequential appends of one 200-byte
event on one Redis with `appendfsync everysec` and `always`, on the cluster, and on the cluster
with REPLICAS_ACK=1 (WAIT 1): p50/p99 per append and Redis CPU per append.
`watchers`: what the live reader costs on a cluster while nothing happens (it polls: one XREAD
per watched slot every LIVE_POLL_MS, events/cluster_follower.py): Redis and reader CPU per
second for 100 and 1,000 watched games.
`memory`: bytes per finished Splendor game (2 people, played to its end with Idempotency-Keys),
from the growth of used_memory: one Redis against the cluster's primaries and replicas.

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
import threading
import time

from bench.common import local_redis_server, percentile, running_server, table
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

    rows = []
    with local_redis_server("everysec") as single, local_redis_server("everysec") as queue, _cluster() as cluster:
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
    return rows


def _appends(store, n: int, redis_pids: list[int]) -> tuple:
    import uuid

    from events.store import NewEvent

    gid = uuid.uuid4().hex[:12]
    store.create(gid, {"type": "bench"}, {}, [NewEvent("start", {"type": "start"}, None)])
    data = {"type": "move", "pad": "x" * 150}
    times = []
    before = cpu_seconds(redis_pids)
    for v in range(1, n + 1):
        t = time.perf_counter()
        store.append(gid, v, [NewEvent("move", data, 0)])
        times.append(time.perf_counter() - t)
    cpu = (cpu_seconds(redis_pids) - before) / n
    return f"{percentile(times, 0.5) * 1000:.2f}", f"{percentile(times, 0.99) * 1000:.2f}", f"{cpu * 1000:.3f}"


def run_appends(n: int = 2000) -> list[tuple]:
    import redis

    from events.redis_store import RedisEventStore

    rows = []
    with local_redis_server("everysec") as lazy, local_redis_server("always") as strict, _cluster() as cluster:
        from events.connection import store_client

        pids = [n_.proc.pid for n_ in cluster.nodes]
        client = store_client(cluster.url)
        plans = [("one Redis, appendfsync everysec", RedisEventStore(redis.Redis.from_url(lazy), "b:"),
                  [_redis_pid(lazy)]),
                 ("one Redis, appendfsync always", RedisEventStore(redis.Redis.from_url(strict), "b:"),
                  [_redis_pid(strict)]),
                 ("cluster (everysec)", RedisEventStore(client, "b:", replicas_ack=(0, 0)), pids),
                 ("cluster + REPLICAS_ACK=1 (WAIT 1)", RedisEventStore(client, "b:", replicas_ack=(1, 1000)),
                  pids)]
        for name, store, redis_pids in plans:
            rows.append((name, *_appends(store, n, redis_pids), f"{os.getloadavg()[0]:.2f}"))
            print(" | ".join(rows[-1]), flush=True)
    return rows


def run_watchers(seconds: float = 5) -> list[tuple]:
    import resource
    import uuid

    from events.connection import store_client
    from events.redis_store import RedisEventStore
    from events.store import NewEvent

    rows = []
    with _cluster() as cluster:
        pids = [n.proc.pid for n in cluster.nodes]
        store = RedisEventStore(store_client(cluster.url), "w:")
        games = []
        for watched in (100, 1000):
            while len(games) < watched:
                gid = uuid.uuid4().hex[:12]
                store.create(gid, {"type": "bench"}, {}, [NewEvent("start", {"type": "start"}, None)])
                games.append(gid)
            follower = store.follower()
            before, mine = cpu_seconds(pids), resource.getrusage(resource.RUSAGE_SELF)
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                follower.read({g: 1 for g in games}, block_ms=int((end - time.monotonic()) * 1000) + 1)
            after, mine2 = cpu_seconds(pids), resource.getrusage(resource.RUSAGE_SELF)
            reader = (mine2.ru_utime + mine2.ru_stime - mine.ru_utime - mine.ru_stime) / seconds
            rows.append((watched, f"{(after - before) / seconds * 1000:.0f}", f"{reader * 1000:.0f}",
                         f"{os.getloadavg()[0]:.2f}"))
            print(" | ".join(str(x) for x in rows[-1]), flush=True)
    return rows


@contextlib.contextmanager
def _cluster():
    """A 3-primary, 3-replica cluster on loopback (tests/cluster/cluster.py), stopped after."""
    from tests.cluster.cluster import Cluster

    cluster = Cluster().start()
    try:
        yield cluster
    finally:
        cluster.stop()


def _used(clients) -> int:
    return sum(int(c.info("memory")["used_memory"]) for c in clients)


def run_memory(games: int = 20) -> list[tuple]:
    import redis

    from api.games.service import GameService
    from bench.memory import play_to_end
    from domain import registry
    from events.connection import store_client
    from events.redis_store import RedisEventStore

    splendor = registry.get("splendor") if hasattr(registry, "get") else next(
        g for g in registry.all_games() if g.name == "splendor")
    rows = []
    with local_redis_server("everysec") as url, _cluster() as cluster:
        plans = [("one Redis", redis.Redis.from_url(url), [redis.Redis.from_url(url)]),
                 ("cluster, primaries", store_client(cluster.url), [p.client() for p in cluster.primaries()]),
                 ("cluster, primaries + replicas", None, [n.client() for n in cluster.nodes])]
        every_node = [n.client() for n in cluster.nodes]
        before_all = _used(every_node)  # nothing is written to the cluster before its row
        for name, client, measured in plans:
            if client is None:  # the cluster's games, counted with the replicas' copies
                time.sleep(1)
                rows.append((name, f"{(_used(measured) - before_all) / games:.0f}"))
                continue
            before = _used(measured)
            service = GameService(RedisEventStore(client, "m:"))
            for seed in range(games):
                play_to_end(service, splendor, 2, {}, seed)
            time.sleep(1)
            rows.append((name, f"{(_used(measured) - before) / games:.0f}"))
            print(" | ".join(rows[-1]), flush=True)
    return rows


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--seconds", type=float, default=8)
    parser.add_argument("--conns", type=int, default=16)
    parser.add_argument("--only", default="http,appends,watchers,memory")
    args = parser.parse_args()
    parts = args.only.split(",")
    started = time.time()
    if "http" in parts:
        rows = run(args.seconds, args.conns)
        print(table(rows, ("setup", "moves/s", "p50 ms", "p99 ms", "API CPU ms/move", "Redis CPU ms/move", "errors",
                           "load avg")))
        print(f"({args.conns} clients, {args.seconds:.0f} s a row)")
    if "appends" in parts:
        rows = run_appends()
        print(table(rows, ("appends (one event, sequential)", "p50 ms", "p99 ms", "Redis CPU ms/append",
                           "load avg")))
    if "watchers" in parts:
        rows = run_watchers()
        print(table(rows, ("games watched, none moving", "Redis CPU ms/s (6 nodes)", "reader CPU ms/s",
                           "load avg")))
    if "memory" in parts:
        rows = run_memory()
        print(table(rows, ("finished Splendor game, 2 people", "bytes of Redis memory per game")))
    print(f"({time.time() - started:.0f} s in all)")


if __name__ == "__main__":
    main()
