"""The archive at scale (issue 31): `python -m bench.archive_scale [--games 100000]`.

Plays N games of High Card (the platform tests' tiny complete game: secret hands, a
simultaneous bid, a system move, an end; tests/platform/high_card.py) to their end in-process
on a private Redis, archiving them as they end (the reconciler's sweep, ARCHIVE_AFTER_S=0) into
a SQLite file of the run's own; then says:
- Redis's used_memory after every tenth of the games (a finished game leaves a marker of under
  200 bytes; the finished log keeps its newest 100,000 entries, the finished lobby 10,000; the
  turn jobs queued for workers, which this bench does not run, are dropped);
- the archive's size on disk, and its bytes per game;
- the harvest's whole crawl (pages of 1,000 from `since=0` to its end, as a crawler reads
  `GET /games/ended`): its time, and that it saw every game once.
The bytes of the real games' records are bench.archive's (`python -m bench --only archive`).
"""
from __future__ import annotations

import argparse
import os
import sqlite3
import tempfile
import time
import uuid

from bench.common import private_redis, table
from bench.memory import play_to_end


def _drop_turn_jobs(conn, service) -> None:
    """The turn jobs the appends queued for workers: this bench plays the system's moves itself
    and runs no worker, so they would pile up (a worker takes them, keeping no result)."""
    queue = service.scheduler.queue
    ids = queue.get_job_ids()
    if ids:
        conn.delete(*[f"rq:job:{i}" for i in ids])
    queue.empty()


def run(games: int) -> dict:
    from api.games import harvest
    from app import create_app
    from domain import registry
    from tests.platform import high_card
    from workers.archiver import Archiver

    registry.register(high_card.GAME)
    workdir = tempfile.mkdtemp(prefix="bench-archive-scale-")
    path = os.path.join(workdir, "archive.sqlite3")
    rows, made = [], set()
    with private_redis() as redis_url:
        prefix = f"as{uuid.uuid4().hex[:4]}:"  # its turn queue its own: it plays the system's moves itself
        app = create_app({"REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns", "TESTING": True,
                          "ALLOW_CLIENT_SEEDS": True, "DEFER_AFTER_APPEND": False,
                          "ARCHIVE_URL": f"sqlite:///{path}"})
        service = app.extensions["games"]
        store = service.store
        archiver = Archiver(store, service.games, after_s=0)
        started, step = time.monotonic(), max(1, games // 10)
        for i in range(games):
            made.add(play_to_end(service, high_card.GAME, 2, {}, seed=i))
            measure = (i + 1) % step == 0 or i + 1 == games
            if (i + 1) % 500 == 0 or measure:
                while archiver(limit=1000).get("archived"):
                    pass
                _drop_turn_jobs(store.redis, service)
            if measure:
                used = int(store.redis.info("memory")["used_memory"])
                with sqlite3.connect(path) as db:  # the write-ahead log folded in: the file's own size
                    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                size = sum(os.path.getsize(os.path.join(workdir, f)) for f in os.listdir(workdir))
                rows.append((i + 1, f"{used / 1e6:.1f}", f"{size / 1e6:.1f}", f"{size / (i + 1):.0f}",
                             f"{time.monotonic() - started:.0f}"))
        t0, cursor, seen = time.perf_counter(), "0", []
        while True:
            page, cursor = harvest.page(store, cursor, None, 1000)
            seen += [g["id"] for g in page]
            if len(page) < 1000:
                break
        crawl_s = time.perf_counter() - t0
    return {"rows": rows, "crawl_s": crawl_s, "seen": len(seen), "distinct": len(set(seen)),
            "all": set(seen) == made, "games": games}


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.archive_scale", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=100_000)
    args = parser.parse_args()
    out = run(args.games)
    print(table(out["rows"], ("games ended and archived", "Redis used_memory MB", "archive on disk MB",
                              "archive bytes/game", "elapsed s")))
    print(f"\nharvest crawl of {out['games']:,} games (pages of 1,000 from since=0): {out['crawl_s']:.1f} s; "
          f"{out['seen']:,} entries, {out['distinct']:,} distinct, every game once: {out['all']}")


if __name__ == "__main__":
    main()
