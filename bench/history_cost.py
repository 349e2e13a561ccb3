"""Reading a long live game's past (issue 30): `GET /games/{id}/state?version=N` cold, and the
NDJSON export of a live game against paging its history.

    python -m bench --only history [--quick]

A live `bench-long` game of 10,000 events (bench/long_game.py: every event hides its draw from
the other seat, so a seat's view of each is the game's redaction, never the stored bytes), grown
as the server grows one: a snapshot every SNAPSHOT_EVERY events.

state: in-process, a fresh GameService each time (a new or restarted worker, no cache): what the
route behind `state?version=N` does (load the game, then the game at N) for N in the middle and
near the end, against a full cold load (every event replayed: no snapshot) and a cold load from
the latest snapshot. Then the same N on a game whose history has no snapshot but the latest
(grown by an older server, or by appends with no reads): the first read and the ones after it.

export: over HTTP against `python app.py` with one web worker, as seat 0: the export (one
streamed request) against paging the history at the page limit (1,000 events a request), each
with the web worker's CPU (utime + stime from /proc) per whole read and the wall time.
"""
from __future__ import annotations

import http.client
import os
import statistics
import time
from urllib.parse import urlsplit

import redis

from bench.common import grow_game, private_redis, running_server, table


def _cpu(pid: int) -> float:
    """Seconds of CPU the process has used (utime + stime)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _median(fn, k: int) -> float:
    times = []
    for _ in range(k):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def grow_with_snapshots(service, gid: str, target: int) -> int:
    """Grows the game to `target` events with a snapshot every SNAPSHOT_EVERY events, as a
    server's appends leave them (each append's process saves one when its last is that old)."""
    every = service.games.snapshot_every
    version = service.load(gid).version
    while version < target:
        version = grow_game(service, gid, min(target, version + every), seed=version)
        service.load(gid)  # cold: latest snapshot + tail; remember() saves the next one
    return version


class NoSnapshots:
    """The store with its snapshots hidden: a full cold load replays every event."""

    def __init__(self, store):
        self._store = store

    def __getattr__(self, name):
        return getattr(self._store, name)

    def load_snapshot(self, *args, **kwargs):
        return None

    def save_snapshot(self, *args, **kwargs):
        return None

    def save_snapshots(self, *args, **kwargs):
        return None


def state_rows(store, service_type, gid: str, length: int, k: int, full: float) -> list[tuple]:
    latest = _median(lambda: service_type(store).load(gid), k)
    rows = []
    for n in (length // 2 + 37, length - 63):
        def route(n=n):  # api/http/games.py state_at: the game now, then the game at N
            service = service_type(store)
            return service.at_version(gid, n, service.load(gid))

        cold = _median(route, k)
        rows.append((f"{n:,}", f"{full * 1000:.1f}", f"{latest * 1000:.2f}", f"{cold * 1000:.2f}",
                     f"{cold / full:.3f}", f"{cold / latest:.1f}"))
    return rows


def snapshot_sizes() -> dict[str, tuple[int, int]]:
    """Each hosted game's snapshot (its pickled state and platform state, as the repository
    keeps it) halfway through a random playout: (bytes, the playout's events)."""
    import pickle

    from api.games.service import GameService
    from bench.common import configs, hosted_games
    from events.memory_store import InMemoryEventStore

    sizes = {}
    for d in hosted_games():
        n, options = configs(d)[0]
        service = GameService(InMemoryEventStore())
        gid = service.create(d.name, [{"name": f"p{i}"} for i in range(n)], options, seed=5)["id"]
        version = grow_game(service, gid, 10 ** 6, seed=5)
        past = service.at_version(gid, max(int(service.load(gid).meta["setup_version"]), version // 2))
        sizes[d.name] = (len(pickle.dumps((past.state, past.platform), protocol=pickle.HIGHEST_PROTOCOL)), version)
    return sizes


def run(quick: bool = False, smoke: bool = False) -> dict:
    from api.games.service import GameService
    from bench import long_game
    from bench.history_export import _get, _is_app, _web_worker, export, paged
    from domain import registry
    from events.redis_store import RedisEventStore

    registry.register(long_game.GAME)
    length = 1000 if smoke else 10000
    k = 3 if smoke else 9 if quick else 25
    results: dict = {}
    with private_redis() as url:
        store = RedisEventStore(redis.Redis.from_url(url))
        service = GameService(store)
        gid = service.create(long_game.NAME, [{"name": "a"}, {"name": "b"}], {}, seed=1)["id"]
        token = None
        grow_with_snapshots(service, gid, length)
        full = _median(lambda: GameService(NoSnapshots(store)).load(gid), max(5, k // 2))
        rows = state_rows(store, GameService, gid, length, k, full)
        # A history with only its latest snapshot (grown by appends no process snapshotted, or
        # by an older server): the first cold read of N, then the next ones.
        bare = service.create(long_game.NAME, [{"name": "a"}, {"name": "b"}], {}, seed=2)
        grow_game(service, bare["id"], length, seed=2)
        n, firsts, others = length // 2 + 37, [], []
        other = length // 4 + 3
        for _ in range(1 if smoke else 5):
            store.delete_snapshot(bare["id"])
            GameService(store).snapshot(GameService(NoSnapshots(store)).load(bare["id"]))  # the latest only
            assert store.load_snapshot(bare["id"], GameService._snapshot_code(long_game.GAME), at_most=length - 1) is None
            t0 = time.perf_counter()
            first = GameService(store)
            first.at_version(bare["id"], n, first.load(bare["id"]))
            firsts.append(time.perf_counter() - t0)
            t0 = time.perf_counter()  # then the first read of another N, before it
            first = GameService(store)
            first.at_version(bare["id"], other, first.load(bare["id"]))
            others.append(time.perf_counter() - t0)
        first_s, other_s = statistics.median(firsts), statistics.median(others)

        def again(n):
            fresh = GameService(store)
            fresh.at_version(bare["id"], n, fresh.load(bare["id"]))

        after = _median(lambda: again(n + 11), k)
        rows.append((f"{n:,}, no snapshot before it: first read", f"{full * 1000:.1f}", "-", f"{first_s * 1000:.2f}",
                     f"{first_s / full:.3f}", "-"))
        rows.append((f"{n + 11:,}, after that read", f"{full * 1000:.1f}", "-", f"{after * 1000:.2f}",
                     f"{after / full:.3f}", "-"))
        rows.append((f"{other:,}, after that read: its first read", f"{full * 1000:.1f}", "-", f"{other_s * 1000:.2f}",
                     f"{other_s / full:.3f}", "-"))
        snaps = redis.Redis.from_url(url).memory_usage(store.keys.snapshots(gid), samples=0) or 0
        stream = redis.Redis.from_url(url).memory_usage(store.keys.events(gid), samples=0) or 1
        results["state"] = {r[0]: {"cold_ms": r[3], "x_full": r[4]} for r in rows}
        print(f"state?version=N of a live {length:,}-event bench-long game, in-process, cold (a fresh service), "
              f"medians of {k}; snapshot every {service.games.snapshot_every} events: {snaps / 1024:.0f} KiB of "
              f"snapshots beside a {stream / 1024:.0f} KiB stream ({snaps / stream * 100:.0f}%)")
        print(table(rows, ("N", "full cold load ms", "cold load, latest snapshot ms", "cold state?version=N ms",
                           "x full cold load", "x latest-snapshot load")))
        sizes = snapshot_sizes()
        every = service.games.snapshot_every
        print("A snapshot of each hosted game halfway through a playout (bytes of the pickle; Redis adds ~60 a "
              f"field), and what one every {every} events adds per 1,000 events: " + "; ".join(
                  f"{name} {size:,} B ({events} events: {size * 1000 // every / 1024:.0f} KiB per 1,000)"
                  for name, (size, events) in sizes.items()))
        results["snapshot_bytes"] = {name: size for name, (size, _) in sizes.items()}
        token = service.create(long_game.NAME, [{"name": "a"}, {"name": "b"}], {}, seed=3)
        live, token = token["id"], token["seats"][0]["token"]
        version = grow_with_snapshots(service, live, length + 1)
        print()
        with running_server(url, EXTRA_GAME_MODULES="bench.long_game", WEB_WORKERS="1", TURN_WORKERS="1") as base:
            u = urlsplit(base)
            conn = http.client.HTTPConnection(u.hostname, u.port, timeout=120)
            app_pid = next(int(p) for p in os.listdir("/proc") if p.isdigit() and _is_app(int(p), u.port))
            worker = _web_worker(app_pid)
            _get(conn, f"/games/{live}", token)
            rows, figures = [], {}
            for name, read in (("export (ndjson)", export), ("paging (JSON, 1,000 a page)", paged)):
                first_cpu = _cpu(worker)
                t0 = time.perf_counter()
                assert read(conn, live, token) == version
                first_wall, first_cpu = time.perf_counter() - t0, _cpu(worker) - first_cpu
                cpus, walls = [], []
                for _ in range(k):
                    c0, t0 = _cpu(worker), time.perf_counter()
                    read(conn, live, token)
                    walls.append(time.perf_counter() - t0)
                    cpus.append(_cpu(worker) - c0)
                figures[name] = (statistics.median(walls), sum(cpus) / k, first_wall, first_cpu)
            page_wall, page_cpu = figures["paging (JSON, 1,000 a page)"][:2]
            for name, (wall, cpu, first_wall, first_cpu) in figures.items():
                rows.append((name, f"{version:,}", f"{first_wall * 1000:.0f}", f"{first_cpu * 1000:.0f}",
                             f"{wall * 1000:.1f}", f"{cpu * 1000:.1f}", f"{version / wall:,.0f}",
                             f"{page_wall / wall:.1f}x", f"{page_cpu / cpu:.1f}x" if cpu else "-"))
                results[name] = {"wall_s": wall, "cpu_s": cpu, "first_wall_s": first_wall, "first_cpu_s": first_cpu}
    print(f"A live {version:,}-event game's whole history as seat 0, one keep-alive client, python app.py with one "
          f"web worker; the worker's CPU (10 ms ticks) averaged over {k} reads after the first; "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(table(rows, ("read", "events", "first wall ms", "first CPU ms", "wall ms", "CPU ms", "events/s",
                       "x paging (wall)", "x paging (CPU)")))
    return results


if __name__ == "__main__":
    import sys

    run("--quick" in sys.argv, smoke="--smoke" in sys.argv)
