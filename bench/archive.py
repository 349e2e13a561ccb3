"""The archive (issue 31): bytes per finished game in the archive beside its Redis bytes, Redis's
bytes per finished game once archived, and the archive's read speed beside Redis's.

    python -m bench --only archive [--quick]

Games are played to their end in-process by people (random legal moves, each with an
Idempotency-Key: bench/memory.py's play_to_end) on a private Redis and archived into a SQLite
file of the run's own (BENCH_ARCHIVE_URL: another archive, e.g. postgresql://...). Redis bytes
are MEMORY USAGE (SAMPLES 0) of every key of the game; the archive's are its record's payload
(zstd). Reads go through the HTTP routes (Flask's test client, no network): an export (NDJSON)
and `state?version=N` at the middle of the history, from Redis, from the archive as a fresh
process reads it (nothing cached) and from the archive with the game kept decoded.
"""
from __future__ import annotations

import os
import statistics
import tempfile
import time
import uuid

import redis

from bench.common import configs, hosted_games, private_redis, table
from bench.memory import play_to_end
from events.archive import DICTIONARY_BYTES, TRAIN_ON


def _bytes(conn, prefix: str, gid: str) -> int:
    return sum(conn.memory_usage(k, samples=0) or 0 for k in conn.scan_iter(match=f"{prefix}game:{{{gid}}}:*"))


def _ms(client, path: str, runs: int, before=lambda: None) -> float:
    times = []
    for _ in range(runs):
        before()
        t0 = time.perf_counter()
        r = client.get(path)
        times.append((time.perf_counter() - t0) * 1000)
        assert r.status_code == 200, r.status_code
    return statistics.median(times)


def run(quick: bool = False) -> dict:
    from app import create_app
    from workers.archiver import archive_game

    per_type = 1 if quick else 3
    runs = 3 if quick else 9
    results: dict = {}
    rows, speed = [], []
    with private_redis() as url, tempfile.TemporaryDirectory() as data:
        archive_url = os.environ.get("BENCH_ARCHIVE_URL") or f"sqlite:///{data}/archive.sqlite3"
        prefix = f"ba{uuid.uuid4().hex[:6]}:"
        # A turn queue of its own: play_to_end plays the system's moves itself, and under --smoke
        # the shared server's workers (queue "turns" on the same Redis) would play them too (a race:
        # 409 version_conflict).
        app = create_app({"REDIS_URL": url, "KEY_PREFIX": prefix, "ARCHIVE_URL": archive_url, "TESTING": True,
                          "TURN_QUEUE": f"{prefix}turns",
                          "RATE_LIMIT": 10**9, "ADDRESS_READ_LIMIT": 10**9, "NETWORK_READ_LIMIT": 10**9})
        service, conn = app.extensions["games"], redis.Redis.from_url(url)
        store, client = service.store, app.test_client()
        for d in hosted_games():
            n, options = configs(d)[0]
            redis_b = archived_b = raw_b = after_b = events = 0
            for seed in range(per_type):
                gid = play_to_end(service, d, n, options, seed)
                version = store.version(gid)
                events += version
                redis_b += _bytes(conn, prefix, gid)
                mid = max(1, version // 2)
                paths = (f"/games/{gid}/events?format=ndjson", f"/games/{gid}/state?version={mid}")
                from_redis = [_ms(client, p, runs) for p in paths]
                _, raw0, kept0 = store.archive.stats()
                assert archive_game(store, service.games, gid) == "archived"
                _, raw1, kept1 = store.archive.stats()
                raw_b, archived_b = raw_b + raw1 - raw0, archived_b + kept1 - kept0

                def cold(gid=gid):
                    store._archived.clear()
                    service.games.forget(gid)
                    service.games._meta.pop(gid, None)
                from_cold = [_ms(client, p, runs, cold) for p in paths]
                from_warm = [_ms(client, p, runs) for p in paths]
                store.drop_all_archived_idempotency()  # the idempotency walk, whole
                after_b += _bytes(conn, prefix, gid)
                if seed == 0:
                    speed.append((d.name, version, *(f"{x:.1f}" for x in (
                        from_redis[0], from_cold[0], from_warm[0], from_redis[1], from_cold[1], from_warm[1]))))
            g = per_type
            rows.append((d.name, n, g, f"{events / g:.0f}", f"{redis_b / g / 1024:.1f}", f"{raw_b / g / 1024:.1f}",
                         f"{archived_b / g:,.0f}", f"{archived_b / redis_b:.3f}", f"{after_b / g:.0f}"))
            results[d.name] = {"redis_bytes_per_game": redis_b / g, "archive_bytes_per_game": archived_b / g,
                               "raw_bytes_per_game": raw_b / g, "redis_bytes_after": after_b / g}
        dictionary_rows = [] if quick else _with_dictionaries(service, store, results)
        store.archive.close()
    print("Archive: bytes per finished game (people with Idempotency-Keys), Redis MEMORY USAGE before and after "
          f"archiving, the archive's zstd record ({archive_url.split(':')[0]}); goal: archive <= 1/10 of Redis, "
          "Redis after < 200 B")
    print(table(rows, ("game", "seats", "games", "events/game", "Redis KiB/game", "history KiB/game (raw)",
                       "archive B/game", "archive / Redis", "Redis B/game after")))
    print()
    print(f"Reads (median of {runs}, ms, in-process HTTP): an export and state?version=<middle>, from Redis, "
          "from the archive cold (a fresh process) and warm (kept decoded)")
    print(table(speed, ("game", "events", "export Redis", "export archive cold", "export archive warm",
                        "state Redis", "state archive cold", "state archive warm")))
    if dictionary_rows:
        print()
        print(f"With a dictionary per game type (zstd, {DICTIONARY_BYTES // 1024} KiB, made from the first {TRAIN_ON} "
              "games of the type): the archive's bytes per game of 5 games archived after it")
        print(table(dictionary_rows, ("game", "archive B/game without", "with its dictionary", "archive / Redis")))
    return results


def _with_dictionaries(service, store, results: dict) -> list:
    from workers.archiver import archive_game

    rows = []
    for d in hosted_games():
        n, options = configs(d)[0]
        for seed in range(100, 100 + TRAIN_ON):
            assert archive_game(store, service.games, play_to_end(service, d, n, options, seed)) == "archived"
        assert store.archive.train_dictionary(d.name)
        kept = 0
        for seed in range(1000, 1005):
            before = store.archive.stats()[2]
            assert archive_game(store, service.games, play_to_end(service, d, n, options, seed)) == "archived"
            kept += store.archive.stats()[2] - before
        r = results[d.name]
        r["archive_bytes_per_game_with_dictionary"] = kept / 5
        rows.append((d.name, f"{r['archive_bytes_per_game']:,.0f}", f"{kept / 5:,.0f}",
                     f"{kept / 5 / r['redis_bytes_per_game']:.3f}"))
    return rows


if __name__ == "__main__":
    import sys

    run("--quick" in sys.argv)
