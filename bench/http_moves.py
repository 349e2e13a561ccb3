"""Moves over HTTP: many concurrent clients, each on one keep-alive connection, playing real games
against `python app.py`, beside the floor: bench/floor_app.py (a bare Flask endpoint doing the same
atomic Lua append) served with app.py's own gunicorn command line. Two kinds of client, both
reading their legal moves from the API and sending one at random with its expected version and
an Idempotency-Key:
- `game`: each seat's own token; per move, GET /games/{id}/moves as the seat to act, then the
  POST (two requests per move);
- `game 1 req`: the game's table token plays every seat; each POST asks
  `?include=next_moves&seat=S` and the answer carries the next seat's legal moves, so a move is
  one request (a GET of the moves only when a game starts or after a conflict).

    python -m bench --only http [--quick] [--conns 16,64] [--seconds 10]

The load generator is wrk (Debian package `wrk`) with bench/wrk_moves.lua: it takes little CPU
from the server. Where wrk is missing a Python generator (threads + http.client) stands in, and
the table says so: it steals CPU from the server on a 2-core machine.

Figures: moves/s (201 answers to POST .../moves per second), p50/p99 of the POST latency (timed
by the client around each POST only; the client's GETs are timed apart), and the CPU the server's
processes (web workers, RQ workers, reconciler) and Redis spent per move, read from /proc: a
figure that other load on a shared machine disturbs far less than throughput.
The floor rows: `floor` = POSTs only; `floor loop` = the same read-then-move loop on the floor app
(a GET answering a fixed move list and one XLEN, then the POST).
"""
from __future__ import annotations

import math
import os
import shutil
import socket
import subprocess
import tempfile
import threading
import time
import uuid
from pathlib import Path
from urllib.parse import urlsplit

import redis
import requests

from bench.common import percentile, private_redis, running_server, running_wsgi, server_command, table

LUA = Path(__file__).resolve().parent / "wrk_moves.lua"
TICK = os.sysconf("SC_CLK_TCK")


# ---- CPU accounting from /proc ------------------------------------------------------------

def _tree(root: int) -> list[int]:
    children: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as f:
                    ppid = int(f.read().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            children.setdefault(ppid, []).append(int(entry))
    out, todo = [], [root]
    while todo:
        pid = todo.pop()
        out.append(pid)
        todo += children.get(pid, [])
    return out


def cpu_ticks(pids: list[int]) -> tuple[int, int]:
    """(user, system) CPU clock ticks of the processes (utime and stime)."""
    user = system = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            user, system = user + int(fields[11]), system + int(fields[12])
        except (OSError, IndexError, ValueError):
            pass
    return user, system


def cpu_seconds(pids: list[int]) -> float:
    return sum(cpu_ticks(pids)) / TICK


# ---- the load generators ----------------------------------------------------------------------

def run_wrk(base: str, mode: str, conns: int, seconds: float, game: str = "splendor", seats: int = 2) -> dict:
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        env = {**os.environ, "BENCH_MODE": mode, "BENCH_OUT": out.name, "BENCH_GAME": game,
               "BENCH_SEATS": str(seats), "BENCH_RUN": uuid.uuid4().hex[:8]}
        cmd = ["wrk", "-t", str(conns), "-c", str(conns), "-d", f"{max(1, math.ceil(seconds))}s", "--timeout", "10s",
               "-s", str(LUA), base]
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=seconds + 60, check=True)
        lines = out.read().splitlines()
    res = {"post": [], "get": [], "moves": 0, "games": 0, "conflicts": 0, "errors": 0, "gets": 0,
           "waits": 0, "finished": 0}
    for line in lines:
        head, _, rest = line.partition(" ")
        if head == "duration_us":
            res["duration"] = int(rest) / 1e6
        elif head == "counts":
            moves, games, conflicts, errors, _empty, gets, *more = map(int, rest.split())
            waits, finished = (more + [0, 0])[:2]
            res["waits"] += waits
            res["finished"] += finished
            res["moves"] += moves
            res["games"] += games
            res["conflicts"] += conflicts
            res["errors"] += errors
            res["gets"] += gets
        elif head in ("post", "get"):
            res[head] += [int(x) / 1e6 for x in rest.split()]
    return res


def run_python(base: str, mode: str, conns: int, seconds: float, game: str = "splendor", seats: int = 2) -> dict:
    """The fallback generator: one thread and one keep-alive connection per client."""
    import http.client
    import json
    import random

    u = urlsplit(base)
    res = {"post": [], "get": [], "moves": 0, "games": 0, "conflicts": 0, "errors": 0, "gets": 0}
    lock = threading.Lock()
    stop = time.monotonic() + seconds
    run_id = uuid.uuid4().hex[:8]

    def client(tid: int):
        rng = random.Random(tid)
        conn = http.client.HTTPConnection(u.hostname, u.port, timeout=10)
        post, get, local = [], [], {"moves": 0, "games": 0, "conflicts": 0, "errors": 0, "gets": 0}

        def call(method, path, body=None, headers=None):
            conn.request(method, path, body=json.dumps(body) if body is not None else None,
                         headers={"Content-Type": "application/json", **(headers or {})})
            r = conn.getresponse()
            return r.status, json.loads(r.read() or b"null")

        def timed(method, path, body=None, headers=None):
            """call() and how long it took."""
            t0 = time.perf_counter()
            status, answer = call(method, path, body, headers)
            return status, answer, time.perf_counter() - t0

        version, n = 1, 0
        stream = f"{run_id}-{tid}"
        tokens, gid, seat = [], None, 0
        if mode == "table":
            return table_client(tid, rng, call, timed, post, get, local)
        while time.monotonic() < stop:
            if mode == "game" and gid is None:
                status, body = call("POST", "/games", {"type": game, "seats": [{"name": f"p{i}"} for i in range(seats)]})
                gid, tokens, seat = body["id"], [s["token"] for s in body["seats"]], 0
                local["games"] += 1
            auth = {"Authorization": f"Bearer {tokens[seat]}"} if mode == "game" else {}
            path = f"/games/{gid}/moves" if mode == "game" else f"/floor/{stream}/moves"
            move = {"type": "take_gems", "colors": ["white", "blue", "green"]}
            if mode != "floor":
                status, body, took = timed("GET", path, headers=auth)
                get.append(took)
                local["gets"] += 1
                if not body.get("moves"):
                    seat = (seat + 1) % max(1, len(tokens))
                    if mode == "game" and call("GET", f"/games/{gid}", headers=auth)[1]["status"] == "finished":
                        gid = None
                    continue
                version, move = body["version"], rng.choice(body["moves"])
            n += 1
            status, body, took = timed("POST", path, {"expected_version": version, "move": move},
                                       {**auth, "Idempotency-Key": f"{run_id}-{tid}-{n}"})
            if status == 201:
                post.append(took)  # as wrk_moves.lua: the latency of accepted moves
                local["moves"] += 1
                version = body["version"]
                nxt = [a for a in body["to_act"] if isinstance(a, int)] if mode == "game" else []
                seat = nxt[0] if nxt else (seat + 1) % max(1, len(tokens))
            elif status == 409:
                local["conflicts"] += 1
                version = body.get("version", version)
            else:
                local["errors"] += 1
        finish(post, get, local)

    def table_client(tid, rng, call, timed, post, get, local):
        """One request per move: the table token, the next move from the answer's next_moves."""
        n, gid = 0, None
        while time.monotonic() < stop:
            if gid is None:
                status, body = call("POST", "/games", {"type": game, "seats": [{"name": f"p{i}"} for i in range(seats)]})
                gid, auth = body["id"], {"Authorization": f"Bearer {body['table_token']}"}
                local["games"] += 1
                status, page, took = timed("GET", f"/games/{gid}/moves", headers=auth)
                get.append(took)
                local["gets"] += 1
                if status != 200:
                    gid = None
                    continue
            n += 1
            status, body, took = timed("POST", f"/games/{gid}/moves?include=next_moves&seat={page['seat']}",
                                       {"expected_version": page["version"], "move": rng.choice(page["moves"])},
                                       {**auth, "Idempotency-Key": f"{run_id}-{tid}-{n}"})
            if status == 201:
                post.append(took)
                local["moves"] += 1
                page = body["next_moves"]
                if not page or not page["moves"]:
                    gid = None
            else:
                local["conflicts" if status == 409 else "errors"] += 1
                gid = None
        finish(post, get, local)

    def finish(post, get, local):
        with lock:
            res["post"] += post
            res["get"] += get
            for k, v in local.items():
                res[k] += v

    started = time.monotonic()
    threads = [threading.Thread(target=client, args=(i,)) for i in range(conns)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    res["duration"] = time.monotonic() - started
    return res


def load(base, mode, conns, seconds, server_pid, redis_pid, **kw) -> dict:
    generator = run_wrk if shutil.which("wrk") else run_python
    pids = _tree(server_pid)
    before = cpu_seconds(pids), cpu_seconds([redis_pid])
    res = generator(base, mode, conns, seconds, **kw)
    after = cpu_seconds(pids), cpu_seconds([redis_pid])
    moves = max(1, res["moves"])
    res.update(rate=res["moves"] / res["duration"], p50=percentile(res["post"], 0.5),
               p99=percentile(res["post"], 0.99), get_p50=percentile(res["get"], 0.5),
               cpu_server=(after[0] - before[0]) / moves, cpu_redis=(after[1] - before[1]) / moves,
               generator=generator.__name__)
    return res


# ---- live streams held open during a run --------------------------------------------------------

class LiveStreams:
    """n SSE connections (GET /games/{id}/stream) held open and read, as watching clients do."""

    def __init__(self, base: str, n: int, game: str = "splendor", seats: int = 2):
        u = urlsplit(base)
        self.socks, self.bytes, self.stop = [], 0, threading.Event()
        for _ in range(n):
            created = requests.post(f"{base}/games", json={"type": game, "seats": [{"name": "w"}] * seats}).json()
            s = socket.create_connection((u.hostname, u.port))
            s.sendall(f"GET /games/{created['id']}/stream HTTP/1.1\r\nHost: x\r\n"
                      f"Authorization: Bearer {created['seats'][0]['token']}\r\n\r\n".encode())
            s.setblocking(False)
            self.socks.append(s)
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        import select

        while not self.stop.is_set():
            ready, _, _ = select.select(self.socks, [], [], 0.2)
            for s in ready:
                try:
                    self.bytes += len(s.recv(65536))
                except BlockingIOError:
                    pass

    def open_count(self) -> int:
        alive = 0
        for s in self.socks:
            try:
                s.send(b"")
                alive += 1
            except OSError:
                pass
        return alive

    def close(self):
        self.stop.set()
        self.thread.join()
        for s in self.socks:
            s.close()


def _redis_pid(url: str) -> int:
    return int(redis.Redis.from_url(url).info("server")["process_id"])


def run(quick: bool = False, conns=(16, 64), seconds: float | None = None, rounds: int | None = None,
        sse: int = 50, game: str = "splendor", seats: int = 2, smoke: bool = False,
        games: tuple[str, ...] | None = None) -> dict:
    """smoke: the floor's POSTs and the one-request client only (with and without streams).
    `games`: several game types, each a row of its own (`<run> <game> @<conns>`), all beside
    the same floor rows (BENCH_GAMES=splendor,setup,smallworld-of-warcraft)."""
    games = games or tuple(g for g in os.environ.get("BENCH_GAMES", "").split(",") if g) or (game,)
    named = len(games) > 1
    seconds = seconds or (3 if quick else 10)  # wrk counts whole seconds
    rounds = rounds or (1 if quick else 2)
    rows_by_name: dict[str, list] = {}
    with private_redis() as url:
        rpid = _redis_pid(url)
        for _ in range(rounds):
            with running_wsgi("bench.floor_app:create_app()", {"REDIS_URL": url}) as (base, proc):
                for c in conns:
                    rows_by_name.setdefault(f"floor @{c}", []).append(load(base, "floor", c, seconds, proc.pid, rpid))
                for c in conns if not smoke else ():
                    rows_by_name.setdefault(f"floor loop @{c}", []).append(
                        load(base, "floorloop", c, seconds, proc.pid, rpid))
            with running_server(url) as base:
                pid = _server_pid(base)
                for (mode, label), kind in ((m, g) for m in (("game", "game"), ("table", "game 1 req"))[1 if smoke else 0:]
                                            for g in games):
                    label = f"{label} {kind}" if named else label
                    for c in conns:
                        rows_by_name.setdefault(f"{label} @{c}", []).append(
                            load(base, mode, c, seconds, pid, rpid, game=kind, seats=seats))
                    if sse:
                        live = LiveStreams(base, sse)
                        c = conns[-1]
                        try:
                            res = load(base, mode, c, seconds, pid, rpid, game=kind, seats=seats)
                            res["sse_open"] = live.open_count()
                        finally:
                            live.close()
                        rows_by_name.setdefault(f"{label} @{c} + {sse} SSE", []).append(res)
        if not quick:  # the serving setup: the floor under gunicorn sync workers, 2 x cores
            cmd = server_command("bench.floor_app:create_app()", {**os.environ, "PORT": "0"})
            if "gevent" in cmd:
                for c in conns:
                    with _sync_floor(url, 2 * (os.cpu_count() or 1)) as (base, proc):
                        rows_by_name.setdefault(f"floor sync x{2 * (os.cpu_count() or 1)} @{c}", []).append(
                            load(base, "floor", c, seconds, proc.pid, rpid))
    return report(rows_by_name, conns, seconds, rounds, game, seats, games)


def _sync_floor(url: str, workers: int):
    from contextlib import contextmanager

    @contextmanager
    def cm():
        from bench import common

        original = common.server_command

        def sync_command(app_spec, env):
            cmd = original(app_spec, env)
            i = cmd.index("--worker-class")
            cmd[i + 1] = "sync"
            j = cmd.index("--workers")
            cmd[j + 1] = str(workers)
            k = cmd.index("--worker-connections")
            del cmd[k:k + 2]
            return cmd

        common.server_command = sync_command
        try:
            with running_wsgi("bench.floor_app:create_app()", {"REDIS_URL": url}) as served:
                yield served
        finally:
            common.server_command = original

    return cm()


def _server_pid(base: str) -> int:
    """The pid of the `python app.py` serving base (the supervisor: its tree is the server)."""
    port = urlsplit(base).port
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/environ", "rb") as f:
                    env = f.read().split(b"\0")
                with open(f"/proc/{entry}/cmdline", "rb") as f:
                    cmdline = f.read().split(b"\0")
            except OSError:
                continue
            if f"PORT={port}".encode() in env and any(a.endswith(b"app.py") for a in cmdline):
                return int(entry)
    raise RuntimeError("server process not found")


def report(rows_by_name, conns, seconds, rounds, game, seats, games=None) -> dict:
    def med(runs, key):
        return percentile([r[key] for r in runs], 0.5)

    rows, results = [], {}
    for name, runs in rows_by_name.items():
        c = int(name.split("@")[1].split()[0])
        floor = rows_by_name.get(f"floor @{c}")
        f_rate, f_p50, f_p99 = (med(floor, "rate"), med(floor, "p50"), med(floor, "p99")) if floor else (0, 0, 0)
        rate, p50, p99 = med(runs, "rate"), med(runs, "p50"), med(runs, "p99")
        extra = []
        # a floor client's first append creates its stream and answers 409 once: not a conflict
        conflicts = sum(r["conflicts"] for r in runs) - (c * len(runs) if name.startswith("floor") else 0)
        errors = sum(r["errors"] for r in runs)
        if conflicts or errors:
            extra.append(f"{conflicts} conflicts, {errors} errors")
        if "sse_open" in runs[0]:
            extra.append(f"{min(r['sse_open'] for r in runs)} streams open at the end")
        if runs[0]["generator"] != "run_wrk":
            extra.append("python load generator")
        if name.startswith("game"):
            waits = sum(r.get("waits", 0) for r in runs)
            extra.append(f"{sum(r['games'] for r in runs)} games ({sum(r.get('finished', 0) for r in runs)} played to "
                         f"the end)" + (f", {waits} waits through system turns" if waits else ""))
        rows.append((name, f"{rate:,.0f}", f"{rate / f_rate:.2f}" if f_rate else "-",
                     f"{p50 * 1000:.1f}", f"{p99 * 1000:.1f}", f"{p99 / f_p99:.2f}" if f_p99 else "-",
                     f"{med(runs, 'get_p50') * 1000:.1f}" if runs[0]["get"] else "-",
                     f"{med(runs, 'cpu_server') * 1000:.2f}", f"{med(runs, 'cpu_redis') * 1000:.3f}",
                     "; ".join(extra)))
        results[name] = {"moves_per_s": rate, "p50_ms": p50 * 1000, "p99_ms": p99 * 1000,
                         "rate_ratio": rate / f_rate if f_rate else None,
                         "p99_ratio": p99 / f_p99 if f_p99 else None,
                         "cpu_server_ms": med(runs, "cpu_server") * 1000, "cpu_redis_ms": med(runs, "cpu_redis") * 1000}
    print(f"Moves over HTTP: {', '.join(games) if games else game} with {seats} seats, clients on one keep-alive connection each, "
          f"{seconds:g} s per run, median of {rounds} round(s); ratios against `floor` at the same connections")
    print(table(rows, ("run", "moves/s", "x floor", "POST p50 ms", "POST p99 ms", "p99 x floor",
                       "GET p50 ms", "server CPU ms/move", "redis CPU ms/move", "notes")))
    return results


if __name__ == "__main__":
    import sys

    run("--quick" in sys.argv)
