"""Redis bytes under a creation flood from 100 addresses (issues 28 and 49): `python -m bench.flood`.

`python app.py` (with its workers, the server trusting X-Forwarded-For from 127.0.0.1) is sent
POST /games as fast as 16 client threads can, each request from one of 100 addresses in turn
(named in X-Forwarded-For), for `--seconds` (20). Half the games wait for a free seat (they stay
until WAITING_TTL), half seat two people who never move (they stay until ABANDON_AFTER): the
storage nothing ends soon. Each row is a fresh server and key prefix on one private Redis;
Redis `INFO memory` used_memory is read before the flood and after it, and `/health` is polled
throughout. `at most` is what the budgets admit in the row's time: a budget's window is 60 s
of the clock (a player's, 600 s), so a run of 20 s may touch two windows.

Rows without a key: the per-address budgets alone (the issue's finding: storage grows with the
addresses); the defaults with 100 addresses of one /24 (127.0.0.x: the network's budget) and
with 100 addresses of 100 networks (10.n.0.1: the server-wide budget for games without a
player's key); and a cap of 200 unfinished anonymous games (503 anonymous_games_full past it).

Rows with player keys (issue 49: one key made 300 waiting games in 14 s, 100 addresses with a
key each 452 in 15 s): the players are made first (one per address, or one for all), each
request sends its address's key, and the creating player sits in the game (`{"me": true}`).
Their caps off (before), then the defaults: PLAYER_CREATE_LIMIT (60 per 600 s) and
MAX_WAITING_GAMES_PER_PLAYER (10, `409 too_many_waiting_games`). `B/player` is what making the
players cost (their keys, recovery code), before any game: MEMORY USAGE summed over the keys.
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
PLAYER_DEFAULTS = {**DEFAULTS, "PLAYER_CREATE_LIMIT": str(_DEFAULT.player_create_limit),
                   "PLAYER_CREATE_WINDOW_S": str(_DEFAULT.player_create_window_s),
                   "MAX_WAITING_GAMES_PER_PLAYER": str(_DEFAULT.max_waiting_games_per_player)}

UNLIMITED = "1000000000"
PLAYER_CAPS_OFF = {**DEFAULTS, "PLAYER_CREATE_LIMIT": UNLIMITED, "MAX_WAITING_GAMES_PER_PLAYER": "0"}
KINDS = ({"type": "splendor", "seats": [{"name": "A"}, {"open": True}]},
         {"type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]})
PLAYER_KINDS = ({"type": "splendor", "seats": [{"me": True}, {"open": True}]},
                {"type": "splendor", "seats": [{"me": True}, {"name": "B"}]})
_PER_PLAYER = 2 * _DEFAULT.player_create_limit  # two of a player's windows at most
# (row, addresses, players (0: no key), settings, games the budgets admit at most in two windows)
ROWS = (
    ("per-address budgets only (before)", "one /24", 0,
     {"NETWORK_CREATE_LIMIT": UNLIMITED, "ANONYMOUS_CREATE_LIMIT": UNLIMITED, "MAX_ANONYMOUS_GAMES": "0"},
     2 * 100 * 30),
    ("defaults, 100 addresses of one /24", "one /24", 0, DEFAULTS, 2 * 120),
    ("defaults, 100 addresses in 100 /24s", "100 /24s", 0, DEFAULTS, 2 * 600),
    ("MAX_ANONYMOUS_GAMES=200, 100 /24s", "100 /24s", 0, {**DEFAULTS, "MAX_ANONYMOUS_GAMES": "200"}, 200),
    ("1 player key, 100 /24s, caps off (before)", "100 /24s", 1, PLAYER_CAPS_OFF, 2 * 100 * 30),
    ("1 player key, 100 /24s, defaults", "100 /24s", 1, PLAYER_DEFAULTS, _PER_PLAYER),
    ("100 player keys, 100 /24s, caps off (before)", "100 /24s", 100, PLAYER_CAPS_OFF, 2 * 100 * 30),
    ("100 player keys, 100 /24s, defaults", "100 /24s", 100, PLAYER_DEFAULTS, min(2 * 100 * 30, 100 * _PER_PLAYER)),
)


def _addresses(spread: str) -> list[str]:
    return [f"127.0.0.{i + 1}" if spread == "one /24" else f"10.{i + 1}.0.1" for i in range(100)]


def _players(base: str, addresses: list[str], count: int) -> list[str | None]:
    """Each address's player key (`count` players, made from the addresses in turn); [None]: no key."""
    if not count:
        return [None]
    keys = []
    for i in range(count):
        r = requests.post(f"{base}/players", json={"name": f"Flood {i}"}, timeout=10,
                          headers={"X-Forwarded-For": addresses[i % len(addresses)]})
        r.raise_for_status()
        keys.append(r.json()["key"])
    return keys


def _key_bytes(store: redis.Redis, prefix: str) -> int:
    """MEMORY USAGE summed over the prefix's keys (used_memory's noise is larger than a few players)."""
    return sum(int(store.memory_usage(k) or 0) for k in store.scan_iter(match=f"{prefix}*", count=1000))


def _flood(base: str, addresses: list[str], keys: list[str | None], seconds: float,
           threads: int = 16) -> tuple[Counter, int]:
    counts: Counter = Counter()
    lock = threading.Lock()
    turn = itertools.count()
    stop = time.monotonic() + seconds
    kinds = KINDS if keys == [None] else PLAYER_KINDS

    def client():
        session = requests.Session()
        while time.monotonic() < stop:
            n = next(turn)
            key = keys[n % len(keys)]
            headers = {"X-Forwarded-For": addresses[n % len(addresses)]}
            if key is not None:
                headers["Authorization"] = f"Bearer {key}"
            try:
                r = session.post(f"{base}/games", json=kinds[n // len(keys) % 2], timeout=10, headers=headers)
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


def run(seconds: float, only: str | None = None) -> list[tuple]:
    rows = []
    with private_redis() as url:
        store = redis.Redis.from_url(url)
        for name, spread, players, env, at_most in ROWS:
            if only and only not in name:
                continue
            prefix = f"flood{uuid.uuid4().hex[:6]}:"
            with running_server(url, KEY_PREFIX=prefix, TURN_QUEUE=f"{prefix}turns", TRUSTED_PROXIES="127.0.0.1",
                                ADDRESS_CREATE_LIMIT="30", **env) as base:
                addresses = _addresses(spread)
                start = _key_bytes(store, prefix)
                keys = _players(base, addresses, players)
                per_player = f"{(_key_bytes(store, prefix) - start) // players:,}" if players else "-"
                before = int(store.info("memory")["used_memory"])
                counts, unhealthy = _flood(base, addresses, keys, seconds)
                grown = int(store.info("memory")["used_memory"]) - before
            rows.append((name, sum(counts.values()), counts[201], at_most, counts[429], counts[409], counts[503],
                         sum(v for k, v in counts.items() if k not in (201, 409, 429, 503)), unhealthy,
                         f"{grown / 1e6:.2f}", f"{grown / seconds / 1e3:.0f}", grown // max(1, counts[201]),
                         per_player))
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(prog="python -m bench.flood", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--only", help="the rows whose name holds this text (e.g. 'player key')")
    args = parser.parse_args()
    print(f"# creation flood: 100 addresses, 16 client threads, {args.seconds:.0f} s a row")
    print(table(run(args.seconds, args.only), ("row", "requests", "201", "at most", "429", "409", "503", "other",
                                               "health != 200", "Redis MB grown", "KB/s", "bytes/game",
                                               "B/player")))


if __name__ == "__main__":
    main()
