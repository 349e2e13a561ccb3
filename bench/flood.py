"""Redis bytes under a creation flood from 100 addresses (issue 28): `python -m bench.flood`.

`python app.py` (with its workers, the server trusting X-Forwarded-For from 127.0.0.1) is sent
POST /games as fast as 16 client threads can, each request from one of 100 addresses in turn
(named in X-Forwarded-For), for `--seconds` (20). Half the games wait for a free seat (they stay
until WAITING_TTL), half seat two people who never move (they stay until ABANDON_AFTER): the
storage nothing ends soon. Each row is a fresh server and key prefix on one private Redis;
Redis `INFO memory` used_memory is read before the flood and after it, and `/health` is polled
throughout. `at most` is what the budgets admit in the row's time: a budget's window is 60 s
of the clock, so a run of 20 s may touch two windows.

Rows: the per-address budgets alone (the issue's finding: storage grows with the addresses);
the defaults with 100 addresses of one /24 (127.0.0.x: the network's budget) and with 100
addresses of 100 networks (10.n.0.1: the server-wide budget for games without a player's key);
and a cap of 200 unfinished anonymous games (503 anonymous_games_full past it).
"""
from __future__ import annotations

import argparse
import itertools
import threading
import time
import uuid
from collections import Counter

import redis
import requests

from api.settings import Settings
from bench.common import private_redis, running_server, table

# The server's own defaults of the budgets under test (running_server opens every budget).
_DEFAULT = Settings()
DEFAULTS = {"NETWORK_CREATE_LIMIT": str(_DEFAULT.network_create_limit),
            "ANONYMOUS_CREATE_LIMIT": str(_DEFAULT.anonymous_create_limit),
            "MAX_ANONYMOUS_GAMES": str(_DEFAULT.max_anonymous_games)}

UNLIMITED = "1000000000"
KINDS = ({"type": "splendor", "seats": [{"name": "A"}, {"open": True}]},
         {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]})
# (row, addresses, settings, games the budgets admit at most in two windows)
ROWS = (
    ("per-address budgets only (before)", "one /24",
     {"NETWORK_CREATE_LIMIT": UNLIMITED, "ANONYMOUS_CREATE_LIMIT": UNLIMITED, "MAX_ANONYMOUS_GAMES": "0"},
     2 * 100 * 30),
    ("defaults, 100 addresses of one /24", "one /24", DEFAULTS, 2 * 120),
    ("defaults, 100 addresses in 100 /24s", "100 /24s", DEFAULTS, 2 * 600),
    ("MAX_ANONYMOUS_GAMES=200, 100 /24s", "100 /24s", {**DEFAULTS, "MAX_ANONYMOUS_GAMES": "200"}, 200),
)


def _addresses(spread: str) -> list[str]:
    return [f"127.0.0.{i + 1}" if spread == "one /24" else f"10.{i + 1}.0.1" for i in range(100)]


def _flood(base: str, addresses: list[str], seconds: float, threads: int = 16) -> tuple[Counter, int]:
    counts: Counter = Counter()
    lock = threading.Lock()
    turn = itertools.count()
    stop = time.monotonic() + seconds

    def client():
        session = requests.Session()
        while time.monotonic() < stop:
            n = next(turn)
            try:
                r = session.post(f"{base}/games", json=KINDS[n % 2], timeout=10,
                                 headers={"X-Forwarded-For": addresses[n % len(addresses)]})
                status = r.status_code
            except requests.RequestException:
                status = "error"
            with lock:
                counts[status] += 1

    workers = [threading.Thread(target=client, daemon=True) for _ in range(threads)]
    for w in workers:
        w.start()
    unhealthy = 0
    while time.monotonic() < stop:  # never an outage: the probe answers throughout
        try:
            unhealthy += requests.get(f"{base}/health", timeout=5).status_code != 200
        except requests.RequestException:
            unhealthy += 1
        time.sleep(0.5)
    for w in workers:
        w.join()
    return counts, unhealthy


def run(seconds: float) -> list[tuple]:
    rows = []
    with private_redis() as url:
        store = redis.Redis.from_url(url)
        for name, spread, env, at_most in ROWS:
            prefix = f"flood{uuid.uuid4().hex[:6]}:"
            with running_server(url, KEY_PREFIX=prefix, TURN_QUEUE=f"{prefix}turns", TRUSTED_PROXIES="127.0.0.1",
                                ADDRESS_CREATE_LIMIT="30", **env) as base:
                before = int(store.info("memory")["used_memory"])
                counts, unhealthy = _flood(base, _addresses(spread), seconds)
                grown = int(store.info("memory")["used_memory"]) - before
            rows.append((name, sum(counts.values()), counts[201], at_most, counts[429], counts[503],
                         sum(v for k, v in counts.items() if k not in (201, 429, 503)), unhealthy,
                         f"{grown / 1e6:.2f}", f"{grown / seconds / 1e3:.0f}", grown // max(1, counts[201])))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.flood", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0)
    args = parser.parse_args()
    print(f"# creation flood: 100 addresses, 16 client threads, {args.seconds:.0f} s a row")
    print(table(run(args.seconds), ("row", "requests", "201", "at most", "429", "503", "other", "health != 200",
                                    "Redis MB grown", "KB/s", "bytes/game")))


if __name__ == "__main__":
    main()
