"""Archives the finished games of a deployment: `python -m tools.archive [--batch N]`.

For a deployment made before the archive (issue 31), whose finished games are all in Redis: the
reconciler's sweep archives only the games marked finished since. This walks every game's meta
in Redis (SCAN), and archives each finished one as the sweep does (workers/archiver.py: logged
for the harvest if it was not, written, read back and compared, then evicted behind a marker).
The environment names the deployment as the server's (REDIS_URL, KEY_PREFIX, ARCHIVE_URL,
DATA_DIR). Resumable: stopped at any point (Ctrl-C, a crash), a new run starts with the games
left due, and archived games are no longer in Redis to be walked. A game logged for the harvest
only now (it was not) waits for its count (`uncounted`: the reconciler's sweep archives it once
the ratings' sweep counted it, its rating record with it); the rating records of games archived
before the archiver carried them move to the archive too. Prints a progress bar on stderr and,
at the end, Redis's memory and the archive's size before and after.

`python -m tools.archive verify`: reads every record of the archive (ARCHIVE_URL, or DATA_DIR's
SQLite file; every deployment's in it), checks each against the checksums kept with it and
decodes it, and prints the damaged ones (position, game id, what is wrong); exits 1 if any is.
Needs no Redis. A row written before the checksums were kept (schema 5) is checked by decoding.
"""
from __future__ import annotations

import argparse
import dataclasses
import sys
import time
from typing import TextIO

from api.settings import Settings
from domain import registry
from events.archive import ArchiveStore
from events.archives import open_archive
from wiring import bootstrap
from workers.archiver import archive_game, file_ratings

BAR = 30


def _used(redis) -> int:
    info = redis.info("memory")
    if isinstance(info, dict) and "used_memory" in info:
        return int(info["used_memory"])
    return sum(int(node["used_memory"]) for node in info.values())  # a cluster: each primary's


def _progress(done: int, total: int, counts: dict, started: float) -> None:
    filled = BAR * done // max(1, total)
    told = ", ".join(f"{n} {k}" for k, n in sorted(counts.items()))
    sys.stderr.write(f"\r[{'#' * filled}{'.' * (BAR - filled)}] {done}/{total} games, {told} "
                     f"({time.monotonic() - started:.0f} s)")
    sys.stderr.flush()


def run(settings: Settings, batch: int = 200) -> dict:
    # Every finished game is due now (ARCHIVE_AFTER_S 0): the root's archiver, with that setting.
    services = bootstrap(dataclasses.replace(settings, archive_after_s=0))
    store, service = services.redis_store(), services.service
    before_redis, before_archive = _used(store.redis), store.archive.stats()
    counts: dict[str, int] = {}
    services.rate_ended_games()  # counted first: a game's rating record goes to the archive with it
    while True:  # first the games a crashed run (or the sweep) left due
        done = services.archiver(limit=batch)
        for k, n in done.items():
            counts[k] = counts.get(k, 0) + n
        if not any(k in done for k in ("archived", "repaired", "gone")):
            break
    pattern = f"{settings.key_prefix}game:*:meta"
    ids = [k.decode()[len(settings.key_prefix):].split("{", 1)[1].rsplit("}:meta", 1)[0]
           for k in store.redis.scan_iter(match=pattern, count=1000)]
    started, last = time.monotonic(), 0.0
    for i, game_id in enumerate(ids, start=1):
        game = service.games.load(game_id)
        if game.finished:
            service.finish(game)  # logged for the harvest (if it was not) and marked due
            outcome = archive_game(store, service.games, game_id, ratings=services.ledger,
                                   analyses=services.analyses)
        else:
            outcome = "unfinished"
        service.games.forget(game_id)
        counts[outcome] = counts.get(outcome, 0) + 1
        if time.monotonic() - last > 0.5 or i == len(ids):
            _progress(i, len(ids), counts, started)
            last = time.monotonic()
    store.drop_all_archived_idempotency()  # the archived games' idempotency records
    store.drop_archived_log_entries()  # and their finished-log entries (the archive serves them)
    if store.backfill_witness() is not None:  # games archived before the readiness witnesses were kept
        counts["witness noted"] = 1
    # Rating records of games archived before the archiver carried them (issue 49): the archive's.
    counts["rating records moved"] = file_ratings(store, services.ledger, services.ledger.recorded_games())
    counts["analyses moved"] = services.analyses.file_every()  # and the analyses of those games
    after_redis, after_archive = _used(store.redis), store.archive.stats()
    sys.stderr.write("\n")
    print(f"games walked: {len(ids)}; " + ", ".join(f"{k}: {n}" for k, n in sorted(counts.items())))
    print(f"Redis used_memory: {before_redis:,} B before, {after_redis:,} B after")
    print(f"archive: {before_archive[0]:,} games, {before_archive[2]:,} B before; "
          f"{after_archive[0]:,} games, {after_archive[2]:,} B after "
          f"(their histories as Redis held them: {after_archive[1]:,} B)")
    store.archive.close()
    return counts


def verify(archive: ArchiveStore, batch: int = 500, out: TextIO = sys.stdout) -> list[tuple[int, str, str]]:
    """Every damaged record of `archive` (position, game id, what is wrong), printed as found."""
    after, checked, damaged = 0, 0, []
    while found := archive.check(after, batch):
        for position, game_id, problem in found:
            if problem is not None:
                damaged.append((position, game_id, problem))
                print(f"damaged: position {position}, game {game_id}: {problem}", file=out)
        checked += len(found)
        after = found[-1][0]
    print(f"records checked: {checked}; damaged: {len(damaged)}", file=out)
    return damaged


def main(argv: list[str]) -> None:
    parser = argparse.ArgumentParser(prog="python -m tools.archive", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("command", nargs="?", choices=["archive", "verify"], default="archive",
                        help="archive (the default): move the finished games; verify: list the damaged records")
    parser.add_argument("--batch", type=int, default=200, help="due games archived per step (default 200)")
    args = parser.parse_args(argv)
    settings = Settings.from_env()
    if args.command == "verify":
        archive = open_archive(settings.archive_url)
        try:
            sys.exit(1 if verify(archive) else 0)
        finally:
            archive.close()
    if not settings.redis_url and not settings.redis_cluster_nodes:
        parser.error("REDIS_URL (or REDIS_CLUSTER_NODES) names the deployment's Redis")
    registry.register_modules(settings.extra_game_modules)
    run(settings, args.batch)


if __name__ == "__main__":
    main(sys.argv[1:])
