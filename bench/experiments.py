"""Experiments behind the recommendations in bench/README.md: what a change to the platform
would buy, measured without changing the platform.

    python -m bench.experiments [serving] [hiredis] [snapshots] [fsync]

serving:   the floor (bench/floor_app.py) under wrk at 16 connections, served as app.py serves
           the API (app.py's gevent workers; its access log is the app's own, off unless
           ACCESS_LOG=1), then with gunicorn's access log to stdout added, then with gunicorn sync workers (2 x cores), then with 3 extra read round trips per
           POST (the reads the API's move path makes before its append).
hiredis:   reading a 10,000-event stream (XRANGE + the store's decode) with redis-py's Python
           parser and with hiredis (installed into a throwaway directory, not the shared venv);
           and the same events stored as one field per entry instead of four.
snapshots: state at version N of a 10,000-event game: the service's replay from the start, and a
           replay from a snapshot kept every 100 versions (what `at_version` could do).
fsync:     appendfsync always against everysec, on the floor and on bot-only games at once.
"""
from __future__ import annotations

import json
import os
import pickle
import statistics
import subprocess
import sys
import tempfile
import time

import redis

from bench.common import ROOT, private_redis, running_wsgi, table


def serving(seconds: float = 4, conns: int = 16, rounds: int = 2) -> None:
    from bench import common
    from bench.http_moves import _redis_pid, load

    original = common.server_command
    variants = [
        ("gevent x%d (as app.py)", lambda c: c, ""),
        ("gevent x%d, gunicorn access log", lambda c: c[:-1] + ["--access-logfile", "-"] + c[-1:], ""),
        ("sync x{sync}", "sync", ""),
        ("gevent x%d, +3 read round trips", lambda c: c, "?extra=3"),
    ]
    results: dict = {}
    with private_redis() as url:
        rpid = _redis_pid(url)
        for label, change, query in [v for _ in range(rounds) for v in variants]:
            def command(app_spec, env, change=change):
                cmd = original(app_spec, env)
                if change == "sync":
                    cmd[cmd.index("--worker-class") + 1] = "sync"
                    cmd[cmd.index("--workers") + 1] = str(2 * (os.cpu_count() or 1))
                    k = cmd.index("--worker-connections")
                    del cmd[k:k + 2]
                    return cmd
                return change(cmd)

            common.server_command = command
            try:
                os.environ["BENCH_FLOOR_QUERY"] = query
                cmd = command("bench.floor_app:create_app()", {**os.environ, "PORT": "0"})
                workers = cmd[cmd.index("--workers") + 1]
                with running_wsgi("bench.floor_app:create_app()", {"REDIS_URL": url}) as (base, proc):
                    res = load(base, "floor", conns, seconds, proc.pid, rpid)
            finally:
                common.server_command = original
                os.environ.pop("BENCH_FLOOR_QUERY", None)
            name = label.replace("%d", workers).replace("{sync}", workers)
            results.setdefault(name, []).append(res)
    med = lambda runs, k: statistics.median(r[k] for r in runs)
    rows = [(name, f"{med(runs, 'rate'):,.0f}", f"{med(runs, 'p50') * 1000:.1f}", f"{med(runs, 'p99') * 1000:.1f}",
             f"{med(runs, 'cpu_server') * 1000:.3f}", f"{med(runs, 'cpu_redis') * 1000:.3f}")
            for name, runs in results.items()]
    print(f"Serving the floor (POST: the Lua append), wrk, {conns} connections, {seconds:g} s each, "
          f"median of {rounds} interleaved rounds")
    print(table(rows, ("setup", "POSTs/s", "p50 ms", "p99 ms", "server CPU ms/POST", "redis CPU ms/POST")))


HIREDIS_PROBE = r"""
import json, sys, time, statistics, redis
sys.path.insert(0, sys.argv[2])
from events.redis_store import RedisEventStore
r = redis.Redis.from_url(sys.argv[1])
store = RedisEventStore(r)
parser = type(r.connection_pool.get_connection()._parser).__name__
times, one = [], []
for _ in range(7):
    t = time.perf_counter(); events = store.read("exp", after=0); times.append(time.perf_counter() - t)
    t = time.perf_counter()
    entries = r.xrange("exp:one", min="-", max="+")
    decoded = [json.loads(f[b"e"]) for _, f in entries]
    one.append(time.perf_counter() - t)
print(parser, len(events), statistics.median(times), statistics.median(one))
"""


def hiredis(n: int = 10000) -> None:
    from bench.common import random_history
    from bench.long_game import GAME
    from events.keys import Keys
    from events.redis_entries import encode_entries
    from events.store import NewEvent

    events, _ = random_history(GAME, 2, {}, seed=1, limit=n)
    with private_redis() as url, tempfile.TemporaryDirectory() as target:
        conn = redis.Redis.from_url(url)
        key = Keys("").events("exp")
        at = int(time.time() * 1000)
        one = encode_entries([NewEvent(e["type"], e, 0) for e in events], at)
        pipe = conn.pipeline(transaction=False)
        for v, e in enumerate(events):
            # the first layout (a field each: the store still reads it) against today's one field
            pipe.xadd(key, {"type": e["type"], "data": json.dumps(e), "actor": "0", "at": at}, id=f"0-{v + 1}")
            pipe.xadd("exp:one", {"e": one[v]}, id=f"0-{v + 1}")
        pipe.execute()
        rows = []
        probe = os.path.join(target, "probe.py")
        with open(probe, "w") as f:
            f.write(HIREDIS_PROBE)
        installed = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", os.path.join(target, "lib"),
                                    "hiredis"], capture_output=True).returncode == 0
        for label, extra_path in (("redis-py Python parser", None), ("hiredis", os.path.join(target, "lib"))):
            if extra_path and not installed:
                rows.append((label, "-", "could not install hiredis", "-"))
                continue
            env = {**os.environ}
            if extra_path:
                env["PYTHONPATH"] = extra_path + os.pathsep + env.get("PYTHONPATH", "")
            out = subprocess.run([sys.executable, probe, url, str(ROOT)], env=env, capture_output=True, text=True,
                                 cwd=ROOT, timeout=300)
            if out.returncode:
                rows.append((label, "-", out.stderr.strip()[-120:], "-"))
                continue
            parser, count, four, one = out.stdout.split()
            rows.append((f"{label} ({parser})", count, f"{float(four) * 1000:.1f} ({float(four) / int(count) * 1e6:.1f} µs/event)",
                         f"{float(one) * 1000:.1f} ({float(one) / int(count) * 1e6:.1f} µs/event)"))
    print(f"Reading a {n:,}-event stream from Redis, decoded (no evolve)")
    print(table(rows, ("client", "events", "store.read: 4 fields/entry, ms", "1 JSON field/entry, ms")))


def snapshots(n: int = 10000, every: int = 100) -> None:
    from api.games.service import GameService
    from api.platform.events import PLATFORM_EVENTS
    from bench import long_game
    from bench.common import grow_game
    from domain import registry
    from domain.play import fold
    from events.redis_store import RedisEventStore

    registry.register(long_game.GAME)
    with private_redis() as url:
        conn = redis.Redis.from_url(url)
        store = RedisEventStore(conn)
        service = GameService(store)
        gid = service.create(long_game.NAME, [{"name": "a"}, {"name": "b"}], {}, seed=1)["id"]
        grow_game(service, gid, n)
        # every `every` versions, a snapshot (what the service could keep: one hash field each)
        definition = long_game.GAME
        state, version = None, 0
        snaps = {}
        for e in store.read(gid, after=0):
            state = definition.evolve(state, e.data) if e.type not in PLATFORM_EVENTS else state
            version = e.version
            if version % every == 0:
                snaps[version] = pickle.dumps(state, protocol=pickle.HIGHEST_PROTOCOL)
        conn.hset(f"exp:{{{gid}}}:snapshots", mapping={str(v): b for v, b in snaps.items()})
        size = conn.memory_usage(f"exp:{{{gid}}}:snapshots", samples=0)
        stream = conn.memory_usage(f"game:{{{gid}}}:events", samples=0)

        def from_snapshot(target):
            base = target - target % every
            blob = conn.hget(f"exp:{{{gid}}}:snapshots", str(base)) if base else None
            start = pickle.loads(blob) if blob else None
            tail = store.read_range(gid, base + 1, target)
            return fold(definition, [e.data for e in tail if e.type not in PLATFORM_EVENTS], start)

        rows = []
        for target in (150, 1050, n - 1):
            replay = statistics.median(_times(lambda: GameService(store).at_version(gid, target), 5))
            snap = statistics.median(_times(lambda: from_snapshot(target), 20))
            assert from_snapshot(target) == GameService(store).at_version(gid, target).state
            rows.append((target, f"{replay * 1000:.1f}", f"{snap * 1000:.2f}", f"{replay / snap:.0f}x"))
    print(f"State at version N of a {n:,}-event game (bench-long), in-process, cold: replay from the start "
          f"(today) vs the snapshot at the last multiple of {every} + the tail")
    print(table(rows, ("N", "replay from start ms", "snapshot + tail ms", "gain")))
    print(f"memory: {len(snaps)} snapshots take {size / 1024:.0f} KiB beside a {stream / 1024:.0f} KiB stream "
          f"({size / stream * 100:.0f}%)")


def fsync(seconds: float = 4, conns: int = 16, games: int = 8) -> None:
    """appendfsync always (the server's promise) against everysec: the floor's POSTs, and bot-only
    games at once (RQ's own writes are fsynced too)."""
    from bench import bots
    from bench.common import hosted_games, percentile, running_server
    from bench.http_moves import _redis_pid, load

    rows = []
    for policy in ("always", "everysec", "always", "everysec"):
        os.environ["BENCH_FSYNC"] = policy
        try:
            with private_redis() as url:
                rpid = _redis_pid(url)
                with running_wsgi("bench.floor_app:create_app()", {"REDIS_URL": url}) as (base, proc):
                    res = load(base, "floor", conns, seconds, proc.pid, rpid)
                with running_server(url) as base:
                    hops, took, _ = bots.concurrent_bot_games(base, url, hosted_games()[0], games, 30)
        finally:
            os.environ.pop("BENCH_FSYNC", None)
        rows.append((policy, f"{res['rate']:,.0f}", f"{res['p50'] * 1000:.1f}", f"{res['p99'] * 1000:.1f}",
                     f"{percentile(hops, 0.5) * 1000:.0f}", f"{percentile(hops, 0.99) * 1000:.0f}",
                     f"{len(hops) / took:.0f}"))
    print(f"appendfsync: the floor at {conns} connections ({seconds:g} s) and {games} bot-only games at once")
    print(table(rows, ("appendfsync", "floor POSTs/s", "p50 ms", "p99 ms", "bot hop median ms", "bot hop p99 ms",
                       "bot moves/s")))


def _times(fn, k):
    out = []
    for _ in range(k):
        t = time.perf_counter()
        fn()
        out.append(time.perf_counter() - t)
    return out


if __name__ == "__main__":
    parts = sys.argv[1:] or ["serving", "hiredis", "snapshots", "fsync"]
    for part in parts:
        {"serving": serving, "hiredis": hiredis, "snapshots": snapshots, "fsync": fsync}[part]()
        print()
