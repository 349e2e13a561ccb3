"""Memory: Redis bytes per event and per finished game, for every hosted game (MEMORY USAGE,
exact: SAMPLES 0), split by key kind, beside the floor: the bytes of the events' own fields
(type, JSON data, actor, at) that any store must keep.

    python -m bench --only memory [--quick]

Games are played to their end in-process through GameService.move against a private Redis, by
people (random legal moves, each with an Idempotency-Key as an API client sends it), so every
key a real game leaves is there: the stream, meta, credentials, the latest snapshot, and one
idempotency record per move (kept 24 h). A game played by bots leaves no idempotency records.
"""
from __future__ import annotations

import random

import redis

from bench.common import configs, hosted_games, private_redis, table


def play_to_end(service, definition, n: int, options: dict, seed: int) -> str:
    created = service.create(definition.name, [{"name": f"p{i}"} for i in range(n)], options, seed=seed)
    gid = created["id"]
    rng = random.Random(seed)
    key = 0
    while True:
        game = service.load(gid)
        actors = game.actors()
        if not actors:
            return gid
        actor = actors[0]
        move = rng.choice(game.definition.legal_moves(game.state, actor))
        key += 1
        service.move(gid, actor, move, game.version, idempotency_key=f"k{key}" if actor != "system" else None)


def usage(conn, gid: str) -> dict:
    out = {"events": 0, "idempotency": 0, "snapshot": 0, "meta+credentials": 0, "other": 0, "idem_keys": 0}
    for key in conn.scan_iter(match=f"game:\\{{{gid}\\}}:*", count=1000):
        size = conn.memory_usage(key, samples=0) or 0
        name = key.decode()
        if name.endswith(":events"):
            out["events"] += size
        elif ":idem:" in name:
            out["idempotency"] += size
            out["idem_keys"] += 1
        elif name.endswith((":snapshots", ":snapshot-index")):
            out["snapshot"] += size
        elif name.endswith(":meta") or name.endswith(":credentials"):
            out["meta+credentials"] += size
        else:
            out["other"] += size
    return out


def raw_bytes(conn, gid: str) -> int:
    total = 0
    for _, fields in conn.xrange(f"game:{{{gid}}}:events"):
        total += sum(len(v) for v in fields.values())
    return total


def run(quick: bool = False, smoke: bool = False) -> dict:
    from api.games.service import GameService
    from events.redis_store import RedisEventStore

    games_per_config = 1 if quick else 3
    rows, results = [], {}
    with private_redis() as url:
        conn = redis.Redis.from_url(url)
        service = GameService(RedisEventStore(conn))
        for d in hosted_games():
            for n, options in configs(d)[: 1 if quick else None]:
                totals = {"events": 0, "idempotency": 0, "snapshot": 0, "meta+credentials": 0, "other": 0,
                          "idem_keys": 0, "n_events": 0, "raw": 0}
                for seed in range(games_per_config):
                    gid = play_to_end(service, d, n, options, seed)
                    u = usage(conn, gid)
                    for k, v in u.items():
                        totals[k] += v
                    totals["n_events"] += conn.xlen(f"game:{{{gid}}}:events")
                    totals["raw"] += raw_bytes(conn, gid)
                g = games_per_config
                per_event = totals["events"] / totals["n_events"]
                raw_per_event = totals["raw"] / totals["n_events"]
                whole = sum(totals[k] for k in ("events", "idempotency", "snapshot", "meta+credentials", "other")) / g
                rows.append((d.name, n, g, f"{totals['n_events'] / g:.0f}", f"{per_event:.0f}",
                             f"{raw_per_event:.0f}", f"{per_event / raw_per_event:.2f}",
                             f"{totals['idempotency'] / max(1, totals['idem_keys']):.0f}",
                             f"{totals['snapshot'] / g / 1024:.1f}", f"{whole / 1024:.1f}",
                             f"{(whole - totals['idempotency'] / g) / 1024:.1f}"))
                results[f"{d.name}/{n}"] = {"bytes_per_event": per_event, "raw_bytes_per_event": raw_per_event,
                                            "bytes_per_game": whole}
    print("Memory: Redis MEMORY USAGE (SAMPLES 0) of finished games played by people with Idempotency-Keys; "
          "floor = the bytes of each event's fields (type, data, actor, at)")
    print(table(rows, ("game", "seats", "games", "events/game", "stream B/event", "floor B/event",
                       "x floor", "B/idempotency record", "snapshot KiB", "KiB/finished game",
                       "KiB/game without idem records")))
    return results


if __name__ == "__main__":
    import sys

    run("--quick" in sys.argv)
