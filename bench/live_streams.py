"""Live streams at scale (issue 13): N streams spread over 100 active games, held open while the
`game 1 req` clients (wrk, bench/wrk_moves.lua, the table token: one request per move) play at
16 connections. Beside each N, the same load with no stream open (before and after the runs
with streams, the ratio is against their mean).

    python -m bench.live_streams                        # N = 1,000, 5,000, 10,000 (about 4 minutes)
    python -m bench.live_streams --streams 1000 --seconds 10

The 100 watched games are Splendor games played by this script itself (the table token, each
game one move a second, about 100 moves/s in all, in the runs without streams too): each event
reaches N/100 streams. A watched game that ends is replaced by a new one and its watchers move
to it. The watchers are a C program (bench/sse_watchers.c, one epoll loop, driven through
bench/c_watchers.py) when a C compiler is found: like wrk, a client that costs the server's
own cores as little as it can (12-15 µs of CPU per delivery with the asyncio watchers, 6-9 µs
in C, most of it the kernel's: a wake-up and a read per socket), reading in rounds 2 ms apart
(`--batch-us`, see BATCH_US). Without
`cc`, or with BENCH_PY_WATCHERS=1, they are raw sockets on one asyncio loop of this process
(bench/sse_client.py).

Figures per N: moves/s of the wrk clients and its ratio to the runs without streams, POST p50
and p99 (and the p99's ratio); fan-out delay from each event's `at` (when the server appended
it) to its arrival at each stream, p50 and p99, over every delivery during the run; Redis
`connected_clients`; the web workers' RSS per stream (RSS with the streams open less RSS
before any was opened, over N); the server's CPU per move; how late the watchers' own loop ran
(its p99: the part of a fan-out delay that is the client's, on this one machine; the C
watchers' 20 ms tick, or a sleep's overshoot on the asyncio loop); the load average at the end
of each row (the machine is shared). With only the watched games moving: the web workers' CPU,
the watchers' CPU (the C process's plus this process's, which plays the 100 games; with the
asyncio watchers, this process's alone), deliveries/s and the server's CPU per delivery.
"""
from __future__ import annotations

import argparse
import asyncio
import json
import multiprocessing
import os
import random
import sys
import threading
import time

import aiohttp
import redis

from bench import c_watchers
from bench.common import percentile, private_redis, running_server, table
from bench.http_moves import TICK, _redis_pid, _server_pid, _tree, cpu_seconds, cpu_ticks, load
from bench.sse_client import Watcher, raise_open_files_limit

GAMES = 100
# The C watchers read in rounds BATCH_US apart (bench/sse_watchers.c): a watcher asleep in
# epoll_wait costs the server's kernel a wake-up with each write on this one machine, as
# watchers on other machines would not (measured at 10,000 streams: 15.4 µs of the web workers'
# CPU per delivery at 2,000 µs, 18.4 at 0). It adds up to BATCH_US to each fan-out delay.
BATCH_US = 2000
MOVE_EVERY_S = 1.0


def _rss_kib(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                for line in f:
                    if line.startswith("VmRSS:"):
                        total += int(line.split()[1])
        except OSError:
            pass
    return total


def _open_fds(pids: list[int]) -> list[int]:
    """Open files per web worker: its streams (and a few dozen of its own), how evenly the
    kernel shared the connections out."""
    found = []
    for pid in pids:
        try:
            found.append(len(os.listdir(f"/proc/{pid}/fd")))
        except OSError:
            found.append(0)
    return found


def _own_cpu() -> float:
    """CPU seconds of this process: the watched games' players, and the watchers when they are
    the asyncio ones (the move load runs in another process, the C watchers in theirs)."""
    t = os.times()
    return t.user + t.system


def _c_watchers() -> bool:
    """The C watchers, unless there is no C compiler or BENCH_PY_WATCHERS=1 asks for asyncio's."""
    return c_watchers.compiler() is not None and not os.environ.get("BENCH_PY_WATCHERS")


def _live_clients(r) -> int:
    """Redis connections of the live path (its pool `live`, its readers `live-follower`)."""
    return sum(1 for c in r.client_list() if c.get("name", "").startswith("live"))


def _web_workers(server_pid: int) -> list[int]:
    """The gunicorn worker processes of the server (not its master)."""
    found = []
    for pid in _tree(server_pid):
        try:
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                cmd = f.read()
            with open(f"/proc/{pid}/stat") as f:
                ppid = int(f.read().rsplit(")", 1)[1].split()[1])
        except OSError:
            continue
        if b"gunicorn" in cmd and ppid != server_pid:
            found.append(pid)
    return found


class Live:
    """The watched games and their players, on one asyncio loop in a thread, and their watchers:
    the C process (self.c; by_game then holds watcher numbers) or Watchers on that loop."""

    def __init__(self, base: str, batch_us: int = 0):
        self.base = base
        host, port = base.rsplit("//", 1)[1].split(":")
        self.host, self.port = host, int(port)
        self.loop = asyncio.new_event_loop()
        self.thread = threading.Thread(target=self.loop.run_forever, daemon=True)
        self.thread.start()
        self.games: list[dict] = []
        self.watchers: list[Watcher] = []
        self.by_game: dict[int, list[Watcher]] = {}
        self.tasks: list = []
        self.moves = 0
        self.errors = 0
        self.c = c_watchers.CWatchers(self.host, self.port, batch_us) if _c_watchers() else None
        self.call(self._setup())

    def call(self, coro, timeout=600):
        return asyncio.run_coroutine_threadsafe(coro, self.loop).result(timeout)

    async def _setup(self):
        self.stop_all = asyncio.Event()
        self.session = aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=64),
                                             timeout=aiohttp.ClientTimeout(total=30))
        self.games = [await self._new_game() for _ in range(GAMES)]
        self.players = [asyncio.ensure_future(self._play(i)) for i in range(GAMES)]
        self.lag: list[tuple[float, float]] = []
        if self.c is None:  # the C watchers time their own loop
            self.players.append(asyncio.ensure_future(self._probe_lag()))

    async def _probe_lag(self):
        """How late this loop runs what is due (a sleep's overshoot every 20 ms): the part of a
        fan-out delay spent in the watchers' own loop, not in the server."""
        while not self.stop_all.is_set():
            t0 = time.monotonic()
            await asyncio.sleep(0.02)
            self.lag.append((time.time() * 1000, (time.monotonic() - t0 - 0.02) * 1000))

    def lags(self, since_ms: float, until_ms: float) -> list[float]:
        if self.c:
            return self.c.lags(since_ms, until_ms)
        return [lag for at, lag in self.lag if since_ms <= at <= until_ms]

    async def _new_game(self) -> dict:
        async with self.session.post(f"{self.base}/games", json={
                "type": "splendor", "seats": [{"name": "A"}, {"name": "B"}]}) as r:
            created = await r.json()
        auth = {"Authorization": f"Bearer {created['table_token']}"}
        async with self.session.get(f"{self.base}/games/{created['id']}/moves", headers=auth) as r:
            page = await r.json()
        return {"id": created["id"], "auth": auth, "page": page}

    async def _play(self, i: int):
        rng = random.Random(i)
        await asyncio.sleep(rng.random() * MOVE_EVERY_S)
        n = 0
        while not self.stop_all.is_set():
            started = time.monotonic()
            game = self.games[i]
            page = game["page"]
            n += 1
            try:
                async with self.session.post(
                        f"{self.base}/games/{game['id']}/moves?include=next_moves&seat={page['seat']}",
                        json={"expected_version": page["version"], "move": rng.choice(page["moves"])},
                        headers={**game["auth"], "Idempotency-Key": f"{game['id']}-{n}"}) as r:
                    answer = await r.json()
                if r.status != 201:
                    self.errors += 1
                    raise RuntimeError(answer)
                self.moves += 1
                game["page"] = answer["next_moves"]
                if not game["page"] or not game["page"]["moves"]:
                    await self._replace(i)
            except Exception:
                await self._replace(i)
            await asyncio.sleep(max(0.0, MOVE_EVERY_S - (time.monotonic() - started)))

    async def _replace(self, i: int):
        self.games[i] = await self._new_game()
        path = f"/games/{self.games[i]['id']}/stream"
        if self.c:
            for k in self.by_game.get(i, []):
                self.c.move(k, path)  # it drops its connection and follows the new game
            return
        for w in self.by_game.get(i, []):
            w.path, w.last_id, w.ended = path, None, False
            if w.running:
                w.drop()  # its run() reconnects, to the new game
            else:
                self.tasks.append(asyncio.ensure_future(w.run(self.stop_watch)))

    def open(self, n: int) -> float:
        """Opens n streams over the games; returns the seconds it took until each had its state."""
        started = time.monotonic()
        self.call(self._open(n))
        while self.open_now() < n and time.monotonic() - started < 120:
            time.sleep(0.2)
        took = time.monotonic() - started
        print(f"# {self.open_now():,} of {n:,} streams open after {took:.0f} s "
              f"({self.refused()} refused)", file=sys.stderr, flush=True)
        return took

    async def _open(self, n: int, pace: bool = True):
        self.stop_watch = asyncio.Event()
        self.watchers, self.by_game, self.tasks = [], {}, []
        for k in range(n):
            i = k % GAMES
            path = f"/games/{self.games[i]['id']}/stream"
            if self.c:  # on this loop, as _replace: no game is replaced between the two lines
                self.c.open(k, path)
                self.by_game.setdefault(i, []).append(k)
            else:
                w = Watcher(self.host, self.port, path, keep_data=False)
                self.watchers.append(w)
                self.by_game.setdefault(i, []).append(w)
                self.tasks.append(asyncio.ensure_future(w.run(self.stop_watch)))
            if pace and k % 100 == 99:
                await asyncio.sleep(0.125)  # 800/s: within the server's SSE_OPENS_PER_S (2 x 500)

    def open_now(self) -> int:
        if self.c:
            return self.c.status()["open"]
        return sum(1 for w in self.watchers if w.open)

    def delays(self, since_ms: float, until_ms: float) -> list[float]:
        if self.c:
            return self.c.delays(since_ms, until_ms)
        return [delay for w in self.watchers for arrival, delay in w.delays if since_ms <= arrival <= until_ms]

    def refused(self) -> int:
        if self.c:
            return self.c.status()["refused"]
        return sum(1 for w in self.watchers for s in w.statuses if s != 200)

    def c_cpu(self) -> float:
        """CPU seconds of the C watchers' process (0 with the asyncio watchers)."""
        return self.c.cpu_seconds() if self.c else 0.0

    def close_streams(self):
        if self.c:
            self.c.close_all()
            self.by_game = {}
            return

        async def _close():
            self.stop_watch.set()
            for w in self.watchers:
                w.drop()
            for task in self.tasks:
                task.cancel()  # also those still connecting (SYNs the server's backlog dropped)
            await asyncio.gather(*self.tasks, return_exceptions=True)

        self.call(_close())
        self.watchers, self.by_game, self.tasks = [], {}, []

    def close(self):
        async def _close():
            self.stop_all.set()
            for player in self.players:
                player.cancel()
            await asyncio.gather(*self.players, return_exceptions=True)
            await self.session.close()

        try:
            self.call(_close(), timeout=60)
        finally:
            self.loop.call_soon_threadsafe(self.loop.stop)
            self.thread.join(10)
            if self.c:
                self.c.quit()


def _load(*args) -> dict:
    """bench.http_moves.load in a process of its own: without wrk its clients are Python
    threads, which in this process would share one GIL with the thousands of watchers (their
    moves/s and latencies would measure the watchers' loop, not the server)."""
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        return pool.apply(load, args)


def run(streams=(1000, 5000, 10000), seconds: float = 15, conns: int = 16, max_per_process: int = 8000,
        quiet_s: float = 10, batch_us: int = BATCH_US) -> dict:
    """Each N on a server and Redis of its own (a server that carried thousands of streams and
    the games of earlier runs is not the one the next N should meet), between two runs without
    streams on that same server."""
    limit = raise_open_files_limit()
    if limit < max(streams) + 1000:
        raise SystemExit(f"the open-files limit is {limit}: too low for {max(streams)} streams")
    results: dict = {"streams": {}, "baselines": [], "quiet": {}, "quiet0": {}, "rss0": {}, "watched_moves": 0}
    for n in streams:
        _one_server(n, results, seconds, conns, max_per_process, quiet_s, batch_us)
    return report(results, seconds, conns)


def _settle(r, timeout_s: float = 30) -> None:
    """Waits until the turn workers drained what a load left queued (each move of the load's
    games queues a job that finds its turn stale): not the streams' cost, not to be measured
    as theirs."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if not any(r.llen(k) for k in r.scan_iter("rq:queue:*", count=1000)):
            return
        time.sleep(0.5)


def _calm(workers: list[int], level: float, timeout_s: float = 30) -> None:
    """Waits until the web workers' CPU over a second is back near `level` (theirs before any
    load): what a load leaves them to finish (after-append steps, judging the games it stopped)
    is not the streams' cost."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        c0 = cpu_seconds(workers)
        time.sleep(1)
        if cpu_seconds(workers) - c0 <= level * 1.2 + 0.02:
            return


def _one_server(n: int, results: dict, seconds: float, conns: int, max_per_process: int, quiet_s: float,
                batch_us: int) -> None:
    with private_redis() as url:
        rpid = _redis_pid(url)
        r = redis.Redis.from_url(url)
        env = {"SSE_MAX_STREAMS": str(max_per_process), "SSE_MAX_STREAMS_PER_ADDRESS": "0",
               "SSE_KEEPALIVE_S": "15"}
        with running_server(url, **env) as base:
            pid = _server_pid(base)
            workers = _web_workers(pid)
            live = Live(base, batch_us)
            results["watchers"] = (f"C (bench/sse_watchers.c, reading every {batch_us} µs)" if live.c
                                   else "asyncio (bench/sse_client.py)")
            try:
                time.sleep(2)
                results["rss0"][n] = _rss_kib(workers)

                def baseline():
                    res = _load(base, "table", conns, seconds, pid, rpid)
                    res["loadavg"] = os.getloadavg()[0]
                    print(f"# no streams: {res['rate']:.0f} moves/s, POST p99 {res['p99'] * 1000:.0f} ms",
                          file=sys.stderr, flush=True)
                    res.update(clients=r.info("clients")["connected_clients"], live_clients=_live_clients(r))
                    results["baselines"].append(res)
                    _settle(r)

                def quiet(streams_open):
                    """The watched games' moves only (no wrk): the web workers' CPU per second and
                    the fan-out delay on a server that is not saturated."""
                    since, split0 = time.time() * 1000, cpu_ticks(workers)  # (user, system)
                    own0, c0 = _own_cpu(), live.c_cpu()
                    time.sleep(quiet_s)
                    until, split1 = time.time() * 1000, cpu_ticks(workers)
                    user, system = split1[0] - split0[0], split1[1] - split0[1]
                    own1, c1 = _own_cpu(), live.c_cpu()
                    delays = live.delays(since, until) if streams_open else []
                    seconds_ = (until - since) / 1000
                    return {"cpu_per_s": (user + system) / TICK / seconds_, "loadavg": os.getloadavg()[0],
                            # the C process's and this one's (the players; the asyncio watchers)
                            "watchers_cpu_per_s": (c1 - c0 + own1 - own0) / seconds_,
                            "watchers_c_cpu_per_s": (c1 - c0) / seconds_ if live.c else None,
                            "bench_cpu_per_s": (own1 - own0) / seconds_,
                            "kernel_share": system / max(1, user + system),
                            "lags": live.lags(since, until),
                            "deliveries_per_s": len(delays) / (until - since) * 1000, "delays": delays}

                results["quiet0"][n] = quiet(0)
                baseline()
                _calm(workers, results["quiet0"][n]["cpu_per_s"])
                took = live.open(n)
                time.sleep(1)
                results["quiet"][n] = quiet(n)
                since = time.time() * 1000
                res = _load(base, "table", conns, seconds, pid, rpid)
                until = time.time() * 1000
                res.update(loadavg=os.getloadavg()[0], lags=live.lags(since, until), n=n, open_s=took,
                           open_now=live.open_now(), refused=live.refused(),
                           clients=r.info("clients")["connected_clients"], live_clients=_live_clients(r),
                           rss=_rss_kib(workers), fds=_open_fds(workers), delays=live.delays(since, until))
                results["streams"][n] = res
                print(f"# {n:,} streams: {res['rate']:.0f} moves/s, POST p99 {res['p99'] * 1000:.0f} ms, "
                      f"fan-out p50/p99 {percentile(res['delays'], 0.5):.0f}/{percentile(res['delays'], 0.99):.0f} ms, "
                      f"quiet fan-out p50/p99 {percentile(results['quiet'][n]['delays'], 0.5):.0f}/"
                      f"{percentile(results['quiet'][n]['delays'], 0.99):.0f} ms", file=sys.stderr, flush=True)
                _settle(r)
                live.close_streams()
                time.sleep(2)
                baseline()
            finally:
                live.close()
        results["watched_moves"] += live.moves


def _await_open(live: Live, workers: list[int], n: int, timeout_s: float, fds0: list[int]) -> dict:
    """Polls the C watchers until n streams are open (a 200 received) or timeout_s passed: when
    each tenth of them was, the refusals by status, the streams per web worker."""
    started = time.monotonic()
    c0 = cpu_seconds(workers)
    marks: dict[float, float] = {}
    while True:
        status = live.c.status()
        opened = status["open"]
        took = time.monotonic() - started
        for q in (0.5, 0.9, 0.99, 1.0):
            if q not in marks and opened >= q * n:
                marks[q] = took
        # (a watcher whose game ended meanwhile is answered 204 and stops: settled, not open)
        if opened >= n or (took > 1 and not status["connecting"]) or took > timeout_s:
            if 1.0 not in marks and not status["connecting"]:
                marks[1.0] = took
            break
        time.sleep(0.05)
    fds = [f - f0 for f, f0 in zip(_open_fds(workers), fds0, strict=False)]
    return {"n": n, "open": opened, "seconds": marks, "refusals": live.c.refusals(), "fds": fds,
            "cpu_s": cpu_seconds(workers) - c0, "took": took, "loadavg": os.getloadavg()[0]}


def storm(n: int = 5000, timeout_s: float = 60, max_per_process: int = 8000, batch_us: int = BATCH_US,
          env_extra: dict | None = None) -> dict:
    """Reconnect storms on a fresh server with the 100 games moving: n streams opened at once
    (no pacing), then, once all are open, every connection cut at once (each reconnects 50 ms
    later with Last-Event-ID, as an EventSource does). A refused watcher tries again 1 s later
    (as a client honouring Retry-After: 1). Per storm: seconds until half, 90%, 99% and all of
    them had their first frame (a 200), the refusals by status, the streams per web worker."""
    if not _c_watchers():
        raise SystemExit("the storm needs the C watchers (cc)")
    raise_open_files_limit()
    out: dict = {}
    with private_redis() as url:
        env = {"SSE_MAX_STREAMS": str(max_per_process), "SSE_MAX_STREAMS_PER_ADDRESS": "0",
               "SSE_KEEPALIVE_S": "15", **(env_extra or {})}
        with running_server(url, **env) as base:
            workers = _web_workers(_server_pid(base))
            live = Live(base, batch_us)
            try:
                time.sleep(2)
                live.c.retry(1000)
                fds0 = _open_fds(workers)
                live.call(live._open(n, pace=False))
                out["open"] = _await_open(live, workers, n, timeout_s, fds0)
                print(f"# storm: {n:,} opened at once: {_storm_line(out['open'])}", file=sys.stderr, flush=True)
                time.sleep(3)
                live.c.close_all()  # (the counts start again)
                live.c.retry(1000)
                live.call(live._open(n))  # paced, as the rows above: then all cut at once
                _await_open(live, workers, n, timeout_s, fds0)
                time.sleep(2)
                cut = live.c.drop()
                out["reconnect"] = _await_open(live, workers, cut, timeout_s, fds0)
                print(f"# storm: {cut:,} reconnecting at once: {_storm_line(out['reconnect'])}", file=sys.stderr,
                      flush=True)
            finally:
                live.close()
    rows = [(label, f"{r['n']:,}", f"{r['open']:,}",
             *(f"{r['seconds'][q]:.1f}" if q in r["seconds"] else f"> {r['took']:.0f}" for q in (0.5, 0.9, 0.99, 1.0)),
             f"{r['n'] / r['seconds'][1.0] / len(r['fds']):.0f}" if 1.0 in r["seconds"] else "-",
             " ".join(f"{k}: {v:,}" for k, v in sorted(r["refusals"].items())) or "none",
             "/".join(map(str, r["fds"])), f"{_split(r['fds']):.0%}", f"{r['cpu_s']:.1f}", f"{r['loadavg']:.1f}")
            for label, r in (("opened at once", out["open"]), ("reconnecting at once", out.get("reconnect")))
            if r is not None]
    print(f"## reconnect storms, {n:,} streams over {GAMES} moving games, {len(workers)} web workers; "
          f"a refused watcher tries again 1 s later")
    print(table(rows, ("storm", "streams", "open", "50% s", "90% s", "99% s", "all s", "opened/s per worker",
                       "refused (status: count)", "streams per worker", "largest share", "web CPU s", "load avg")))
    return out


def _split(fds: list[int]) -> float:
    """The largest worker's share of the streams."""
    return max(fds) / max(1, sum(fds))


def _storm_line(r: dict) -> str:
    return (f"{r['open']:,} open; all after {r['seconds'].get(1.0, float('nan')):.1f} s; refusals {r['refusals']}; "
            f"per worker {r['fds']}")


def report(results: dict, seconds: float, conns: int) -> dict:
    baselines = results["baselines"]
    rows = []

    def row(label, res, base_rate, base_p99, fanout=("-", "-", "-"), rss="-"):
        clients = f"{res['clients']} ({res['live_clients']} live)"
        rows.append((label, f"{res['rate']:.0f}", f"{res['rate'] / base_rate:.2f}" if base_rate else "-",
                     f"{res['p50'] * 1000:.1f}", f"{res['p99'] * 1000:.1f}",
                     f"{res['p99'] / base_p99:.2f}" if base_p99 else "-", *fanout, clients, rss,
                     f"{res['cpu_server'] * 1000:.2f}", f"{res['loadavg']:.1f}"))

    for i, (n, res) in enumerate(results["streams"].items()):
        around = baselines[2 * i:2 * i + 2]
        row(f"no streams (server {i + 1})", around[0], 0, 0)
        base_rate = sum(b["rate"] for b in around) / len(around)
        base_p99 = sum(b["p99"] for b in around) / len(around)
        delays = res.pop("delays")
        res["fanout_p50"], res["fanout_p99"] = percentile(delays, 0.5), percentile(delays, 0.99)
        res["client_lag_p99"] = percentile(res.pop("lags"), 0.99)
        res["deliveries"] = len(delays)
        res["rss_per_stream_kib"] = (res["rss"] - results["rss0"][n]) / n
        res["moves_ratio"], res["p99_ratio"] = res["rate"] / base_rate, res["p99"] / base_p99
        row(f"{n:,} streams ({res['open_now']:,} open, {res['refused']} refused; fds {'/'.join(map(str, res['fds']))})",
            res, base_rate, base_p99,
            (f"{res['fanout_p50']:.0f}", f"{res['fanout_p99']:.0f}", f"{res['client_lag_p99']:.0f}"),
            f"{res['rss_per_stream_kib']:.1f}")
        row(f"no streams (server {i + 1})", around[1], 0, 0)
    rows2 = []
    quiet = [(0, results["quiet0"][n], results["quiet0"][n]) for n in list(results["quiet0"])[:1]]
    quiet += [(n, results["quiet"][n], results["quiet0"][n]) for n in results["quiet"]]
    for n, q, q0 in quiet:
        delays = q.pop("delays")
        q["fanout_p50"], q["fanout_p99"] = percentile(delays, 0.5), percentile(delays, 0.99)
        q["client_lag_p99"] = percentile(q.pop("lags"), 0.99)
        extra = q["cpu_per_s"] - q0["cpu_per_s"]  # the same server's, before any stream
        q["cpu_us_per_delivery"] = extra / q["deliveries_per_s"] * 1e6 if n and q["deliveries_per_s"] else None
        watchers_cpu = f"{q['watchers_cpu_per_s'] * 100:.1f}%"
        if q["watchers_c_cpu_per_s"] is not None:
            watchers_cpu += f" (C {q['watchers_c_cpu_per_s'] * 100:.1f}%, bench {q['bench_cpu_per_s'] * 100:.1f}%)"
        rows2.append((f"{n:,} streams", f"{q['cpu_per_s'] * 100:.0f}% ({q['kernel_share'] * 100:.0f}% kernel)",
                      watchers_cpu, f"{q['deliveries_per_s']:.0f}",
                      f"{q['cpu_us_per_delivery']:.1f}" if q["cpu_us_per_delivery"] else "-",
                      f"{q['fanout_p50']:.0f}" if n else "-", f"{q['fanout_p99']:.0f}" if n else "-",
                      f"{q['client_lag_p99']:.0f}", f"{q['loadavg']:.1f}"))
    for res in [*baselines, *results["streams"].values()]:
        for key in ("post", "get"):
            res.pop(key, None)
    print(f"## live streams over {GAMES} games (each played at one move a second), `game 1 req` at {conns} "
          f"connections, {seconds:g} s per row; each N on a fresh server and Redis; web workers' RSS before any "
          f"stream {min(results['rss0'].values()) / 1024:.0f}-{max(results['rss0'].values()) / 1024:.0f} MiB; "
          f"ratios against the same server's runs without streams just before and after; load average at the end "
          f"{os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    print(table(rows, ("run", "moves/s", "x no streams", "POST p50 ms", "POST p99 ms", "p99 x", "fan-out p50 ms",
                       "fan-out p99 ms", "watchers' loop lag p99 ms", "Redis clients", "RSS KiB/stream",
                       "server CPU ms/move", "load avg")))
    print(f"\n## the same streams with only the watched games' moves (no wrk), {GAMES} games at one move a second; "
          f"watchers: {results['watchers']} (their CPU includes this process's, which plays the {GAMES} games)")
    print(table(rows2, ("streams", "web workers' CPU", "watchers' CPU", "deliveries/s", "CPU µs per delivery", "fan-out p50 ms",
                        "fan-out p99 ms", "watchers' loop lag p99 ms", "load avg")))
    return results


def main() -> None:
    import signal

    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(143))  # unwinds: servers stopped
    parser = argparse.ArgumentParser(prog="python -m bench.live_streams", description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--streams", default="1000,5000,10000")
    parser.add_argument("--seconds", type=float, default=15)
    parser.add_argument("--conns", type=int, default=16)
    parser.add_argument("--max-per-process", type=int, default=8000,
                        help="SSE_MAX_STREAMS of the server (its two workers do not share streams evenly)")
    parser.add_argument("--batch-us", type=int, default=BATCH_US,
                        help="the C watchers sleep this long after each round of reads (0: they wait in epoll at once)")
    parser.add_argument("--storm", type=int, metavar="N",
                        help="instead: reconnect storms of N streams (opened at once; then all cut at once)")
    parser.add_argument("--json", metavar="PATH")
    args = parser.parse_args()
    if args.storm:
        results = storm(args.storm, max_per_process=args.max_per_process, batch_us=args.batch_us)
        if args.json:
            with open(args.json, "w") as f:
                json.dump(results, f, indent=1, default=str)
        return
    results = run(tuple(int(n) for n in args.streams.split(",")), args.seconds, args.conns, args.max_per_process,
                  batch_us=args.batch_us)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1, default=str)


if __name__ == "__main__":
    main()
