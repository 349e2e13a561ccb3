"""Where the time goes on the move path and the bot path.

    python -m bench.profile [--seconds 8] [--no-pyspy]

1. In-process, deterministic (cProfile; Flask test client on a private Redis, no gunicorn):
   real Splendor games played as the HTTP clients play them (GET legal moves, POST one with an
   Idempotency-Key); then bot turns (workers.jobs.play_turn with the real TurnScheduler, i.e. the
   RQ enqueue). Prints ms per request of the functions that matter, and the Redis commands
   each request sends (round trips, counted at redis-py's execute_command).
2. Sampled under load (py-spy, if installed): `python app.py` served at 16 connections by
   wrk (bench/wrk_moves.lua, real games); samples of every web worker (and the RQ workers, the
   reconciler), aggregated by function: inclusive and self share of the samples.
"""
from __future__ import annotations

import argparse
import collections
import cProfile
import os
import pstats
import random
import shutil
import subprocess
import sys
import tempfile
import time

import redis

from bench.common import ROOT, private_redis, running_server, table

WATCH = [  # (label, file suffix, function name): inclusive time per request
    ("Flask/Werkzeug request handling (total)", "flask/app.py", "wsgi_app"),
    ("  routes: send_move", "api/http/games.py", "send_move"),
    ("  routes: legal_moves", "api/http/games.py", "legal_moves"),
    ("  auth: seat_for_token (HGETALL credentials)", "api/games/service.py", "seat_for_token"),
    ("  marshmallow MoveRequestSchema.load", "marshmallow/schema.py", "load"),
    ("  service.move", "api/games/service.py", "move"),
    ("    service.load (cache + XRANGE tail)", "api/games/service.py", "load"),
    ("      store.read (XRANGE + decode)", "events/redis_store.py", "read"),
    ("      fold (evolve)", "domain/play.py", "fold"),
    ("    store.recall (idempotency HMGET)", "events/redis_store.py", "recall"),
    ("    game decide", "api/games/service.py", "_decide"),
    ("    _shown (redact response)", "api/games/service.py", "_shown"),
    ("    store.append (Lua EVALSHA)", "events/redis_store.py", "append"),
    ("    _after_append (fold, snapshot, schedule)", "api/games/service.py", "_after_append"),
    ("      snapshot (pickle + HGET/HSET)", "api/games/service.py", "snapshot"),
    ("      scheduler (RQ enqueue)", "workers/queueing/__init__.py", "__call__"),
    ("  game legal_moves", "api/games/service.py", "legal_moves"),
    ("  canonical / sha256 fingerprint", "api/games/service.py", "canonical"),
    ("  JSON response (flask jsonify)", "flask/json/provider.py", "response"),
    ("redis-py execute_command (all round trips)", "redis/client.py", "execute_command"),
    ("  redis-py parse_response", "redis/client.py", "parse_response"),
]


class CommandCounter:
    """Counts the Redis commands sent (each one a round trip unless pipelined)."""

    def __init__(self):
        self.counts = collections.Counter()
        self.original = redis.Redis.execute_command
        self.pipeline_original = redis.client.Pipeline.execute
        counter = self

        def counting(client, *args, **options):
            counter.counts[str(args[0]).upper()] += 1
            return counter.original(client, *args, **options)

        def counting_pipeline(pipe, *args, **kwargs):
            counter.counts[f"PIPELINE({len(pipe.command_stack)})"] += 1
            return counter.pipeline_original(pipe, *args, **kwargs)

        self.patches = (counting, counting_pipeline)

    def __enter__(self):
        redis.Redis.execute_command, redis.client.Pipeline.execute = self.patches
        return self

    def __exit__(self, *exc):
        redis.Redis.execute_command = self.original
        redis.client.Pipeline.execute = self.pipeline_original

    def take(self) -> collections.Counter:
        out, self.counts = self.counts, collections.Counter()
        return out


def _cum(stats: pstats.Stats, suffix: str, name: str) -> tuple[float, int]:
    total, calls = 0.0, 0
    for (filename, _line, func), (cc, nc, tt, ct, callers) in stats.stats.items():
        if func == name and filename.endswith(suffix):
            total += ct
            calls += nc
    return total, calls


def in_process(n_moves: int) -> None:
    from app import create_app
    from workers.jobs import play_turn

    with private_redis() as url:
        app = create_app({"REDIS_URL": url, "TESTING": True, "RATE_LIMIT": 10**9})
        client = app.test_client()
        rng = random.Random(1)
        counter = CommandCounter()
        per_kind: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
        n_kind = collections.Counter()

        def new_game():
            body = client.post("/games", json={"type": "splendor", "seats": [{"name": "a"}, {"name": "b"}]}).get_json()
            return body["id"], [s["token"] for s in body["seats"]]

        # warm up: imports, scripts loaded, caches as a long-running worker has them
        gid, tokens = new_game()
        profiler = cProfile.Profile()
        moves = gets = 0
        key = 0
        with counter:
            while moves < n_moves:
                gid, tokens = new_game()
                counter.take()
                seat = misses = 0
                while moves < n_moves:
                    auth = {"Authorization": f"Bearer {tokens[seat]}"}
                    profiler.enable()
                    page = client.get(f"/games/{gid}/moves", headers=auth).get_json()
                    profiler.disable()
                    gets += 1
                    kind = "GET /moves (to act)" if page["moves"] else "GET /moves (not to act)"
                    per_kind[kind] += counter.take()
                    n_kind[kind] += 1
                    if not page["moves"]:
                        seat = 1 - seat
                        misses += 1
                        if misses >= 2:  # nobody to act: the system's scoring (an RQ job): next game
                            break
                        continue
                    misses = 0
                    key += 1
                    profiler.enable()
                    r = client.post(f"/games/{gid}/moves", headers={**auth, "Idempotency-Key": str(key)},
                                    json={"expected_version": page["version"], "move": rng.choice(page["moves"])})
                    profiler.disable()
                    assert r.status_code == 201, r.get_data()
                    per_kind["POST /moves"] += counter.take()
                    n_kind["POST /moves"] += 1
                    moves += 1
                    seat = 1 - seat
        stats = pstats.Stats(profiler)
        requests_n = moves + gets
        print(f"In-process profile (cProfile, Flask test client, private Redis): {moves} moves, {gets} GET /moves, "
              f"Splendor, 2 seats; times in ms per request, over both kinds of request")
        rows = []
        for label, suffix, name in WATCH:
            ct, calls = _cum(stats, suffix, name)
            if calls:
                rows.append((label, f"{ct / requests_n * 1000:.3f}", f"{calls / requests_n:.2f}"))
        print(table(rows, ("function (inclusive)", "ms/request", "calls/request")))
        print()
        print("Top functions by own time (tottime), ms per request:")
        own = sorted(stats.stats.items(), key=lambda kv: -kv[1][2])[:18]
        print(table([(f"{os.path.relpath(f, '/work') if f.startswith('/') else f}:{ln} {fn}",
                      f"{tt / requests_n * 1000:.3f}", f"{nc / requests_n:.1f}")
                     for (f, ln, fn), (cc, nc, tt, ct, callers) in own], ("function", "own ms/request", "calls/request")))
        print()
        rows = [(kind, n_kind[kind], f"{sum(c.values()) / n_kind[kind]:.1f}",
                 ", ".join(f"{cmd} {n / n_kind[kind]:.2g}" for cmd, n in c.most_common()))
                for kind, c in per_kind.items()]
        print("Redis commands per request (each a round trip; EVALSHA runs the append script):")
        print(table(rows, ("request", "n", "commands", "by command")))

        # ---- the bot path: play_turn (load, policy, move, append, enqueue the next turn) ----
        from api.games.service import GameService
        from events.redis_store import RedisEventStore
        from workers.queueing import TurnScheduler

        conn = redis.Redis.from_url(url)
        scheduler = TurnScheduler(conn, "", "bench-profile")
        service = GameService(RedisEventStore(conn), scheduler)
        profiler = cProfile.Profile()
        turns = 0
        bot_counts = collections.Counter()
        with counter:
            for seed in range(6):
                gid = service.create("splendor", [{"bot": "greedy"}, {"bot": "random"}], {}, seed=seed)["id"]
                counter.take()
                while True:
                    game = service.load(gid)
                    actors = service.automatic_actors(game)
                    if not actors:
                        break
                    counter.take()
                    profiler.enable()
                    play_turn(service, gid, game.version, actors[0])
                    profiler.disable()
                    bot_counts += counter.take()
                    turns += 1
        conn.delete("rq:queue:bench-profile")
        stats = pstats.Stats(profiler)
        rows = []
        for label, suffix, name in [
            ("play_turn (total)", "workers/jobs.py", "play_turn"),
            ("  service.load", "api/games/service.py", "load"),
            ("  choose_move (bot policy)", "workers/jobs.py", "choose_move"),
            ("  service.move", "api/games/service.py", "move"),
            ("    game decide", "api/games/service.py", "_decide"),
            ("    store.append (Lua)", "events/redis_store.py", "append"),
            ("    scheduler: RQ enqueue of the next turn", "workers/queueing/__init__.py", "__call__"),
            ("      rq Queue.enqueue_call", "rq/queue.py", "enqueue_call"),
            ("redis-py execute_command", "redis/client.py", "execute_command"),
        ]:
            ct, calls = _cum(stats, suffix, name)
            if calls:
                rows.append((label, f"{ct / turns * 1000:.3f}", f"{calls / turns:.2f}"))
        print()
        print(f"Bot path in-process (cProfile): {turns} turns of Splendor bots (greedy vs random), "
              f"play_turn with the real TurnScheduler; ms per turn (the RQ worker adds its own job bookkeeping)")
        print(table(rows, ("function (inclusive)", "ms/turn", "calls/turn")))
        print("Redis commands per bot turn: " + ", ".join(
            f"{cmd} {n / turns:.2g}" for cmd, n in bot_counts.most_common()) +
            f" (total {sum(bot_counts.values()) / turns:.1f})")

        # ---- the same turns run by the real RQ SimpleWorker (burst mode, in this process) ----
        from rq import SimpleWorker

        scheduler = TurnScheduler(conn, "", "bench-profile-rq")
        service = GameService(RedisEventStore(conn), scheduler)
        with counter:
            for seed in range(4):
                service.create("splendor", [{"bot": "greedy"}, {"bot": "random"}], {}, seed=seed)
            counter.take()
            worker = SimpleWorker([scheduler.queue], connection=conn)
            profiler = cProfile.Profile()
            t0 = time.perf_counter()
            profiler.enable()
            worker.work(burst=True, logging_level="WARNING", with_scheduler=False)
            profiler.disable()
            took = time.perf_counter() - t0
            rq_counts = counter.take()
        jobs = max(1, rq_counts["PERSIST"])  # RQ persists each job's hash once, when it starts
        stats = pstats.Stats(profiler)
        play, _ = _cum(stats, "workers/jobs.py", "play_turn")
        print()
        print(f"The real RQ SimpleWorker (burst, in-process): {jobs} jobs in {took:.2f} s = {took / jobs * 1000:.2f} ms "
              f"wall per job, of which play_turn {play / jobs * 1000:.2f} ms; the rest is RQ's own bookkeeping "
              f"(under `appendfsync always` each of its write round trips waits for an fsync)")
        print(f"Redis commands per job (turn + RQ): {sum(rq_counts.values()) / jobs:.1f}: " + ", ".join(
            f"{cmd} {n / jobs:.2g}" for cmd, n in rq_counts.most_common()))
        conn.delete("rq:queue:bench-profile-rq")



def under_load(seconds: float) -> None:
    pyspy = shutil.which("py-spy") or (os.path.join(os.path.dirname(sys.executable), "py-spy"))
    if not os.path.exists(pyspy) or not shutil.which("wrk"):
        print("py-spy or wrk not found: skipping the sampled profile under load")
        return
    from bench.http_moves import LUA, _server_pid

    with private_redis() as url, running_server(url) as base, tempfile.TemporaryDirectory() as tmp:
        pid = _server_pid(base)
        raw = os.path.join(tmp, "pyspy.txt")
        spy = subprocess.Popen([pyspy, "record", "--pid", str(pid), "--subprocesses", "--format", "raw",
                                "--rate", "250", "--duration", str(int(seconds)), "--nonblocking", "-o", raw],
                               stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        time.sleep(1.0)
        env = {**os.environ, "BENCH_MODE": "game", "BENCH_OUT": os.path.join(tmp, "wrk.txt"), "BENCH_RUN": "prof"}
        subprocess.run(["wrk", "-t", "16", "-c", "16", "-d", f"{int(seconds) - 2}s", "-s", str(LUA), base],
                       env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=seconds + 60)
        spy.wait(timeout=seconds + 60)
        if not os.path.exists(raw):
            print("py-spy wrote nothing (ptrace not permitted?)")
            return
        keep = os.environ.get("BENCH_PYSPY_OUT")
        if keep:
            shutil.copy(raw, keep)
        print(f"Sampled under load (py-spy --nonblocking, 250 Hz, every process of `python app.py`; wrk, real "
              f"Splendor games at 16 connections, {int(seconds) - 2} s)")
        print(categorize(raw))


def categorize(path: str) -> str:
    """Splits py-spy samples by process kind, then the web workers' busy samples by what runs."""
    procs: collections.Counter = collections.Counter()
    cats: collections.Counter = collections.Counter()
    with open(path) as f:
        for line in f:
            stack, _, count = line.rstrip("\n").rpartition(" ")
            if not stack:
                continue
            n = int(count)
            frames = stack.split(";")
            process = [fr for fr in frames if fr.startswith("process ")][-1]
            code = [fr for fr in frames if not fr.startswith("process ")]
            kind = ("web worker" if "gunicorn" in process else "reconciler" if "reconciler" in process
                    else "RQ worker" if "workers" in process else "supervisor")
            if not code or "Hub.run" in code[-1]:
                procs[f"{kind}: idle (gevent hub / no Python frame)"] += n
                continue
            procs[f"{kind}: busy"] += n
            leaf, joined = code[-1], ";".join(code)
            if kind != "web worker":
                if "_read_from_socket" in leaf or "readline" in leaf:  # a blocking recv: waiting on Redis
                    cats[f"{kind}: waiting for a Redis reply (blocking recv; py-spy counts it busy)"] += n
                else:
                    cats[f"{kind}: " + ("GameService.load" if "GameService.load" in joined else leaf.split(" (")[0])] += n
            elif "wsgi_app" in joined:
                if "redis/" in joined:
                    cats["app: Redis round trips, " + ("send syscall" if "SocketMixin.send" in leaf or "send_chunk" in leaf
                                                       else "recv" if "recv" in leaf or "_read_from_socket" in leaf
                                                       else "redis-py Python (pack, parse, pool)")] += n
                elif "domain/" in joined:
                    cats["app: game engine (domain/)"] += n
                elif "marshmallow" in joined:
                    cats["app: marshmallow (request schemas)"] += n
                elif "json" in joined:
                    cats["app: JSON encode/decode"] += n
                elif "api/" in joined or "events/" in joined:
                    cats["app: api/ and events/ (other)"] += n
                else:
                    cats["app: Flask/Werkzeug"] += n
            elif "send_headers" in joined or "Response.write" in joined or "gunicorn/util.py" in joined:
                cats["gunicorn: write the response (send syscalls: headers, then body)"] += n
            elif "glogging" in joined or "logging/" in joined:
                cats["gunicorn: access log"] += n
            elif "http/message" in joined or "http/parser" in joined or "unreader" in joined:
                cats["gunicorn: parse the request"] += n
            else:
                cats["web: other (" + leaf.split(" (")[0] + ")"] += n
    total, busy = sum(procs.values()), sum(cats.values())
    out = [table([(k, f"{100 * v / total:.1f}") for k, v in procs.most_common()], ("process", "% of samples")), "",
           table([(k, f"{100 * v / busy:.1f}") for k, v in cats.most_common(20)], ("busy samples: what runs", "% of busy"))]
    return "\n".join(out)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--moves", type=int, default=600)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--no-pyspy", action="store_true")
    parser.add_argument("--only-pyspy", action="store_true")
    args = parser.parse_args()
    sys.path.insert(0, str(ROOT))
    if not args.only_pyspy:
        in_process(args.moves)
    if not args.no_pyspy:
        print()
        under_load(args.seconds)


if __name__ == "__main__":
    main()
