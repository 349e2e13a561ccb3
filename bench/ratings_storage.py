"""What a rated game leaves in Redis, before and after the archiver (issue 50): `python -m bench.ratings_storage [games]`.

Plays rated games of two types (Splendor and SetUp, the `random` bot level against itself: every
seat makes its decisions, so each game is rated) in-process on a private Redis with a SQLite
archive of the run's own, counts them as the reconciler does, then measures every key's MEMORY
USAGE (SAMPLES 0) by what it belongs to; runs the archiver (ARCHIVE_AFTER_S 0, with the ledger: a
game's rating record goes into the archive with it) and measures again. Prints the bytes per
rated game before and after, the rating records' share, and the hash slot of each type's rating
keys (one slot per type: a Redis Cluster spreads them).
"""

from __future__ import annotations

import sys
import tempfile
import time
import uuid
from collections import Counter

from bench.common import private_redis, table

TYPES = ("splendor", "setup")


def _family(name: str, prefix: str) -> str:
    rest = name[len(prefix) :] if name.startswith(prefix) else name
    if rest.startswith("ratings:{ratings:"):
        return "rating records" if rest.partition("}:")[2].startswith("game:") else "ratings tables"
    if rest.startswith("game:{") and rest.endswith(":archived"):
        return "game markers"
    if rest.startswith("game:{"):
        return "games' other keys"
    if rest.startswith("rq:"):
        return "RQ"
    return "global (logs, lobby, indexes)"


def _measure(conn, prefix: str) -> tuple[Counter, Counter]:
    sizes: Counter = Counter()
    counts: Counter = Counter()
    for key in conn.scan_iter(match=f"{prefix}*", count=1000):
        family = _family(key.decode(), prefix)
        sizes[family] += conn.memory_usage(key, samples=0) or 0
        counts[family] += 1
    return sizes, counts


def _play(service, game_type: str, seed: int, budget_s: float = 30.0) -> bool:
    from workers.jobs import play_turn

    gid = service.create(game_type, [{"bot": "random"}, {"bot": "random"}], {}, seed=seed)["id"]
    ends = time.monotonic() + budget_s
    while time.monotonic() < ends:
        g = service.load(gid)
        actors = service.automatic_actors(g)
        if not actors:
            return g.finished
        play_turn(service, gid, g.version, actors[0])
    return False


def run(games: int) -> dict:
    import redis
    from redis.cluster import key_slot

    from app import create_app

    with private_redis() as url, tempfile.TemporaryDirectory() as data:
        prefix = f"rs{uuid.uuid4().hex[:4]}:"
        app = create_app(
            {
                "REDIS_URL": url,
                "KEY_PREFIX": prefix,
                "TURN_QUEUE": f"{prefix}turns",
                "TESTING": True,
                "ARCHIVE_URL": f"sqlite:///{data}/archive.sqlite3",
                "ARCHIVE_AFTER_S": 0,
                "DEFER_AFTER_APPEND": False,
            }
        )
        services, conn = app.extensions["services"], redis.Redis.from_url(url)
        started = time.monotonic()
        played = sum(_play(services.service, TYPES[i % len(TYPES)], seed=i) for i in range(games))
        time.sleep(1.0)  # the harvest's settling (UNSETTLED_S) passed for the last games
        services.rate_ended_games()
        rated = len(services.ledger.recorded_games())
        before = _measure(conn, prefix)
        archived = services.archiver(limit=10_000)
        after = _measure(conn, prefix)
        slots = {t: sorted({key_slot(k) for k in conn.scan_iter(match=f"{services.ledger.tag(t)}*")}) for t in TYPES}
    return {
        "games": played,
        "rated": rated,
        "before": before,
        "after": after,
        "archived": dict(archived),
        "slots": slots,
        "elapsed_s": time.monotonic() - started,
    }


def report(out: dict) -> str:
    rated = max(1, out["rated"])
    rows = []
    for family in sorted(set(out["before"][0]) | set(out["after"][0])):
        rows.append(
            (
                family,
                f"{out['before'][1][family]:,}",
                f"{out['before'][0][family] / rated:,.1f}",
                f"{out['after'][1][family]:,}",
                f"{out['after'][0][family] / rated:,.1f}",
            )
        )
    per_game = [
        sum(v for f, v in sizes.items() if f != "ratings tables") / rated for sizes, _ in (out["before"], out["after"])
    ]
    return "\n".join(
        [
            f"{out['games']} games played, {out['rated']} rated ({', '.join(TYPES)}), archiver: "
            f"{', '.join(f'{n} {k}' for k, n in sorted(out['archived'].items()))}; {out['elapsed_s']:.0f} s",
            table(rows, ("keys of", "keys before", "B per rated game", "keys after", "B per rated game")),
            f"\nper rated game, every key but the ratings' tables: {per_game[0]:,.1f} B before the archiver, "
            f"{per_game[1]:,.1f} B after",
            "hash slots of each type's rating keys: " + ", ".join(f"{t} {s}" for t, s in out["slots"].items()),
        ]
    )


if __name__ == "__main__":
    print(report(run(int(sys.argv[1]) if len(sys.argv) > 1 else 40)))
