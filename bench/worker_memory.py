"""A web worker's memory at rest (issue 57), and what the first request of each common kind costs.

    python -m bench.worker_memory [--starts 5] [--before DIR]

Each start serves the API the way `python app.py` does (gunicorn, gevent, 2 workers, its flags:
bench/past_reads.py's `_served`) against a private Redis. On one keep-alive connection (so one
worker) the common requests are made twice each, in order: the first one of a kind in a fresh
worker pays any import deferred to its first use, the second one does not; then 20 more requests
on new connections, so both workers have served. Then each worker's `/proc/<pid>/smaps_rollup`
(RSS, PSS, private dirty). Figures: medians over the starts and both workers. With `--before DIR`
(e.g. `git archive main | tar -x -C DIR`) starts alternate between DIR's code and this tree's.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import statistics
import time
from pathlib import Path

from bench.common import ROOT, private_redis, table
from bench.past_reads import _served


def _workers(master: int) -> list[int]:
    """The gunicorn master's children (its web workers)."""
    return [int(p) for p in os.listdir("/proc") if p.isdigit() and _parent(int(p)) == master]


def _parent(pid: int) -> int | None:
    try:
        return int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
    except (OSError, ValueError):
        return None


def smaps(pid: int) -> dict[str, float]:
    """MB of RSS, PSS and private dirty pages."""
    fields = {}
    for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines()[1:]:
        name, value = line.split(":", 1)
        fields[name] = int(value.split()[0]) / 1024
    return {"rss": fields["Rss"], "pss": fields["Pss"], "private dirty": fields["Private_Dirty"]}


def _request(conn, method: str, path: str, body: dict | None = None, token: str | None = None):
    headers = {"Content-Type": "application/json"} if body is not None else {}
    if token:
        headers["Authorization"] = f"Bearer {token}"
    started = time.perf_counter()
    conn.request(method, path, json.dumps(body) if body is not None else None, headers)
    response = conn.getresponse()
    data = response.read()
    took = time.perf_counter() - started
    assert response.status < 400, (method, path, response.status, data[:300])
    return took, (json.loads(data) if response.getheader("Content-Type", "").startswith("application/json") else None)


def first_requests(port: int) -> dict[str, tuple[float, float]]:
    """kind -> (first, second) wall seconds, all on one connection (one worker)."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    times: dict[str, list[float]] = {}

    def twice(kind: str, method: str, path, body=None, token=None):
        out = None
        for _ in range(2):
            took, out = _request(conn, method, path() if callable(path) else path, body() if callable(body) else body,
                                 token)
            times.setdefault(kind, []).append(took)
        return out

    twice("GET / (lobby page)", "GET", "/")
    twice("GET /game-types", "GET", "/game-types")
    game = twice("POST /games", "POST", "/games", {"type": "splendor", "seats": [{"name": "a"}, {"name": "b"}]})
    gid, token = game["id"], game["seats"][0]["token"]
    twice("GET /games/{id}", "GET", f"/games/{gid}", token=token)
    moves = twice("GET /games/{id}/moves", "GET", f"/games/{gid}/moves", token=token)
    tokens = [s["token"] for s in game["seats"]]
    state = {"version": moves["version"], "seat": 0, "moves": moves}

    def move_body():
        return {"expected_version": state["version"], "move": state["moves"]["moves"][0]}

    for _ in range(2):  # two moves, each by the seat to act
        took, answer = _request(conn, "POST", f"/games/{gid}/moves?include=next_moves", move_body(),
                                tokens[state["seat"]])
        times.setdefault("POST /games/{id}/moves", []).append(took)
        state["version"], state["seat"] = answer["version"], answer["to_act"][0]
        _, state["moves"] = _request(conn, "GET", f"/games/{gid}/moves", token=tokens[state["seat"]])
    twice("GET state?version=N", "GET", f"/games/{gid}/state?version=2", token=token)
    twice("GET /games/{id}/events", "GET", f"/games/{gid}/events?limit=20", token=token)
    twice("GET /games (lobby list)", "GET", "/games")
    twice("GET /play/{id} (page)", "GET", f"/play/{gid}")
    conn.close()
    return {kind: (t[0], t[1]) for kind, t in times.items()}


def at_rest(port: int) -> None:
    """20 requests on new connections (each worker gets some)."""
    for i in range(20):
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        _request(conn, "GET", "/game-types" if i % 2 else "/health")
        conn.close()


def one_start(root: str, url: str) -> tuple[list[dict], dict]:
    with _served("app:create_app()", root, {"REDIS_URL": url, "RATE_LIMIT": "1000000000"}) as (port, master):
        firsts = first_requests(port)
        at_rest(port)
        time.sleep(1)
        return [smaps(pid) for pid in _workers(master)], firsts


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--starts", type=int, default=5)
    parser.add_argument("--before", metavar="DIR", help="alternate starts with the code at DIR")
    args = parser.parse_args()
    roots = {"after": str(ROOT)} if not args.before else {"before": args.before, "after": str(ROOT)}
    memory: dict[str, list[dict]] = {name: [] for name in roots}
    firsts: dict[str, list[dict]] = {name: [] for name in roots}
    with private_redis() as url:
        for _ in range(args.starts):
            for name, root in roots.items():
                workers, first = one_start(root, url)
                memory[name] += workers
                firsts[name].append(first)
    print(f"A web worker at rest (MB, median of {args.starts} starts x 2 workers), load {os.getloadavg()[0]:.1f}")
    print(table([(name, *(f"{statistics.median(m[k] for m in memory[name]):.1f}"
                          for k in ("rss", "pss", "private dirty")),
                  f"{min(m['rss'] for m in memory[name]):.1f}-{max(m['rss'] for m in memory[name]):.1f}")
                 for name in roots], ("code", "RSS", "PSS", "private dirty", "RSS range")))
    print("First and second request of each kind in a fresh worker (wall ms, median of the starts)")
    kinds = list(firsts["after"][0])
    print(table([(kind, *(f"{statistics.median(f[kind][i] for f in firsts[name]) * 1000:.1f}"
                          for name in roots for i in (0, 1))) for kind in kinds],
                ("request", *(f"{name} {which}" for name in roots for which in ("1st", "2nd")))))


if __name__ == "__main__":
    main()
