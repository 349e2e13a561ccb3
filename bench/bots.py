"""Bots: from the append of a move that hands the turn to a bot (or to the system) to the append of
that bot's move, with the real RQ workers of `python app.py`; measured from the events' own `at`
fields (milliseconds, stamped at append), median and p99, per game and bot level.

    python -m bench --only bots [--quick]

Each game seats one person (played by this bench over HTTP: legal moves read from the API, one
picked at random, sent with its expected version) and bots of one level in the other seats. Only
automatic moves count: a person's think time never does. The floor: the same hop with nothing
in it, i.e. a Lua append, an RQ enqueue, and an RQ SimpleWorker job doing one Lua append
(bench/floor_jobs.py), timed the same way from `at` to `at`.
"""
from __future__ import annotations

import random
import subprocess
import sys
import time

import redis
import requests
from rq import Queue

from bench.common import ROOT, configs, hosted_games, percentile, private_redis, running_server, table
from events.redis_store import decode_entry, encode_entries
from events.scripts import APPEND
from events.store import NewEvent

# A person's think time between seeing the bot's move and sending theirs. It matters: after a job
# an RQ worker spends tens of ms on its own bookkeeping writes (each fsynced under
# `appendfsync always`), and a turn enqueued meanwhile waits for it (see bench/README.md).
THINK_S = 0.05


class Floor:
    """The floor hop, on its own queue and SimpleWorker: a Lua append (the person's move), an RQ
    enqueue, and a job doing one Lua append; timed from `at` to `at` like the real hops."""

    def __init__(self, url: str):
        from bench import floor_jobs

        self.conn = redis.Redis.from_url(url)
        self.worker = subprocess.Popen([sys.executable, "-m", "bench.floor_jobs", url], cwd=ROOT,
                                       stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        self.queue = Queue(floor_jobs.QUEUE, connection=self.conn)
        self.key = "bench:floor:{bots}:events"
        self.conn.delete(self.key)
        self.conn.xadd(self.key, {"e": encode_entries([NewEvent("created", {}, None)], 0)[0]}, id="0-1")
        self.script = self.conn.register_script(APPEND)
        self.version = 1

    def samples(self, n: int) -> list[float]:
        lat = []
        deadline = time.monotonic() + 30
        while len(lat) < n and time.monotonic() < deadline:
            self.script(keys=[self.key, self.key + ":idem:-"],
                        args=[self.version, 0, "", "", 0, 1,
                              *encode_entries([NewEvent("move", {}, 0)], int(time.time() * 1000))])
            self.version += 1
            self.queue.enqueue_call("bench.floor_jobs.append", args=(self.key, self.version), result_ttl=0)
            if not self.conn.xread({self.key: f"0-{self.version}"}, block=5000):
                continue
            self.version += 1
            entries = self.conn.xrange(self.key, f"0-{self.version - 1}", f"0-{self.version}")
            first, second = (decode_entry(i, f) for i, f in entries)
            lat.append((second.at - first.at) / 1000)
            time.sleep(THINK_S)
        return lat

    def close(self):
        self.worker.terminate()
        self.worker.wait(timeout=10)


def play(base: str, url: str, game: str, seats: int, options: dict, level: str, seconds: float) -> dict:
    """Plays seat 0 against bots, game after game, until time is up; returns the automatic hops'
    latencies (from the streams of every game played)."""
    from events.keys import Keys

    conn = redis.Redis.from_url(url)
    http = requests.Session()
    rng = random.Random(1)
    deadline = time.monotonic() + seconds
    played = []
    n = 0
    while time.monotonic() < deadline:
        body = {"type": game, "seats": [{"name": "me"}] + [{"bot": level}] * (seats - 1), "options": options,
                "seed": len(played) + 1}
        created = http.post(f"{base}/games", json=body).json()
        gid, token = created["id"], created["seats"][0]["token"]
        auth = {"Authorization": f"Bearer {token}"}
        key = Keys("").events(gid)
        played.append(key)
        while time.monotonic() < deadline:
            page = http.get(f"{base}/games/{gid}/moves", headers=auth).json()
            if page["moves"]:
                n += 1
                r = http.post(f"{base}/games/{gid}/moves", headers={**auth, "Idempotency-Key": str(n)},
                              json={"expected_version": page["version"], "move": rng.choice(page["moves"])})
                if r.status_code not in (201, 409):
                    raise RuntimeError(f"move refused: {r.status_code} {r.text}")
                time.sleep(THINK_S)
                continue
            if http.get(f"{base}/games/{gid}", headers=auth).json()["status"] == "finished":
                break
            conn.xread({key: f"0-{page['version']}"}, block=1000)  # wait for the bots
    time.sleep(0.3)
    hops = {"after a person": [], "after a bot": [], "system": []}
    events_n = 0
    for key in played:
        events = [(e.at, e.actor) for e in (decode_entry(i, f) for i, f in conn.xrange(key))]
        events_n += len(events)
        for i in range(1, len(events)):
            at, actor = events[i]
            prev_at, prev_actor = events[i - 1]
            if prev_actor is None or (actor == prev_actor and at == prev_at):
                continue  # setup, or the same command's next event
            if actor == "system":
                hops["system"].append((at - prev_at) / 1000)
            elif isinstance(actor, int) and actor != 0:
                hops["after a person" if prev_actor == 0 else "after a bot"].append((at - prev_at) / 1000)
    return {"hops": hops, "events": events_n, "games": len(played)}


def concurrent_bot_games(base: str, url: str, game, k: int, deadline_s: float = 30) -> tuple[list, float, int]:
    """k bot-only games started at once: every hop is automatic, and the RQ workers are busy."""
    from events.keys import Keys

    conn = redis.Redis.from_url(url)
    levels = list(game.bots)
    seats = [{"bot": levels[i % len(levels)]} for i in range(game.min_seats)]
    started = time.monotonic()
    ids = [requests.post(f"{base}/games", json={"type": game.name, "seats": seats, "seed": 100 + i}).json()["id"]
           for i in range(k)]
    pending = set(ids)
    while pending and time.monotonic() - started < deadline_s:
        for gid in list(pending):
            if requests.get(f"{base}/games/{gid}").json()["status"] == "finished":
                pending.discard(gid)
        time.sleep(0.5)
    took = time.monotonic() - started
    hops = []
    for gid in ids:
        events = [(e.at, e.actor) for e in (decode_entry(i, f) for i, f in conn.xrange(Keys("").events(gid)))]
        for i in range(1, len(events)):
            (at, actor), (prev_at, prev_actor) = events[i], events[i - 1]
            if prev_actor is not None and not (actor == prev_actor and at == prev_at):
                hops.append((at - prev_at) / 1000)
    return hops, took, len(pending)


def run(quick: bool = False, smoke: bool = False) -> dict:
    """smoke: one game, one bot level, a second of play (does the part still run?)."""
    seconds = 0.5 if smoke else 2.5 if quick else 10
    per_row = 3 if smoke else 12 if quick else 50
    results, rows, pooled = {}, [], []
    with private_redis() as url:
        floor = Floor(url)
        try:
            with running_server(url) as base:
                for d in hosted_games()[:1] if smoke else hosted_games():
                    n, options = configs(d)[0]
                    for level in list(d.bots)[:1] if smoke else d.bots:
                        near = floor.samples(per_row)  # the floor, measured beside each row
                        pooled += near
                        out = play(base, url, d.name, n, {}, level, seconds)
                        hops = out["hops"]
                        every = hops["after a person"] + hops["after a bot"] + hops["system"]
                        if not every:
                            continue
                        p50, p99 = percentile(every, 0.5), percentile(every, 0.99)
                        f50 = percentile(near, 0.5)
                        person = hops["after a person"]
                        rows.append((f"{d.name} {n} seats", level, len(every), f"{p50 * 1000:.0f}",
                                     f"{p99 * 1000:.0f}", f"{f50 * 1000:.0f}", f"{p50 / f50:.2f}" if f50 else "-",
                                     f"{percentile(person, 0.5) * 1000:.0f} ({len(person)})" if person else "-",
                                     f"{percentile(hops['system'], 0.5) * 1000:.0f} ({len(hops['system'])})"
                                     if hops["system"] else "-"))
                        results[f"{d.name}/{level}"] = {"p50_ms": p50 * 1000, "p99_ms": p99 * 1000,
                                                        "n": len(every), "floor_p50_ms": f50 * 1000}
                d = hosted_games()[0]
                k = 2 if smoke else 8 if quick else 20
                near = floor.samples(per_row)
                hops, took, unfinished = concurrent_bot_games(base, url, d, k, 20 if quick else 60)
                if hops:
                    p50, p99, f50 = percentile(hops, 0.5), percentile(hops, 0.99), percentile(near, 0.5)
                    rows.append((f"{d.name}: {k} bot-only games at once", "+".join(d.bots), len(hops),
                                 f"{p50 * 1000:.0f}", f"{p99 * 1000:.0f}", f"{f50 * 1000:.0f}",
                                 f"{p50 / f50:.2f}" if f50 else "-",
                                 f"{len(hops) / took:.0f} moves/s", f"{unfinished} unfinished" if unfinished else "-"))
                    results[f"{d.name}/concurrent{k}"] = {"p50_ms": p50 * 1000, "p99_ms": p99 * 1000,
                                                          "moves_per_s": len(hops) / took}
        finally:
            floor.close()
    f50, f99 = percentile(pooled, 0.5), percentile(pooled, 0.99)
    rows.insert(0, ("floor (Lua append, RQ enqueue, job: Lua append)", "-", len(pooled), f"{f50 * 1000:.0f}",
                    f"{f99 * 1000:.0f}", f"{f50 * 1000:.0f}", "1.00", "-", "-"))
    results["floor"] = {"p50_ms": f50 * 1000, "p99_ms": f99 * 1000}
    print(f"Bots: append of the move that hands over -> append of the bot's (or system's) move, from the "
          f"events' `at` (ms resolution), real RQ workers, {seconds:g} s of play per row, {per_row} floor hops measured "
          f"beside each row; think time {THINK_S * 1000:.0f} ms; target: median <= 50 ms")
    print(table(rows, ("game", "bot", "hops", "median ms", "p99 ms", "floor median ms", "median x floor",
                       "after a person: median (n) | throughput", "system: median (n)")))
    return results


if __name__ == "__main__":
    run("--quick" in sys.argv)
