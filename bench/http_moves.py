"""Moves over HTTP: many concurrent clients, each on one keep-alive connection, playing real games
against `python app.py`, beside the floor: bench/floor_app.py (a bare Flask endpoint doing the same
atomic Lua append) served with app.py's own gunicorn command line. Two kinds of client, both
reading their legal moves from the API and sending one at random with its expected version and
an Idempotency-Key:
- `game`: each seat's own token; per move, GET /games/{id}/moves as the seat to act, then the
  POST (two requests per move);
- `game 1 req`: the game's table token plays every seat; each POST asks
  `?include=next_moves&seat=S` and the answer carries the next seat's legal moves, so a move is
  one request (a GET of the moves only when a game starts or after a conflict); both wait through
  system turns by polling `GET /games/{id}` (`BENCH_WAIT_MS`);
- `steady`: the table client's moves only, on games made before the window (make_pool, which
  measures a creation's, a first `GET /moves`'s and a `GET /games/{id}`'s CPU apart), each left
  at its first system turn: a move in a game's middle. Per game type the report then splits the
  server's CPU by process (web, turn workers, the rest), says what each window counted, and
  rebuilds the as-played window's web CPU from its counts (accounts()).

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


def role(pid: int) -> str:
    """What a process of the server's tree is: `web` (gunicorn: the HTTP API, or the floor app),
    `turn` (an RQ turn worker: bots' and the system's turns, a game's final scoring), `other`
    (the supervisor, the reconciler, the webhook and analysis workers)."""
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = [a.decode(errors="replace") for a in f.read().split(b"\0") if a]
    except OSError:
        return "other"
    if any("gunicorn" in a for a in argv):
        return "web"
    if argv[-2:] == ["workers", "worker"]:
        return "turn"
    return "other"


def cpu_by_role(pids: list[int]) -> dict[str, float]:
    """CPU seconds of the processes, by role(): web, turn, other."""
    out = {"web": 0.0, "turn": 0.0, "other": 0.0}
    for pid in pids:
        out[role(pid)] += sum(cpu_ticks([pid])) / TICK
    return out


# ---- the load generators ----------------------------------------------------------------------

def run_wrk(base: str, mode: str, conns: int, seconds: float, game: str = "splendor", seats: int = 2,
            pool: str | None = None) -> dict:
    with tempfile.NamedTemporaryFile("r", suffix=".txt") as out:
        env = {**os.environ, "BENCH_MODE": mode, "BENCH_OUT": out.name, "BENCH_GAME": game,
               "BENCH_SEATS": str(seats), "BENCH_RUN": uuid.uuid4().hex[:8]}
        if pool:
            env["BENCH_POOL"] = pool
        cmd = ["wrk", "-t", str(conns), "-c", str(conns), "-d", f"{max(1, math.ceil(seconds))}s", "--timeout", "10s",
               "-s", str(LUA), base]
        subprocess.run(cmd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                       timeout=seconds + 60, check=True)
        lines = out.read().splitlines()
    res = {"post": [], "get": [], "moves": 0, "games": 0, "conflicts": 0, "errors": 0, "gets": 0,
           "waits": 0, "finished": 0, "status": 0, "ends": 0, "pooled": 0, "waited_ms": 0, "waited": 0}
    for line in lines:
        head, _, rest = line.partition(" ")
        if head == "duration_us":
            res["duration"] = int(rest) / 1e6
        elif head == "counts":
            moves, games, conflicts, errors, _empty, gets, *more = map(int, rest.split())
            waits, finished, status, ends, pooled, waited_ms, waited = (more + [0] * 7)[:7]
            res["waited_ms"] += waited_ms
            res["waited"] += waited
            res["waits"] += waits
            res["finished"] += finished
            res["status"] += status
            res["ends"] += ends
            res["pooled"] += pooled
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


def redis_activity(pid: int) -> dict[str, int]:
    """The Redis server's counters that say how its work arrived: `wakeups` (voluntary context
    switches: its event loop found nothing to do and slept, so each is one pass that began with
    an epoll_wait's wake), `reads` and `writes` (read/write system calls: one read per client
    with input in a pass, one write per reply flushed). Commands per pass follow from them: the
    same commands spread over more passes cost Redis more CPU (issue 57's kept connections)."""
    out = {"wakeups": 0, "reads": 0, "writes": 0}
    try:
        with open(f"/proc/{pid}/status") as f:
            for line in f:
                if line.startswith("voluntary_ctxt_switches:"):
                    out["wakeups"] = int(line.split()[1])
        with open(f"/proc/{pid}/io") as f:
            for line in f:
                key, _, value = line.partition(":")
                if key in ("syscr", "syscw"):
                    out["reads" if key == "syscr" else "writes"] = int(value)
    except (OSError, ValueError):
        pass
    return out


def load(base, mode, conns, seconds, server_pid, redis_pid, **kw) -> dict:
    generator = run_wrk if shutil.which("wrk") else run_python
    pids = _tree(server_pid)
    before = cpu_by_role(pids), cpu_seconds([redis_pid]), redis_activity(redis_pid)
    res = generator(base, mode, conns, seconds, **kw)
    after = cpu_by_role(pids), cpu_seconds([redis_pid]), redis_activity(redis_pid)
    moves = max(1, res["moves"])
    res.update({f"redis_{k}": (after[2][k] - before[2][k]) / moves for k in after[2]})
    spent = {r: after[0][r] - before[0][r] for r in after[0]}
    res.update(rate=res["moves"] / res["duration"], p50=percentile(res["post"], 0.5),
               p99=percentile(res["post"], 0.99), get_p50=percentile(res["get"], 0.5),
               cpu_server=sum(spent.values()) / moves, cpu_redis=(after[1] - before[1]) / moves,
               cpu_web=spent["web"] / moves, cpu_turn=spent["turn"] / moves, cpu_other=spent["other"] / moves,
               cpu_turn_s=spent["turn"], cpu_web_s=spent["web"], generator=generator.__name__)
    return res


# ---- per-game costs, and the games a steady run plays ------------------------------------------

def make_pool(base: str, game: str, seats: int, n: int, conns: int, directory: str, server_pid: int,
              reads: int = 200) -> dict:
    """n new games for a steady run (BENCH_MODE=steady), made before it so that no creation is in
    its window: POST /games, then each game's first `GET /moves` (as the table client asks it,
    `?seat=0`, `&labels=false` under BENCH_LABELS=false), written as one line per game to
    directory/<client>.txt (clients 1..conns, round robin). The server's CPU is read around each
    kind of request, so each is a per-request figure of its own: `create` (POST /games), `moves`
    (GET /moves, a game's first), `game` (GET /games/{id}, what a client reads while it waits
    through a system turn, and after one: a refresh), each in seconds of the server's CPU (every
    process but Redis), with `create_turn`: the turn workers' part of a creation."""
    import json
    from concurrent.futures import ThreadPoolExecutor

    labels = "&labels=false" if os.environ.get("BENCH_LABELS") == "false" else ""
    pids = _tree(server_pid)
    local = threading.local()

    def session() -> requests.Session:
        if not hasattr(local, "s"):
            local.s = requests.Session()
        return local.s

    def create(i: int) -> tuple[str, str]:
        body = session().post(f"{base}/games", json={"type": game, "seats": [{"name": f"p{k}"} for k in range(seats)]},
                              timeout=30).json()
        return body["id"], body["table_token"]

    def first_moves(made: tuple[str, str]) -> str | None:
        gid, token = made
        r = session().get(f"{base}/games/{gid}/moves?seat=0{labels}", headers={"Authorization": f"Bearer {token}"},
                          timeout=30)
        if r.status_code != 200 or not r.json()["moves"]:
            return None  # not a person's turn first: played by the table client as a created game
        page = r.json()
        return f"{gid} {token} " + json.dumps({"seat": page["seat"], "version": page["version"],
                                               "moves": page["moves"]}, separators=(",", ":"))

    def read_game(made: tuple[str, str]) -> int:
        gid, token = made
        return session().get(f"{base}/games/{gid}", headers={"Authorization": f"Bearer {token}"}, timeout=30).status_code

    costs: dict = {}
    with ThreadPoolExecutor(4) as pool:
        def timed(name: str, fn, items):
            before = cpu_by_role(pids)
            out = list(pool.map(fn, items))
            after = cpu_by_role(pids)
            costs[name] = sum(after[r] - before[r] for r in after) / max(1, len(out))
            costs[name + "_turn"] = (after["turn"] - before["turn"]) / max(1, len(out))
            return out

        made = timed("create", create, range(n))
        lines = timed("moves", first_moves, made)
        timed("game", read_game, made[:reads])
    lines = [line for line in lines if line]
    for tid in range(1, conns + 1):
        with open(os.path.join(directory, f"{tid}.txt"), "w") as f:
            f.write("".join(line + "\n" for line in lines[tid - 1::conns]))
    costs["games"] = len(lines)
    return costs


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
    """smoke: the floor's POSTs, the one-request client and the steady run only (with and
    without streams). `games`: several game types, each a row of its own (`<run> <game>
    @<conns>`), all beside the same floor rows (BENCH_GAMES=splendor,setup,smallworld-of-warcraft);
    each with at least its fewest seats (Witches: 3). BENCH_CLIENTS: the clients to run, of
    `game` (two requests a move), `table` (`game 1 req`: one request a move, waiting through
    system turns as a person's client does) and `steady` (the table client's moves only, on games
    made before the run: a move in a game's middle, and the per-game costs measured apart);
    BENCH_SSE: the live streams held open in a row of their own (50; 0: no such row)."""
    from domain import registry

    games = games or tuple(g for g in os.environ.get("BENCH_GAMES", "").split(",") if g) or (game,)
    named = len(games) > 1
    seconds = seconds or (3 if quick else 10)  # wrk counts whole seconds
    rounds = rounds or (1 if quick else 2)
    clients = [c for c in os.environ.get("BENCH_CLIENTS", "table,steady" if smoke else "game,table,steady").split(",") if c]
    sse = int(os.environ.get("BENCH_SSE", sse))
    steady_ok = "steady" in clients and shutil.which("wrk") is not None  # the Python generator plays no pool
    seats_of = {g: max(seats, registry.get(g).min_seats if registry.get(g) else seats) for g in games}
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
                for (mode, label), kind in ((m, g) for m in (("game", "game"), ("table", "game 1 req"))
                                            if m[0] in clients for g in games):
                    n_seats = seats_of[kind]
                    label = f"{label} {kind}" if named else label
                    for c in conns:
                        rows_by_name.setdefault(f"{label} @{c}", []).append(
                            load(base, mode, c, seconds, pid, rpid, game=kind, seats=n_seats))
                        if mode == "table" and steady_ok:
                            steady_row(rows_by_name, base, kind, n_seats, c, seconds, pid, rpid,
                                       f"steady {kind}" if named else "steady", rows_by_name[f"{label} @{c}"][-1])
                    if sse:
                        live = LiveStreams(base, sse)
                        c = conns[-1]
                        try:
                            res = load(base, mode, c, seconds, pid, rpid, game=kind, seats=n_seats)
                            res["sse_open"] = live.open_count()
                        finally:
                            live.close()
                        rows_by_name.setdefault(f"{label} @{c} + {sse} SSE", []).append(res)
                if "table" not in clients and steady_ok:
                    for kind in games:
                        for c in conns:
                            steady_row(rows_by_name, base, kind, seats_of[kind], c, seconds, pid, rpid,
                                       f"steady {kind}" if named else "steady", None)
        if not quick:  # the serving setup: the floor under gunicorn sync workers, 2 x cores
            cmd = server_command("bench.floor_app:create_app()", {**os.environ, "PORT": "0"})
            if "gevent" in cmd:
                for c in conns:
                    with _sync_floor(url, 2 * (os.cpu_count() or 1)) as (base, proc):
                        rows_by_name.setdefault(f"floor sync x{2 * (os.cpu_count() or 1)} @{c}", []).append(
                            load(base, "floor", c, seconds, proc.pid, rpid))
    return report(rows_by_name, conns, seconds, rounds, game, seats, games)


def steady_row(rows_by_name: dict, base: str, kind: str, seats: int, c: int, seconds: float, pid: int, rpid: int,
               label: str, played: dict | None) -> None:
    """The steady run of `kind` at c connections: its games made first (make_pool: as many as the
    as-played run just before started, twice over, and c more; a client that runs out creates
    its own, counted), then the table client's moves on them with nothing but moves in the window."""
    n = min(5000, max(4 * c, 2 * played["games"] + c) if played else 4 * c)
    with tempfile.TemporaryDirectory(prefix="bench-pool-") as directory:
        costs = make_pool(base, kind, seats, n, c, directory, pid)
        res = load(base, "steady", c, seconds, pid, rpid, game=kind, seats=seats, pool=directory)
    res["pool"] = costs
    rows_by_name.setdefault(f"{label} @{c}", []).append(res)


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

    def cpu_floor(name: str, c: int) -> tuple[str, float]:
        """The floor a row's CPU a move is read against: the floor's GET-then-POST loop for the
        two-request `game` client (the issue's row without include=next_moves), else its POSTs."""
        loop = rows_by_name.get(f"floor loop @{c}")
        if name.startswith("game ") and not name.startswith("game 1 req") and loop:
            return "floor loop", med(loop, "cpu_server")
        floor = rows_by_name.get(f"floor @{c}")
        return "floor", med(floor, "cpu_server") if floor else 0.0

    rows, results = [], {}
    for name, runs in rows_by_name.items():
        c = int(name.split("@")[1].split()[0])
        floor = rows_by_name.get(f"floor @{c}")
        f_rate, f_p50, f_p99 = (med(floor, "rate"), med(floor, "p50"), med(floor, "p99")) if floor else (0, 0, 0)
        rate, p50, p99 = med(runs, "rate"), med(runs, "p50"), med(runs, "p99")
        f_name, f_cpu = cpu_floor(name, c)
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
        if f_name != "floor":
            extra.append(f"CPU x {f_name}")
        extra.append("Redis a move: " + ", ".join(f"{med(runs, f'redis_{k}'):.2f} {k}" for k in ("wakeups", "reads", "writes")))
        if name.startswith("game"):
            waits = sum(r.get("waits", 0) for r in runs)
            extra.append(f"{sum(r['games'] for r in runs)} games ({sum(r.get('finished', 0) for r in runs)} played to "
                         f"the end)" + (f", {waits} waits through system turns" if waits else ""))
        if name.startswith("steady"):
            extra.append(f"{sum(r['pooled'] for r in runs)} games made before, {sum(r['games'] for r in runs)} "
                         f"in the window, {sum(r['ends'] for r in runs)} left at a system turn")
        cpu = med(runs, "cpu_server")
        rows.append((name, f"{rate:,.0f}", f"{rate / f_rate:.2f}" if f_rate else "-",
                     f"{p50 * 1000:.1f}", f"{p99 * 1000:.1f}", f"{p99 / f_p99:.2f}" if f_p99 else "-",
                     f"{med(runs, 'get_p50') * 1000:.1f}" if runs[0]["get"] else "-",
                     f"{cpu * 1000:.2f}", f"{cpu / f_cpu:.2f}" if f_cpu else "-",
                     f"{med(runs, 'cpu_redis') * 1000:.3f}", "; ".join(extra)))
        results[name] = {"moves_per_s": rate, "p50_ms": p50 * 1000, "p99_ms": p99 * 1000,
                         "rate_ratio": rate / f_rate if f_rate else None,
                         "p99_ratio": p99 / f_p99 if f_p99 else None,
                         "cpu_server_ms": cpu * 1000, "cpu_redis_ms": med(runs, "cpu_redis") * 1000,
                         **{f"redis_{k}": med(runs, f"redis_{k}") for k in ("wakeups", "reads", "writes")},
                         "cpu_ratio": cpu / f_cpu if f_cpu else None,
                         "cpu_web_ms": med(runs, "cpu_web") * 1000, "cpu_turn_ms": med(runs, "cpu_turn") * 1000,
                         "cpu_other_ms": med(runs, "cpu_other") * 1000,
                         "games": sum(r["games"] for r in runs), "finished": sum(r.get("finished", 0) for r in runs),
                         "waits": sum(r.get("waits", 0) for r in runs), "ends": sum(r.get("ends", 0) for r in runs),
                         "pooled": sum(r.get("pooled", 0) for r in runs), "moves": sum(r["moves"] for r in runs),
                         "wait_s": sum(r.get("waited_ms", 0) for r in runs) / max(1, sum(r.get("waited", 0) for r in runs))
                         / 1000}
    print(f"Moves over HTTP: {', '.join(games) if games else game} with {seats} seats (or a game's fewest), clients "
          f"on one keep-alive connection each, {seconds:g} s per run, median of {rounds} round(s); ratios against "
          f"`floor` at the same connections (CPU of the two-request `game` client: against `floor loop`)")
    print(table(rows, ("run", "moves/s", "x floor", "POST p50 ms", "POST p99 ms", "p99 x floor",
                       "GET p50 ms", "server CPU ms/move", "CPU x floor", "redis CPU ms/move", "notes")))
    results.update(accounts(rows_by_name, conns, games or (game,), med))
    return results


def accounts(rows_by_name, conns, games, med) -> dict:
    """Per game type, where the server's CPU went: the table client as played (waiting through
    system turns by polls) beside the steady run (moves only), by process (web, turn workers,
    the rest), with what was counted in each window; then the per-game costs measured apart
    (make_pool) and the as-played window's web CPU rebuilt from them and its requests' counts."""
    named = len(games) > 1
    split, costs, out = [], [], {}
    for kind in games:
        for c in conns:
            played = rows_by_name.get(f"game 1 req {kind} @{c}" if named else f"game 1 req @{c}")
            steady = rows_by_name.get(f"steady {kind} @{c}" if named else f"steady @{c}")
            floor = rows_by_name.get(f"floor @{c}")
            if not (played or steady) or not floor:
                continue
            f_cpu = med(floor, "cpu_server")
            for what, runs in (("as played", played), ("steady", steady)):
                if not runs:
                    continue
                n = len(runs)
                games_col = (f"{sum(r['games'] for r in runs) / n:.0f} / {sum(r['finished'] for r in runs) / n:.0f}"
                             if what == "as played" else
                             f"{sum(r['pooled'] for r in runs) / n:.0f}+{sum(r['games'] for r in runs) / n:.0f} / -")
                ends, waits = sum(r["ends"] for r in runs) / n, sum(r["waits"] for r in runs) / n
                split.append((kind, f"@{c}", what, f"{med(runs, 'rate'):,.0f}", f"{med(runs, 'cpu_server') * 1000:.2f}",
                              f"{med(runs, 'cpu_server') / f_cpu:.2f}",
                              f"{med(runs, 'cpu_web') * 1000:.2f} / {med(runs, 'cpu_turn') * 1000:.2f} / "
                              f"{med(runs, 'cpu_other') * 1000:.2f}",
                              f"{sum(r['moves'] for r in runs) / n:,.0f}", games_col, f"{ends:.0f}",
                              f"{waits:.0f}" + (f" ({waits / ends:.1f} an end)" if ends and waits else ""),
                              f"{sum(r['waited_ms'] for r in runs) / max(1, sum(r['waited'] for r in runs)) / 1000:.2f}"
                              if what == "as played" and ends else "-"))
            if not steady:
                continue
            pool = [r["pool"] for r in steady]
            create, get_moves, get_game = (percentile([p[k] for p in pool], 0.5) for k in ("create", "moves", "game"))
            s_web = med(steady, "cpu_web") + med(steady, "cpu_other")
            turn_end = percentile([r["cpu_turn_s"] / r["ends"] for r in steady if r["ends"]], 0.5)
            per_end = percentile([r["moves"] / r["ends"] for r in steady if r["ends"]], 0.5)
            entry = {"create_ms": create * 1000, "get_moves_ms": get_moves * 1000, "get_game_ms": get_game * 1000,
                     "steady_ms": s_web * 1000, "steady_ratio": s_web / f_cpu, "turn_per_end_ms": turn_end * 1000,
                     "moves_per_end": per_end}
            # a move with its game's share, the game waited through as the web client does (its
            # stream tells it of the system's move: one refresh, GET /games/{id} and GET /moves)
            if per_end == per_end and turn_end == turn_end:
                whole = s_web + (create + get_moves + turn_end + get_game + get_moves) / per_end
                entry.update(whole_ms=whole * 1000, whole_ratio=whole / f_cpu)
            row = [kind, f"@{c}", f"{create * 1000:.2f}", f"{get_moves * 1000:.2f}", f"{get_game * 1000:.2f}",
                   f"{turn_end * 1000:.2f}", f"{per_end:.0f}", f"{s_web * 1000:.2f} ({s_web / f_cpu:.2f}x)",
                   f"{entry['whole_ms']:.2f} ({entry['whole_ratio']:.2f}x)" if "whole_ms" in entry else "-"]
            if played:
                # the as-played window's web (+ other) CPU, rebuilt: moves at the steady cost, each
                # game created, each GET /moves, each GET /games/{id} (the waits' polls and reads)
                r = sorted(played, key=lambda x: x["cpu_server"])[len(played) // 2]  # the median run
                parts = {"moves": r["moves"] * s_web, "creation": r["games"] * create, "GET /moves": r["gets"] * get_moves,
                         "polls": (r["waits"] + r["status"]) * get_game}
                measured = (r["cpu_web"] + r["cpu_other"]) * max(1, r["moves"])
                modelled = sum(parts.values())
                entry.update(played_web_s=measured, modelled_web_s=modelled,
                             shares={k: v / measured for k, v in parts.items()} if measured else {})
                row.append(f"{measured:.2f} s ~ {modelled:.2f}: " + ", ".join(
                    f"{k} {v / measured:.0%}" for k, v in parts.items()) if measured else "-")
                row.append(f"{r['cpu_turn_s']:.2f} s, {r['ends']} ends")
            else:
                row += ["-", "-"]
            costs.append(tuple(row))
            out[f"accounts {kind} @{c}"] = entry
    if split:
        print("\nThe table client per game type: as played (a wait through each system turn by polls, "
              "GET /games/{id} every BENCH_WAIT_MS) and steady (the moves of games made before the run, "
              "left at their first system turn); CPU x the floor's POST")
        print(table(split, ("game", "conns", "run", "moves/s", "server CPU ms/move", "x floor",
                            "web / turn / other ms/move", "moves", "games started / ended", "system turns met",
                            "waits (polls)", "s a wait (the ended ones)")))
    if costs:
        print("\nPer-game costs (server CPU ms a request, measured apart), a move with its game's share (a "
              "creation, its first GET /moves, the system turn's job and one refresh after it, over the moves "
              "a system turn), and the as-played window's web CPU rebuilt from its counts")
        print(table(costs, ("game", "conns", "POST /games", "GET /moves", "GET /games/{id}", "turn job",
                            "moves a system turn", "steady move (x floor)", "with its game's share (x floor)",
                            "as played: web CPU ~ rebuilt", "as played: turn workers")))
    return out


if __name__ == "__main__":
    import sys

    run("--quick" in sys.argv)
