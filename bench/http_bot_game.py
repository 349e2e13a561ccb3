"""Wall time of complete bot-vs-bot games over HTTP, with the real RQ workers.

    python -m bench.http_bot_game [game-type] [games]

Starts `python app.py` (gunicorn, workers, reconciler) against a private Redis, creates games
whose seats are all bots, and times from POST /games until GET /games/{id} says finished.
"""
from __future__ import annotations

import statistics
import sys
import time

import requests

from bench.common import private_redis, running_server, table


def main(game_type="splendor", games=5, seats=2):
    with private_redis() as url, running_server(url) as base:
        bots = requests.get(f"{base}/game-types").json()["game_types"]
        bot_levels = next(t["bots"] for t in bots if t["type"] == game_type)
        rows = []
        for i in range(games):
            body = {"type": game_type, "seats": [{"bot": bot_levels[(i + s) % len(bot_levels)]} for s in range(seats)],
                    "seed": i}
            started = time.perf_counter()
            gid = requests.post(f"{base}/games", json=body).json()["id"]
            while True:
                game = requests.get(f"{base}/games/{gid}").json()
                if game["status"] == "finished":
                    break
                time.sleep(0.01)
            elapsed = time.perf_counter() - started
            rows.append((i, game["version"], f"{elapsed:.2f}", f"{elapsed / game['version'] * 1000:.1f}"))
        print(f"{games} complete {seats}-seat {game_type} games, all seats bots, over HTTP with RQ workers")
        print(table(rows, ("game", "events", "wall s", "ms/event")))
        walls = [float(r[2]) for r in rows]
        print(f"median wall time: {statistics.median(walls):.2f} s")


if __name__ == "__main__":
    args = sys.argv[1:]
    main(args[0] if args else "splendor", int(args[1]) if len(args) > 1 else 5)
