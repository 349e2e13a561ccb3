"""Shared set-up for benchmarks: a private Redis (or BENCH_REDIS_URL), a running server."""
from __future__ import annotations

import math
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
from contextlib import contextmanager
from pathlib import Path

import requests

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

# The benchmarks measure the server, not its budgets: every app they build in-process opens the
# per-address and per-network budgets, as running_server does (bench.limits_cost measures the
# budgets, bench.flood the storage bounds).
OPEN_BUDGETS = {name: "1000000000" for name in (
    "ADDRESS_READ_LIMIT", "ADDRESS_STREAM_LIMIT", "ADDRESS_CREATE_LIMIT", "ADDRESS_AUTH_FAILURES",
    "NETWORK_READ_LIMIT", "NETWORK_STREAM_LIMIT", "NETWORK_CREATE_LIMIT", "ANONYMOUS_CREATE_LIMIT",
    "PLAYER_CREATE_LIMIT")}
OPEN_BUDGETS["MAX_ANONYMOUS_GAMES"] = "0"  # no cap
OPEN_BUDGETS["MAX_WAITING_GAMES_PER_PLAYER"] = "0"
OPEN_BUDGETS["LOBBY_GAMES_PER_PLAYER"] = "0"
for _budget, _open in OPEN_BUDGETS.items():
    os.environ.setdefault(_budget, _open)


@contextmanager
def private_redis():
    url = os.environ.get("BENCH_REDIS_URL")
    if url:
        yield url
        return
    with local_redis_server(os.environ.get("BENCH_FSYNC", "always")) as url:
        yield url


@contextmanager
def local_redis_server(fsync: str):
    """A Redis of its own in a temporary directory (appendfsync `fsync`), stopped after."""
    from events import local_redis

    with tempfile.TemporaryDirectory() as data:
        url, proc = local_redis.start(data, fsync=fsync)
        try:
            yield url
        finally:
            if proc is not None:
                proc.terminate()
                proc.wait(timeout=10)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@contextmanager
def running_server(redis_url: str, **env_extra):
    """`python app.py` as the README runs it, against redis_url. Client seeds are allowed (the
    benchmarks name a seed for games with people too, so each run plays the same games).
    BENCH_SERVER_URL: a server already running, used as it is (`--smoke` starts one for every
    part: under load a start takes 10-15 s)."""
    if os.environ.get("BENCH_SERVER_URL"):
        yield os.environ["BENCH_SERVER_URL"]
        return
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "HOST": "127.0.0.1",
           "RATE_LIMIT": "1000000000", "ALLOW_CLIENT_SEEDS": "1", **OPEN_BUDGETS, **env_extra}
    log = open(os.environ["BENCH_SERVER_LOG"], "ab") if os.environ.get("BENCH_SERVER_LOG") else subprocess.DEVNULL
    # its own process group: a server slow to stop is killed with all it started
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                            start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}/health", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            stop(proc, 0)
            raise RuntimeError("server did not start")
        time.sleep(0.2)
    try:
        yield base
    finally:
        stop(proc)


def stop(proc: subprocess.Popen, timeout_s: float = 30) -> None:
    """SIGTERM (the server's orderly stop), then, past timeout_s, SIGKILL to its process group
    (a stop once outlasted 20 s after a run had queued thousands of system turns, and the bench
    died there with the figures measured)."""
    proc.terminate()
    try:
        proc.wait(timeout=timeout_s)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.wait()


def table(rows: list[tuple], header: tuple) -> str:
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths))
    return "\n".join([line(header), line(tuple("-" * w for w in widths))] + [line(r) for r in rows])


# ---- helpers shared by the suite (python -m bench) -------------------------------------------

def percentile(values, q: float) -> float:
    """The q-quantile (0..1) by nearest rank; nan for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, int(round(q * (len(ordered) - 1)))))
    return ordered[k]


def wilson(wins: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval (95% by default) of `wins` out of `n` (ties as halves)."""
    if n == 0:
        return 0.0, 1.0
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def configs(definition) -> list[tuple[int, dict]]:
    """The seat counts a game is benchmarked with: each distinct seat count of its test
    configurations with default options (or its minimum seat count)."""
    seen = []
    for n, opts in definition.test_configs or ():
        if not opts and n not in seen:
            seen.append(n)
    if not seen:
        seen = [definition.min_seats]
    return [(n, definition.default_options()) for n in seen]


def random_step(definition, state, rng, version_rng=None):
    """One random action: (actor, move, events) with legal moves listed and one picked."""
    actor = definition.actors(state)[0]
    move = rng.choice(definition.legal_moves(state, actor))
    return actor, move, definition.decide(state, actor, move, version_rng or rng)


def random_history(definition, n_seats: int, options: dict, seed: int, limit: int = 10 ** 6):
    """A random playout's events (as stored: JSON round trip) and its final state."""
    import json
    import random

    from domain.play import fold

    rng = random.Random(seed)
    events = definition.setup(options, n_seats, random.Random(seed))
    state = fold(definition, events)
    while definition.actors(state) and len(events) < limit:
        _, _, new = random_step(definition, state, rng)
        events += new
        state = fold(definition, new, state)
    return json.loads(json.dumps(events)), state


def grow_game(service, game_id: str, target: int, seed: int = 0, chunk: int = 500) -> int:
    """Appends random legal moves to a stored game, decided by its own engine on its own state,
    until it has `target` events or ends; returns the version reached. Fast: in-process decisions,
    one atomic append per chunk of events."""
    import random

    from domain.play import rng_for
    from events.store import NewEvent

    game = service.load(game_id)
    d, state, version = game.definition, game.state, game.version
    rng = random.Random(seed)
    batch: list = []
    while version + len(batch) < target and d.actors(state):
        at = version + len(batch)
        actor, _, new = random_step(d, state, rng, rng_for(game.seed, at, str(actor_of(d, state))))
        for e in new:
            state = d.evolve(state, e)
            batch.append(NewEvent(e["type"], e, actor))
        if len(batch) >= chunk:
            service.store.append(game_id, version, batch)
            version += len(batch)
            batch = []
    if batch:
        service.store.append(game_id, version, batch)
        version += len(batch)
    service.forget(game_id)
    return version


def actor_of(definition, state):
    return definition.actors(state)[0]


def server_command(app_spec: str, env: dict) -> list[str]:
    """The web command `python app.py` runs (same worker class, counts, flags), for another app."""
    sys.path.insert(0, str(ROOT))
    import app as app_module

    cmd = list(app_module._children(env)["web"])
    cmd[-1] = app_spec
    return cmd


@contextmanager
def running_wsgi(app_spec: str, env_extra: dict | None = None, health: str = "/health"):
    """Serves app_spec the way `python app.py` serves the API (gunicorn, same flags)."""
    port = free_port()
    env = {**os.environ, "PORT": str(port), "HOST": "127.0.0.1", **(env_extra or {})}
    proc = subprocess.Popen(server_command(app_spec, env), cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}{health}", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            pass
        if time.monotonic() > deadline or proc.poll() is not None:
            stop(proc, 0)
            raise RuntimeError(f"{app_spec} did not start")
        time.sleep(0.2)
    try:
        yield base, proc
    finally:
        stop(proc)


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f}"


def ratio(value: float, floor: float) -> str:
    if not floor or floor != floor or value != value:
        return "-"
    return f"{value / floor:.2f}"


def hosted_games() -> list:
    """The games the server hosts (every game in domain.registry), without the bench's own."""
    from domain import registry

    return [g for g in registry.all_games() if not g.name.startswith("bench-")]
