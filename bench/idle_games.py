"""Idle games (issue 14): `python -m bench.idle_games [N]` (default 100,000; --quick: 10,000).

Fills a private Redis with N games waiting for a person (Splendor, two people: created, nobody
moves), then measures:
- Redis memory and append-only file bytes per idle game;
- a reconciler pass (workers/reconciler.py with a Watch, as `python app.py` runs it, including
  the idleness check of workers/abandon.py): its own CPU, Redis's CPU and the commands it sends;
- beside it, the first layout's pass emulated (SSCAN of a set of all N games and an XLEN of
  each, which it did every 2 s before judging any game), for the contrast.
The fill writes with `appendfsync everysec` (creation speed is not what is measured here).
"""
from __future__ import annotations

import sys
import time

import redis

from bench.common import private_redis


def _info(client, section):
    return client.info(section)


def _cpu(client) -> float:
    info = client.info("cpu")
    return info["used_cpu_sys"] + info["used_cpu_user"]


def _commands(client) -> int:
    return client.info("stats")["total_commands_processed"]


def _measure(client, passes: int, one_pass) -> tuple[float, float, float]:
    """(our CPU ms, Redis CPU ms, commands) per pass."""
    cpu0, rcpu0, cmd0 = time.process_time(), _cpu(client), _commands(client)
    for _ in range(passes):
        one_pass()
    n = passes
    return ((time.process_time() - cpu0) / n * 1000, (_cpu(client) - rcpu0) / n * 1000,
            (_commands(client) - cmd0 - 2) / n)


def main(argv: list[str]) -> None:
    import os

    quick = "--quick" in argv
    numbers = [a for a in argv if a.isdigit()]
    n = int(numbers[0]) if numbers else (10_000 if quick else 100_000)
    os.environ.setdefault("BENCH_FSYNC", "everysec")
    from api.games.service import GameService
    from events.redis_store import RedisEventStore
    from workers.reconciler import Watch, reconcile_once

    with private_redis() as url:
        client = redis.Redis.from_url(url)
        client.config_set("appendonly", "yes")
        time.sleep(0.5)
        mem0 = client.info("memory")["used_memory"]
        aof0 = client.info("persistence").get("aof_current_size", 0)
        service = GameService(RedisEventStore(client, "idle:"))
        started = time.perf_counter()
        ids = []
        for i in range(n):
            ids.append(service.create("splendor", [{"name": "Ann"}, {"name": "Bob"}], {})["id"])
            if i % 1000 == 999:
                service.games._cache.clear()
                service.games._meta.clear()
                service.games._credentials.clear()
        fill_s = time.perf_counter() - started
        mem = (client.info("memory")["used_memory"] - mem0) / n
        aof = (client.info("persistence").get("aof_current_size", 0) - aof0) / n

        class NoQueue:
            def ensure(self, *a, **kw):
                return False

        watch = Watch()
        reconcile_once(service, NoQueue(), watch, 7 * 24 * 3600)  # first sight
        ours = _measure(client, 20, lambda: reconcile_once(service, NoQueue(), watch, 7 * 24 * 3600))

        legacy_key = "idle:legacy-active"
        for i in range(0, n, 10_000):
            client.sadd(legacy_key, *ids[i:i + 10_000])

        def first_layout_pass():
            games = [g.decode() for g in client.sscan_iter(legacy_key, count=500)]
            service.store.versions(games)

        first = _measure(client, 3, first_layout_pass)

    print(f"idle games: {n:,} Splendor games waiting for a person (filled in {fill_s:.0f} s)")
    print(f"  Redis memory per game: {mem:,.0f} B; append-only file per game: {aof:,.0f} B")
    print(f"{'reconciler pass':<44} {'CPU ms':>8} {'Redis CPU ms':>13} {'commands':>10}")
    print(f"{'now: owing set + idleness check':<44} {ours[0]:>8.2f} {ours[1]:>13.2f} {ours[2]:>10.0f}")
    print(f"{'first layout (emulated): every game':<44} {first[0]:>8.1f} {first[1]:>13.1f} {first[2]:>10.0f}")


if __name__ == "__main__":
    main(sys.argv[1:])
