"""Time to rebuild a long game's state from its events, with and without a snapshot.

    python -m bench.rebuild [game-type] [min-events]

Plays bot-vs-bot games in-process into a private Redis until one game has at least
min-events events (default 1,000), then times a cold load (no process cache) from the events
alone and from a snapshot near the end.
"""
from __future__ import annotations

import statistics
import sys
import time

import redis

from bench.common import private_redis, table


def main(game_type="witches", min_events=1000, repeats=20):
    from api.games.service import GameService
    from domain import registry
    from events.redis_store import RedisEventStore
    from workers.jobs import play_turn

    with private_redis() as url:
        store = RedisEventStore(redis.Redis.from_url(url), prefix="bench:")
        service = GameService(store)
        definition = registry.get(game_type)
        bots = list(definition.bots)
        seats = [{"bot": bots[i % len(bots)]} for i in range(definition.min_seats)]
        options = {"rounds": 50} if game_type == "witches" else {}
        options = {k: v for k, v in options.items() if k in definition.default_options()}
        game = service.create(game_type, seats, options, seed=1)
        gid = game["id"]
        while True:
            g = service.load(gid)
            actors = service.automatic_actors(g)
            # Stop half-way between two snapshots, so the snapshot case replays a real tail.
            if not actors or g.version >= min_events + 50:
                break
            play_turn(service, gid, g.version, actors[0])
        version = service.load(gid).version
        code = service._snapshot_code(definition)
        # The snapshots play left behind (one every SNAPSHOT_EVERY events), then none at all.
        snap_version = store.load_snapshot(gid, code)[0]
        rows = [_timed(store, gid, repeats, f"snapshot at {snap_version} + {version - snap_version} events", version)]
        store.delete_snapshot(gid)
        rows.append(_timed(store, gid, repeats, "all events, no snapshot", version, clear=True))
        print(f"Rebuilding a {game_type} game of {version} events (cold process cache), {repeats} runs each")
        print(table(rows, ("from", "events", "median ms", "max ms")))


def _timed(store, gid, repeats, label, version, clear=False):
    from api.games.service import GameService

    times = []
    for _ in range(repeats):
        if clear:
            store.delete_snapshot(gid)  # a load saves one: keep measuring the replay
        fresh = GameService(store)
        started = time.perf_counter()
        fresh.load(gid)
        times.append(time.perf_counter() - started)
    return label, version, f"{statistics.median(times) * 1000:.2f}", f"{max(times) * 1000:.2f}"


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "witches", int(args[1]) if len(args) > 1 else 1000)
