"""Past reads against the same-bytes floor (issue 57): `GET /games/{id}/state?version=N` and the
events pages, live and archived, in-process CPU per request.

    python -m bench.past_reads [--rounds 5] [--game splendor]

A game played with random legal moves (live: stopped at its 60th version; archived: played to
its end, then archived in SQLite) is read as seat 0 the way a replayer steps through it: the
state at every version, and the page of `--limit` events after every version. Three WSGI
callables on one private Redis, called as gunicorn calls them (bench/request_cost.py): the API
with its past answers kept (after), the API keeping none (`past_answers_bytes = 0`: before, the
fold and the encoding done at every read, as main did), and the floor (bench/floor_app.py's
`GET /floor/bytes/<name>`: bare Flask answering the API's own bytes for that read, kept in Redis,
one GET). Every answer of before and after is checked equal to the byte. Rounds interleaved
(floor, before, after), so drifting load falls on all alike; the first round fills the after
app's kept answers (its first reads cost what before's do) and is left out of the figures.
Figures: process CPU (time.process_time) per request, median of the rounds.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import statistics
import subprocess
import tempfile
import time
from contextlib import contextmanager

from bench.common import OPEN_BUDGETS, ROOT, free_port, private_redis, server_command, stop, table
from bench.request_cost import call, environ


def play(api, game: str, stop_at: int | None, seed: int) -> tuple[str, str, int]:
    """A game of two people, random legal moves; its id, seat 0's token and its version."""
    created = json.loads(call(api, environ("POST", "/games", json.dumps(
        {"type": game, "seats": [{"name": "a"}, {"name": "b"}], "seed": seed}).encode()))[1])
    gid, service, rng, k = created["id"], api.extensions["games"], random.Random(seed), 0
    while True:
        g = service.load(gid)
        if g.finished or (stop_at is not None and g.version >= stop_at):
            return gid, created["seats"][0]["token"], g.version
        actor = g.actors()[0]
        k += 1
        service.move(gid, actor, rng.choice(g.definition.legal_moves(g.state, actor)), g.version,
                     idempotency_key=f"k{k}" if actor != "system" else None)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--game", default="splendor")
    parser.add_argument("--limit", type=int, default=20)
    parser.add_argument("--profile", action="store_true", help="cProfile (CPU time) of the after app's reads")
    parser.add_argument("--http", metavar="BEFORE_ROOT", help="over HTTP: the three served as app.py serves the API "
                        "(gunicorn, its flags), server CPU from /proc; before: the code at BEFORE_ROOT (e.g. "
                        "`git archive main | tar -x -C DIR`)")
    args = parser.parse_args()
    with private_redis() as url, tempfile.TemporaryDirectory() as tmp:
        os.environ["REDIS_URL"] = url
        from app import create_app
        from bench.floor_app import create_app as create_floor
        from workers.archiver import archive_game

        config = {"REDIS_URL": url, "RATE_LIMIT": 10 ** 9, "DEFER_AFTER_APPEND": False,
                  "ALLOW_CLIENT_SEEDS": True, "ARCHIVE_URL": f"sqlite:///{tmp}/archive.sqlite3"}
        after, before, floor = create_app(config), create_app(config), create_floor()
        before.extensions["games"].games.past_answers_bytes = 0
        service = after.extensions["games"]
        live = play(after, args.game, 60, 1)
        ended = play(after, args.game, None, 2)
        assert archive_game(service.store, service.games, ended[0]) == "archived"
        import redis

        floor_redis = redis.Redis.from_url(url)
        reads: dict[str, list[tuple[str, str, dict, str]]] = {}  # kind -> (path, query, headers, floor name)
        for name, (gid, token, version) in (("live", live), ("archived", ended)):
            auth = {"Authorization": f"Bearer {token}"}
            reads[f"state?version=N, {name}"] = [
                (f"/games/{gid}/state", f"version={v}", auth, f"{name}-state-{v}") for v in range(2, version)]
            reads[f"events page ({args.limit}), {name}"] = [
                (f"/games/{gid}/events", f"after={v}&limit={args.limit}", auth, f"{name}-events-{v}")
                for v in range(0, version, 2)]
        for kind, rs in reads.items():  # the floor answers the API's bytes; before's are the same
            for path, query, headers, name in rs:
                status, body = call(after, environ("GET", path, headers=headers, query=query))
                assert status == 200, (path, query, body[:200])
                assert call(before, environ("GET", path, headers=headers, query=query)) == (status, body), (path, query)
                floor_redis.set(f"floor:bytes:{name}", body)
        if args.http:
            return over_http(args, config, reads)
        cpu: dict[tuple[str, str], list[float]] = {}
        for round_ in range(args.rounds + 1):
            for kind, rs in reads.items():
                for label, app in (("floor", floor), ("before", before), ("after", after)):
                    start = time.process_time()
                    for path, query, headers, name in rs:
                        if label == "floor":
                            call(floor, environ("GET", f"/floor/bytes/{name}"))
                        else:
                            call(app, environ("GET", path, headers=headers, query=query))
                    if round_:  # the first fills the kept answers
                        cpu.setdefault((kind, label), []).append((time.process_time() - start) / len(rs))
        if args.profile:
            import cProfile
            import pstats

            for kind, rs in reads.items():
                profile = cProfile.Profile(time.process_time)
                profile.enable()
                for path, query, headers, _ in rs:
                    call(after, environ("GET", path, headers=headers, query=query))
                profile.disable()
                print(kind)
                pstats.Stats(profile).sort_stats("cumulative").print_stats(40)
        rows = []
        for kind in reads:
            f, b, a = (statistics.median(cpu[kind, label]) for label in ("floor", "before", "after"))
            # the least of the rounds too: on a loaded machine, the round least disturbed by others
            fm, am = (min(cpu[kind, label]) for label in ("floor", "after"))
            rows.append((kind, len(reads[kind]), f"{f * 1e6:.0f}", f"{b * 1e6:.0f}", f"{a * 1e6:.0f}",
                         f"{b / f:.2f}x", f"{a / f:.2f}x", f"{am / fm:.2f}x"))
        print(f"{args.game}: CPU per read in-process (µs), median of {args.rounds} interleaved rounds, "
              f"load {os.getloadavg()[0]:.1f}")
        print(table(rows, ("read", "reads", "floor", "before", "after", "before / floor", "after / floor",
                           "after / floor (least)")))


@contextmanager
def _served(app_spec: str, cwd: str, env_extra: dict):
    """app_spec served by app.py's own web command (gunicorn, gevent, its flags) from `cwd`."""
    port = free_port()
    env = {**os.environ, **OPEN_BUDGETS, **env_extra, "PORT": str(port), "HOST": "127.0.0.1"}
    proc = subprocess.Popen(server_command(app_spec, env), cwd=cwd, env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        deadline = time.monotonic() + 90
        while True:
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                conn.request("GET", "/health")
                if conn.getresponse().status == 200:
                    break
            except OSError:
                pass
            if time.monotonic() > deadline or proc.poll() is not None:
                raise RuntimeError(f"{app_spec} did not start in {cwd}")
            time.sleep(0.3)
        yield port, proc.pid
    finally:
        stop(proc)


def over_http(args, config: dict, reads: dict) -> None:
    """The same reads over HTTP, one keep-alive connection, against the three servers; each
    server's CPU (its gunicorn processes, from /proc) per read."""
    from bench.http_moves import _tree, cpu_seconds

    env = {"REDIS_URL": config["REDIS_URL"], "ARCHIVE_URL": config["ARCHIVE_URL"], "RATE_LIMIT": "1000000000",
           "ALLOW_CLIENT_SEEDS": "1"}
    import app as app_module

    api_spec = app_module._children(env)["web"][-1]
    with _served("bench.floor_app:create_app()", str(ROOT), env) as floor, \
            _served(api_spec, args.http, env) as before, _served(api_spec, str(ROOT), env) as after:
        servers = {"floor": floor, "before": before, "after": after}
        conns = {label: http.client.HTTPConnection("127.0.0.1", port) for label, (port, _) in servers.items()}

        def get(label: str, path: str) -> bytes:
            try:
                conns[label].request("GET", path, headers=headers_of.get(path, {}))
                response = conns[label].getresponse()
            except (http.client.RemoteDisconnected, ConnectionError):  # its keep-alive timed out meanwhile
                conns[label].close()
                conns[label] = http.client.HTTPConnection("127.0.0.1", servers[label][0])
                conns[label].request("GET", path, headers=headers_of.get(path, {}))
                response = conns[label].getresponse()
            body = response.read()
            assert response.status == 200, (label, path, body[:200])
            return body

        headers_of: dict[str, dict] = {}
        paths: dict[str, list[tuple[str, str]]] = {}
        for kind, rs in reads.items():
            paths[kind] = []
            for path, query, headers, name in rs:
                full = f"{path}?{query}"
                headers_of[full] = headers
                paths[kind].append((full, f"/floor/bytes/{name}"))
                assert get("before", full) == get("after", full) == get("floor", f"/floor/bytes/{name}")
        cpu: dict[tuple[str, str], list[float]] = {}
        for round_ in range(args.rounds + 1):
            for kind, ps in paths.items():
                for label in ("floor", "before", "after"):
                    pids = _tree(servers[label][1])
                    start = cpu_seconds(pids)
                    for _ in range(5):
                        for full, floor_path in ps:
                            get(label, floor_path if label == "floor" else full)
                    if round_:
                        cpu.setdefault((kind, label), []).append((cpu_seconds(pids) - start) / (5 * len(ps)))
        rows = []
        for kind in paths:
            f, b, a = (statistics.median(cpu[kind, label]) for label in ("floor", "before", "after"))
            rows.append((kind, len(paths[kind]), f"{f * 1e6:.0f}", f"{b * 1e6:.0f}", f"{a * 1e6:.0f}",
                         f"{b / f:.2f}x", f"{a / f:.2f}x"))
        print(f"{args.game}: server CPU per read over HTTP (µs, /proc), median of {args.rounds} interleaved rounds, "
              f"load {os.getloadavg()[0]:.1f}")
        print(table(rows, ("read", "reads", "floor", "before", "after", "before / floor", "after / floor")))


if __name__ == "__main__":
    main()
