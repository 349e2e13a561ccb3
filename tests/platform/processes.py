"""Running `python app.py` as a user would, and watching its process tree from /proc."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import requests

from tests.conftest import ROOT, _free_port

# What a user's shell would not have: the tests' own Redis and prefixes must not leak in.
_NOT_INHERITED = ("REDIS_URL", "TEST_REDIS_URL", "KEY_PREFIX", "TURN_QUEUE", "PYTHONPATH", "VIRTUAL_ENV",
                  "PROMETHEUS_MULTIPROC_DIR", "LOG_FORMAT", "ACCESS_LOG", "EXTRA_GAME_MODULES", "PORT", "HOST",
                  "DATA_DIR", "PROCESS_ROLE", "ARCHIVE_URL")


def clean_env(**extra) -> dict:
    env = {k: v for k, v in os.environ.items() if k not in _NOT_INHERITED}
    env.update({k: str(v) for k, v in extra.items()})
    return env


def descendants(pid: int) -> set[int]:
    """Every living process below `pid` (children, grandchildren, ...)."""
    parents: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        fields = stat.rsplit(")", 1)[1].split()
        if fields[0] == "Z":
            continue
        parents.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = set(), [pid]
    while todo:
        for child in parents.get(todo.pop(), []):
            if child not in found:
                found.add(child)
                todo.append(child)
    return found


def alive(pid: int) -> bool:
    try:
        stat = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return False
    return stat.rsplit(")", 1)[1].split()[0] != "Z"


class AppProcess:
    """`<python> app.py` in a clean environment; its output is kept in a file."""

    def __init__(self, tmp: Path, python: str = sys.executable, **env):
        self.port = int(env.pop("PORT", _free_port()))
        self.base = f"http://127.0.0.1:{self.port}"
        self.log_path = tmp / f"app-{self.port}-{time.monotonic_ns()}.log"
        env.setdefault("DATA_DIR", tmp / f"data-{self.port}")
        # One web process and one turn worker, and no webhook or analysis worker unless the test
        # asks for them (WEBHOOK_WORKERS=1, ANALYSIS_WORKERS=1): each is one more process that
        # imports the whole project at every start (about 2 CPU-s each on this host), and only
        # the tests that look at those roles need them (issue 48).
        env = {"TURN_WORKERS": 1, "WEB_WORKERS": 1, "WEBHOOK_WORKERS": 0, "ANALYSIS_WORKERS": 0, **env}
        self.env = clean_env(PORT=self.port, HOST="127.0.0.1", **env)
        self.python = python
        self.proc: subprocess.Popen | None = None

    def start(self) -> AppProcess:
        self.log = open(self.log_path, "wb")
        self.proc = subprocess.Popen([self.python, "app.py"], cwd=ROOT, env=self.env, stdout=self.log,
                                     stderr=subprocess.STDOUT)
        return self

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def healthy(self) -> bool:
        try:
            return requests.get(f"{self.base}/health", timeout=1).status_code == 200
        except requests.RequestException:
            return False

    def wait_healthy(self, timeout_s: float) -> float:
        started = time.monotonic()
        while time.monotonic() - started < timeout_s:
            if self.proc.poll() is not None:
                raise AssertionError(f"app.py exited with {self.proc.returncode}:\n{self.output()[-3000:]}")
            if self.healthy():
                return time.monotonic() - started
            time.sleep(0.2)
        raise AssertionError(f"no healthy answer within {timeout_s} s:\n{self.output()[-3000:]}")

    def wait_exit(self, timeout_s: float) -> int:
        try:
            return self.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            raise AssertionError(f"app.py still running after {timeout_s} s:\n{self.output()[-3000:]}") from None

    def signal(self, signum: int) -> None:
        self.proc.send_signal(signum)

    def close(self) -> None:
        """Leaves nothing running, whatever the test did."""
        if self.proc is None:
            return
        tree = descendants(self.proc.pid)
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for pid in tree:
            if alive(pid):
                try:
                    os.kill(pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        self.log.close()


def wait_gone(pids: set[int], timeout_s: float) -> set[int]:
    """The pids still alive after waiting up to timeout_s for all to exit."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        left = {p for p in pids if alive(p)}
        if not left:
            return set()
        time.sleep(0.1)
    return {p for p in pids if alive(p)}
