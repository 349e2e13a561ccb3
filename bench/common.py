"""Shared set-up for benchmarks: a private Redis (or BENCH_REDIS_URL), a running server."""
from __future__ import annotations

import os
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


@contextmanager
def private_redis():
    url = os.environ.get("BENCH_REDIS_URL")
    if url:
        yield url
        return
    from events import local_redis

    with tempfile.TemporaryDirectory() as data:
        url, proc = local_redis.start(data, fsync=os.environ.get("BENCH_FSYNC", "always"))
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
    """`python app.py` as the README runs it, against redis_url."""
    port = free_port()
    env = {**os.environ, "REDIS_URL": redis_url, "PORT": str(port), "HOST": "127.0.0.1",
           "RATE_LIMIT": "1000000000", **env_extra}
    proc = subprocess.Popen([sys.executable, "app.py"], cwd=ROOT, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    base = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 60
    while True:
        try:
            if requests.get(f"{base}/health", timeout=2).status_code == 200:
                break
        except requests.RequestException:
            pass
        if time.monotonic() > deadline:
            proc.kill()
            raise RuntimeError("server did not start")
        time.sleep(0.2)
    try:
        yield base
    finally:
        proc.terminate()
        proc.wait(timeout=20)


def table(rows: list[tuple], header: tuple) -> str:
    widths = [max(len(str(r[i])) for r in rows + [header]) for i in range(len(header))]
    line = lambda r: "  ".join(str(c).ljust(w) for c, w in zip(r, widths))  # noqa: E731
    return "\n".join([line(header), line(tuple("-" * w for w in widths))] + [line(r) for r in rows])
