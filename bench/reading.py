"""Reading a game: GET /games/{id} and GET /games/{id}/state?version=N on games of 100, 1,000 and
10,000 events, over HTTP against `python app.py`, and the cold rebuild behind them in-process
(a fresh GameService: what a new or restarted worker does) from the events alone and from the
snapshot + tail. The floor of each row is the same game type at 100 events; the curve must stay
flat (10,000 events within 2x of 100).

    python -m bench --only read [--quick]

Hosted games stop before 10,000 events (Splendor near 80, Witches with 50 rounds near 4,300), so
the bench-only game `bench-long` (bench/long_game.py, served with EXTRA_GAME_MODULES) carries the
platform's curve to 10,000; each hosted game is measured up to the length it reaches.

state?version=N is asked for N = length - 1: a past version, which neither the process cache nor
the one snapshot kept (the latest) can serve; the service replays it from the start.
"""
from __future__ import annotations

import http.client
import time
from urllib.parse import urlsplit

import redis

from bench.common import grow_game, hosted_games, percentile, private_redis, running_server, table

LENGTHS = (100, 1000, 10000)
SMOKE_LENGTHS = (100, 300)  # --smoke: does the part still run?


def _timed(fn, budget_s: float, at_most: int, at_least: int = 3) -> list[float]:
    times = []
    deadline = time.perf_counter() + budget_s
    while len(times) < at_most and (len(times) < at_least or time.perf_counter() < deadline):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return times


class Client:
    """One keep-alive HTTP/1.1 connection (as a mobile client holds one)."""

    def __init__(self, base: str):
        u = urlsplit(base)
        self.conn = http.client.HTTPConnection(u.hostname, u.port, timeout=60)

    def get(self, path: str, token: str | None = None) -> bytes:
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        try:
            self.conn.request("GET", path, headers=headers)
            resp = self.conn.getresponse()
        except (http.client.RemoteDisconnected, ConnectionError):
            # gunicorn closes a keep-alive connection idle for 2 s: connect again, once
            self.conn.close()
            self.conn.request("GET", path, headers=headers)
            resp = self.conn.getresponse()
        body = resp.read()
        if resp.status != 200:
            raise RuntimeError(f"GET {path}: {resp.status} {body[:200]!r}")
        return body


def build_games(service, lengths=LENGTHS) -> list[dict]:
    from bench import long_game
    from bench.common import configs

    built = []
    for d in hosted_games() + [long_game.GAME]:
        n, options = configs(d)[0]
        if "rounds" in options:  # the longest games a hosted game plays
            declared = {o.name: o for o in d.options}
            options = {**options, "rounds": declared["rounds"].maximum or options["rounds"]}
        for target in lengths:
            created = service.create(d.name, [{"name": f"p{i}"} for i in range(n)], options, seed=target)
            version = grow_game(service, created["id"], target, seed=target)
            game = service.load(created["id"])
            built.append({"type": d.name, "target": target, "id": created["id"], "version": version,
                          "token": created["seats"][0]["token"], "finished": game.finished,
                          "setup_version": int(game.meta["setup_version"])})
            if version < target:
                break  # it ended: a longer game of this type does not exist
    return built


def run(quick: bool = False, smoke: bool = False) -> dict:
    from api.games.service import GameService
    from bench import long_game
    from domain import registry
    from events.redis_store import RedisEventStore

    registry.register(long_game.GAME)
    budget = 0.0 if smoke else 0.5 if quick else 4.0
    at_most = 3 if smoke else 30 if quick else 200
    results = {}
    with private_redis() as url:
        store = RedisEventStore(redis.Redis.from_url(url))
        service = GameService(store)
        t0 = time.perf_counter()
        games = build_games(service, SMOKE_LENGTHS if smoke else LENGTHS)
        print(f"Reading a game: {len(games)} games built in {time.perf_counter() - t0:.1f} s")
        rows = []
        with running_server(url, EXTRA_GAME_MODULES="bench.long_game") as base:
            client = Client(base)
            for g in games:
                gid, token = g["id"], g["token"]
                past = max(g["setup_version"], g["version"] - 1)
                GameService(store).load(gid)  # leaves a snapshot at the end, as the server would
                for _ in range(2):
                    client.get(f"/games/{gid}", token)  # this worker's cache is now warm
                get_t = _timed(lambda: client.get(f"/games/{gid}", token), budget, at_most * 3)
                state_t = _timed(lambda: client.get(f"/games/{gid}/state?version={past}", token), budget, at_most)
                snap_t = _timed(lambda: GameService(store).load(gid), budget, at_most)
                at_t = _timed(lambda: GameService(store).at_version(gid, past), budget, at_most)
                store.delete_snapshot(gid)

                def cold_events_only():
                    GameService(store).load(gid)
                    store.delete_snapshot(gid)  # the load saved one again

                events_t = _timed(cold_events_only, budget, at_most)
                GameService(store).load(gid)
                g.update(get=get_t, state=state_t, snap=snap_t, events=events_t, at=at_t)
        floors = {}
        for g in games:
            floors.setdefault(g["type"], g)
            f = floors[g["type"]]
            med = {k: percentile(g[k], 0.5) for k in ("get", "state", "snap", "events", "at")}
            fmed = {k: percentile(f[k], 0.5) for k in ("get", "state", "snap", "events", "at")}
            r = lambda k: f"{med[k] / fmed[k]:.2f}"
            rows.append((g["type"], g["version"] if not g["finished"] else f"{g['version']} (end)",
                         f"{med['get'] * 1000:.2f}/{percentile(g['get'], 0.99) * 1000:.2f}", r("get"),
                         f"{med['state'] * 1000:.1f}", r("state"),
                         f"{med['events'] * 1000:.1f}", r("events"),
                         f"{med['snap'] * 1000:.1f}", r("snap"),
                         f"{med['at'] * 1000:.1f}"))
            results[f"{g['type']}/{g['version']}"] = {k: med[k] for k in med}
    print("Times in ms (median; GET also p99); each 'x' is the ratio to the same game at its shortest "
          "length (the floor). HTTP: one keep-alive client against `python app.py` (server cache warm).")
    print("cold: a fresh GameService in-process (a new worker), from the events only or from the "
          "latest snapshot + tail; at_version: the replay behind state?version=N, cold.")
    print(table(rows, ("game", "events", "GET game p50/p99", "x", "GET state?v=len-1", "x",
                       "cold, events only", "x", "cold, snapshot", "x", "at_version cold")))
    return results


if __name__ == "__main__":
    import sys

    run("--quick" in sys.argv)
