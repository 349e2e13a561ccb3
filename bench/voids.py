"""What a moderator's void costs (issue 50): `python -m bench.voids [sizes]` (default 1000,10000).

For each size N: N rated 2-seat games (Splendor summaries, 200 players paired at random, a
farmer playing 5% of them, all in the last tenth of the log: farming found late) are logged in a
private Redis's finished log and counted by the ledger as the reconciler does; then the farmer
is voided through the moderation service, as `POST /moderation/players/{id}/void` does, and undone.
Printed per size: the count (the ledger's catch_up), the floor (reading the whole log through
the harvest: what any re-rating does), a recompute of every game alone (in memory), and the
void's and its undo's wall time two ways: re-rating from the farmer's first game on (the
default: api/ratings/ledger.py's recompute_from) and every game again (`Moderation.incremental`
False), with whether both leave the same keys, byte for byte."""
from __future__ import annotations

import random
import sys
import time
import uuid

import redis

from bench.common import private_redis, table

PLAYERS = 200
FARMED = 0.05


def _entry(game_id: str, at: int, winner: str, loser: str) -> dict:
    seats = [{"seat": i, "name": p, "bot": None, "player": p} for i, p in enumerate((winner, loser))]
    return {"id": game_id, "type": "splendor", "status": "finished", "version": 40, "seats": seats, "to_act": [],
            "last_move_at": at, "result": {"winners": [0], "scores": [15, 9]}, "decisions": [8, 8],
            "rated_after": {"decisions_per_seat": 1}}


def _log(connection, store, prefix: str, n: int, people: list[str], farmer: str, rng: random.Random) -> None:
    from events import codec
    from events.keys import Keys

    keys = Keys(prefix)
    start = int(time.time() * 1000) - n * 1000
    pipe = connection.pipeline(transaction=False)
    for i in range(n):
        gid = uuid.uuid4().hex[:12]
        if i >= n * 0.9 and rng.random() < FARMED * 10:  # 5% of all, in the last tenth
            winner, loser = farmer, rng.choice(people)
        else:
            winner, loser = rng.sample(people, 2)
        pipe.hset(keys.meta(gid), "type", "splendor")
        pipe.execute()
        store.log_finished(gid, codec.dumps_bytes(_entry(gid, start + i * 1000, winner, loser)), None)


def measure(n: int) -> tuple:
    from api.games import harvest
    from api.settings import Settings
    from events.redis_store import RedisEventStore
    from wiring import bootstrap, connect

    with private_redis() as url:
        prefix = f"voids{n}:"
        connection = redis.Redis.from_url(url)
        store = RedisEventStore(connection, prefix=prefix)
        services = bootstrap(Settings(redis_url=url, key_prefix=prefix), connect(Settings(redis_url=url)),
                             store=store)
        players, ledger, moderation = services.players, services.ledger, services.moderation
        rng = random.Random(n)
        people = [players.create(f"P{i}")[0].id for i in range(PLAYERS)]
        farmer = players.create("Farmer")[0].id
        _log(connection, store, prefix, n, people, farmer, rng)
        t0 = time.perf_counter()
        ledger.catch_up(store, limit=10 * n, tell=False)
        counted = time.perf_counter() - t0
        t0 = time.perf_counter()
        cursor, read = "0", 0
        while True:
            found, after = harvest.page(store, cursor, None, 200)
            read += len(found)
            if after == cursor:
                break
            cursor = after
        floor = time.perf_counter() - t0
        t0 = time.perf_counter()
        ledger.recompute(store, "splendor", frozenset({f"player:{farmer}"}))
        recompute = time.perf_counter() - t0
        ledger.recompute_from(store, "splendor", frozenset({f"player:{farmer}"}),  # warm
                              frozenset({f"player:{farmer}"}))
        timed = {}
        for mode in ("from the farmer's first game", "every game"):
            moderation.incremental = mode != "every game"
            t0 = time.perf_counter()
            voided = moderation.act("void", farmer, "operator", "bench")
            void = time.perf_counter() - t0
            how = moderation.last_rerating
            after_void = _dump(connection, ledger)
            t0 = time.perf_counter()
            moderation.act("unvoid", farmer, "operator", "bench")
            timed[mode] = (void, time.perf_counter() - t0, how, after_void, len(voided["rerated"]))
        partial, whole = timed.values()
        return [(f"{n:,}", f"{counted:.2f} s", f"{floor:.2f} s", f"{recompute:.2f} s", mode, how,
                 f"{void:.2f} s", f"{undo:.2f} s", rerated, "yes" if partial[3] == whole[3] else "NO")
                for mode, (void, undo, how, _, rerated) in timed.items()]


def _dump(connection, ledger) -> dict:
    """Every rating key's value (the same bytes: the partial re-rating is exact)."""
    found = {}
    for key in connection.scan_iter(match=f"{ledger.base}:*", count=1000):
        kind = connection.type(key)
        found[key] = (connection.hgetall(key) if kind == b"hash" else
                      connection.zrange(key, 0, -1, withscores=True) if kind == b"zset" else
                      connection.lrange(key, 0, -1) if kind == b"list" else connection.get(key))
    return found


def main(sizes: list[int]) -> None:
    rows = [row for n in sizes for row in measure(n)]
    print(f"A void's cost: {PLAYERS} players; the farmer in {FARMED:.0%} of all the games, every one in the log's last tenth")
    print(table(rows, ("rated games", "counted", "floor: log read", "recompute alone", "void re-rates",
                       "re-rated", "void", "undo", "players rerated", "same keys")))


if __name__ == "__main__":
    main([int(s) for s in sys.argv[1].split(",")] if len(sys.argv) > 1 else [1000, 10000])
