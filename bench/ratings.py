"""The bots' ladder and the cost of ratings: `python -m bench.ratings [games-per-type [seconds-a-type]]`.

Plays rated bot-only games in-process into a private Redis (every level of a game's bots at
each table, seats rotated), counts them with the ratings' ledger as the reconciler does, and
prints each bot level's rating per game type (the ladder's spacing), the time per game counted
(one rating update, with its transaction) and per leaderboard read (a page of 20 through the
service, as GET /leaderboards reads it).
"""
from __future__ import annotations

import statistics
import sys
import time

import redis

from bench.common import private_redis, table


def _play(service, game_type: str, seats: list, seed: int, budget_s: float) -> bool:
    from workers.jobs import play_turn

    gid = service.create(game_type, seats, {}, seed=seed)["id"]
    ends = time.monotonic() + budget_s
    while time.monotonic() < ends:
        g = service.load(gid)
        actors = service.automatic_actors(g)
        if not actors:
            return g.finished
        play_turn(service, gid, g.version, actors[0])
    return False


def main(games_per_type: int = 30, budget_s: float = 60.0) -> None:
    from api.games.service import GameService
    from api.ratings.ledger import Ledger
    from api.ratings.profiles import Ratings
    from domain import registry
    from events.redis_store import RedisEventStore

    with private_redis() as url:
        connection = redis.Redis.from_url(url)
        store = RedisEventStore(connection, prefix="bench:")
        service = GameService(store)
        ledger = Ledger(connection, "bench:")
        rows, counted = [], 0
        count_times = []
        for definition in registry.all_games():
            levels = list(definition.bots)
            n = max(definition.min_seats, min(len(levels), definition.max_seats))
            played, started = 0, time.monotonic()
            for k in range(games_per_type):
                if time.monotonic() - started > budget_s:
                    break
                seats = [{"bot": levels[(k + i) % len(levels)]} for i in range(n)]
                played += _play(service, definition.name, seats, seed=k, budget_s=budget_s)
            t0 = time.perf_counter()
            new = ledger.catch_up(store)
            count_times.append((time.perf_counter() - t0) / max(1, new))
            counted += new
            for level in levels:
                r = ledger.rating(definition.name, f"bot:{level}")
                if r is not None:
                    rows.append((definition.name, level, played, r.shown()["rating"], f"{r.mu:.2f}",
                                 f"{r.sigma:.2f}", r.wins))
        board = Ratings(ledger, None, lambda: [g.name for g in registry.all_games()])
        reads = []
        for _ in range(200):
            t0 = time.perf_counter()
            board.ledger.board("splendor", 0, 20)
            reads.append(time.perf_counter() - t0)
        print(f"The bots' ladder: {games_per_type} rated bot-only games per type at most (budget {budget_s:.0f} s a type)")
        print(table(rows, ("game", "bot level", "games", "rating", "mu", "sigma", "wins")))
        print(f"counting a game (rating update + its transaction): median {statistics.median(count_times) * 1e3:.2f} ms "
              f"over {counted} games; a leaderboard page read: median {statistics.median(reads) * 1e3:.3f} ms")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 30, float(sys.argv[2]) if len(sys.argv) > 2 else 60.0)
