"""Redis after a year of games (issue 49, item 16): what a finished game and a player leave.

    python -m bench.redis_year [--players 300] [--games-per-day 30] [--days 365] [--day-s 1]

A year simulated on a private Redis with a SQLite archive of the run's own: each simulated day
lasts `--day-s` seconds of wall time, and the inbox's time bound (a week, INBOX_KEPT_S) is
scaled with it (7 days = 7 x day-s seconds), so what a week keeps and what expires is what a
real year would leave, in minutes. Each player is active over a span of the year (it joins on a
random day and plays for 10 to 365 days: some stop early); each day `--games-per-day` rated
Splendor games are played through the HTTP routes (Flask's test client) between two active
players with keys (one opens it, the other claims the second seat and resigns), then the
reconciler's sweeps that keep Redis small run as every pass would: the ratings' count, the
archiver (ARCHIVE_AFTER_S 0, with the ledger: a game's rating record goes with it) and the
idempotency walk. At the end, every key's MEMORY USAGE (SAMPLES 0), by what it belongs to:
- per finished game: everything but the players' and the ratings' tables (the games' markers,
  the rating records still in Redis, the finished log and lobby, queues...), over the games;
- per player: `player:{id}*`, `player-key:*` and `player-recovery:*` (profile, keys, recovery
  code, games list, inbox), over the players; and the ratings' tables (rating, boards, history points), over the players.
"""
from __future__ import annotations

import argparse
import random
import tempfile
import time
import uuid
from collections import Counter

from bench.common import private_redis, table


def _auth(key: str) -> dict:
    return {"Authorization": f"Bearer {key}"}


def _family(name: str, prefix: str) -> str:
    rest = name[len(prefix):] if name.startswith(prefix) else name
    if rest.startswith("player:{") and rest.endswith(":inbox"):
        return "player inbox"
    if rest.startswith("player:{") and rest.endswith(":games"):
        return "player games list"
    if rest.startswith(("player:{", "player-key:", "player-recovery:")):
        return "player (profile, keys, recovery)"
    if rest.startswith("ratings:{ratings:"):  # a hash tag per game type (api/ratings/ledger.py)
        return "game rating record" if rest.partition("}:")[2].startswith("game:") else "ratings tables"
    if rest.startswith("game:{") and rest.endswith(":archived"):
        return "game marker"
    if rest.startswith("game:{"):
        return "game, other keys"
    if rest.startswith("rq:"):
        return "RQ"
    return "global (logs, lobby, indexes)"


def _drop_jobs(conn) -> None:
    """The jobs the appends queued for workers this bench does not run (none keep a result)."""
    keys = list(conn.scan_iter(match="rq:*", count=1000))
    for i in range(0, len(keys), 500):
        conn.delete(*keys[i:i + 500])


def run(players: int, games_per_day: int, days: int, day_s: float, seed: int = 1) -> dict:
    import redis

    from api.players import accounts
    from app import create_app

    accounts.INBOX_KEPT_S = max(1, round(7 * day_s))  # a week of simulated days (read at each write)
    rng = random.Random(seed)
    with private_redis() as url, tempfile.TemporaryDirectory() as data:
        prefix = f"ry{uuid.uuid4().hex[:4]}:"
        big = 10**9
        app = create_app({"REDIS_URL": url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns", "TESTING": True,
                          "ARCHIVE_URL": f"sqlite:///{data}/archive.sqlite3", "ARCHIVE_AFTER_S": 0,
                          "DEFER_AFTER_APPEND": False, "RATE_LIMIT": big, "ADDRESS_READ_LIMIT": big,
                          "NETWORK_READ_LIMIT": big, "ADDRESS_CREATE_LIMIT": big, "NETWORK_CREATE_LIMIT": big})
        services, client, conn = app.extensions["services"], app.test_client(), redis.Redis.from_url(url)
        base_used = int(conn.info("memory")["used_memory"])
        spans = []
        for i in range(players):
            r = client.post("/players", json={"name": f"P{i}"})
            assert r.status_code == 201, r.get_json()
            first = rng.randrange(days)
            spans.append((r.get_json()["key"], first, first + rng.randint(10, 365)))
        played, started, sweeps = 0, time.monotonic(), Counter()
        for day in range(days):
            day_started = time.monotonic()
            active = [key for key, first, last in spans if first <= day <= last]
            for _ in range(games_per_day if len(active) >= 2 else 0):
                a, b = rng.sample(active, 2)
                made = client.post("/games", json={"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                                   headers=_auth(a))
                assert made.status_code == 201, made.get_json()
                gid = made.get_json()["id"]
                claimed = client.post(f"/games/{gid}/seats/1/claim", headers=_auth(b))
                assert claimed.status_code in (200, 201), claimed.get_json()
                resigned = client.post(f"/games/{gid}/resign", headers=_auth(claimed.get_json()["token"]))
                assert resigned.status_code == 200, resigned.get_json()
                played += 1
            # The reconciler's sweeps (every pass in service): count, archive, the idempotency walk.
            services.rate_ended_games()
            for k, n in services.archiver(limit=10_000).items():
                sweeps[k] += n
            _drop_jobs(conn)
            time.sleep(max(0.0, day_s - (time.monotonic() - day_started)))
        time.sleep(1.0)  # the harvest's settling (UNSETTLED_S) passed for the last day's games
        services.rate_ended_games()
        for k, n in services.archiver(limit=10_000).items():
            sweeps[k] += n
        _drop_jobs(conn)
        elapsed = time.monotonic() - started
        sizes: Counter = Counter()
        counts: Counter = Counter()
        globals_: Counter = Counter()
        inbox_lengths: list[int] = []  # in the same walk: a simulated week is seconds, inboxes expire meanwhile
        for key in conn.scan_iter(count=1000):
            family = _family(key.decode(), prefix)
            size = conn.memory_usage(key, samples=0) or 0
            sizes[family] += size
            counts[family] += 1
            if family.startswith("global"):
                globals_[key.decode()[len(prefix):]] += size
            if family == "player inbox":
                inbox_lengths.append(conn.xlen(key))
        used = int(conn.info("memory")["used_memory"])
    return {"players": players, "games": played, "days": days, "day_s": day_s, "sizes": dict(sizes),
            "counts": dict(counts), "largest_global": globals_.most_common(6), "used": used, "base_used": base_used, "elapsed_s": elapsed,
            "sweeps": dict(sweeps), "inboxes": len(inbox_lengths), "inbox_max": max(inbox_lengths, default=0),
            "inbox_mean": sum(inbox_lengths) / max(1, len(inbox_lengths))}


PER_PLAYER = ("player (profile, keys, recovery)", "player games list", "player inbox", "ratings tables")


def report(out: dict) -> str:
    sizes, counts, games, players = out["sizes"], out["counts"], max(1, out["games"]), max(1, out["players"])
    rows = []
    for family in sorted(sizes, key=lambda f: (f in PER_PLAYER, -sizes[f])):
        per, over = (players, "player") if family in PER_PLAYER else (games, "game")
        rows.append((family, f"{counts[family]:,}", f"{sizes[family]:,}", f"{sizes[family] / per:,.1f} per {over}"))
    game_bytes = sum(v for f, v in sizes.items() if f not in PER_PLAYER)
    player_bytes = sum(v for f, v in sizes.items() if f in PER_PLAYER)
    lines = [f"{out['days']} simulated days of {out['day_s']} s, {out['players']:,} players, {out['games']:,} rated "
             f"games (archiver: {', '.join(f'{n:,} {k}' for k, n in sorted(out['sweeps'].items()))}), "
             f"{out['elapsed_s']:.0f} s",
             table(rows, ("keys of", "keys", "bytes", "per")),
             f"\nper finished game: {game_bytes / games:,.1f} B (every key but the players' and the ratings' tables)",
             f"per player: {player_bytes / players:,.1f} B (profile, keys, games list, inbox, ratings)",
             f"inboxes left: {out['inboxes']:,} of {out['players']:,} players (the others expired), "
             f"at most {out['inbox_max']} notices, {out['inbox_mean']:.1f} on average",
             "largest global keys: " + ", ".join(f"{k} {v:,} B" for k, v in out["largest_global"]),
             f"Redis used_memory: {out['base_used']:,} B at the start, {out['used']:,} B at the end"]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.redis_year", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--players", type=int, default=300)
    parser.add_argument("--games-per-day", type=int, default=30)
    parser.add_argument("--days", type=int, default=365)
    parser.add_argument("--day-s", type=float, default=1.0, help="wall seconds a simulated day lasts")
    args = parser.parse_args()
    print(report(run(args.players, args.games_per_day, args.days, args.day_s)))


if __name__ == "__main__":
    main()
