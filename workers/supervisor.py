"""The process supervisor behind `python app.py`: starts the server's processes, relays what
they print, restarts the ones that die, and stops them all when it stops.

What an operator can count on:
- Refusals are immediate and say what to do: a port already taken, or a data directory whose
  embedded Redis belongs to another running instance (the directory is locked), exits with
  status 2 and one line.
- A child that crashes on its own is restarted after a back-off (0.5 s doubling to 30 s; back to
  0.5 s once it has run for a minute). A child that crashes 5 times within the first minute will
  not start (a missing module, a bad setting): the supervisor logs its last lines once, stops the
  others and exits with status 1, instead of restarting it forever.
- The victims of an outage are not punished: a child that exits while Redis does not answer
  waits for Redis (polled every 0.25 s) and is restarted as soon as it answers; a child killed
  from outside (SIGKILL, SIGTERM... from anyone but the supervisor, which signals only when it
  stops) is restarted after 0.5 s. Neither grows the back-off nor counts as a crash.
- A traceback identical to the one a child printed last is not printed again, only named.
- "serving on ..." is logged once the API answers `/health`, not before.
- Children die with the supervisor, even when it is killed with SIGKILL: each asks the kernel
  for SIGTERM when its parent dies (PR_SET_PDEATHSIG), so nothing is left holding the port.
"""
from __future__ import annotations

import collections
import ctypes
import errno
import fcntl
import logging
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

import orjson

from api import logs

log = logging.getLogger("supervisor")

PR_SET_PDEATHSIG = 1
STARTUP_WINDOW_S = 60
STARTUP_CRASHES = 5
TAIL_LINES = 30
DEPENDENCY_POLL_S = 0.25
# Signals a process raises on itself when it is broken: a crash of its own, not a kill from outside.
CRASH_SIGNALS = frozenset({signal.SIGSEGV, signal.SIGABRT, signal.SIGBUS, signal.SIGFPE, signal.SIGILL})


class Refused(Exception):
    """The server cannot start as configured; the message says why and what to do."""


# ---- restart policy (pure) --------------------------------------------------------------------

@dataclass
class Backoff:
    """Delay before restarting a child: doubles from `first` up to `most`, and starts over
    once the child has run for `reset_after` seconds."""

    first: float = 0.5
    most: float = 30.0
    reset_after: float = 60.0
    current: float = field(default=0.0)

    def after_exit(self, ran_for_s: float) -> float:
        if self.current == 0.0 or ran_for_s >= self.reset_after:
            self.current = self.first
        else:
            self.current = min(self.most, self.current * 2)
        return self.current


def killed_from_outside(returncode: int) -> bool:
    """Whether an exit status says the child died of a signal it did not raise on itself."""
    return returncode < 0 and -returncode not in CRASH_SIGNALS


def gives_up(crash_times: list[float], started_at: float) -> bool:
    """Whether a child crashed STARTUP_CRASHES times within the start-up window."""
    early = [t for t in crash_times if t - started_at <= STARTUP_WINDOW_S]
    return len(early) >= STARTUP_CRASHES


# ---- dying with the parent ---------------------------------------------------------------------

def _die_with_parent(parent_pid: int) -> Callable[[], None]:
    def preexec() -> None:
        os.setpgrp()  # its own process group: a Ctrl-C reaches the supervisor, which stops it in order
        try:
            libc = ctypes.CDLL("libc.so.6", use_errno=True)
            libc.prctl(PR_SET_PDEATHSIG, signal.SIGTERM, 0, 0, 0)
        except OSError:
            pass  # not Linux: children then outlive a SIGKILLed supervisor
        if os.getppid() != parent_pid:  # the parent died before prctl took effect
            os._exit(1)

    return preexec


# ---- relaying a child's output -----------------------------------------------------------------

class Relay:
    """Copies a child's output to the supervisor's stderr, line by line, keeping its last lines.
    A traceback identical to the child's previous one is replaced by one line naming it. With
    LOG_FORMAT=json, lines that are not JSON (a traceback Python printed before logging was set
    up) are wrapped into JSON objects, a traceback into one."""

    write_lock = threading.Lock()

    def __init__(self, name: str):
        self.name = name
        self.tail: collections.deque[str] = collections.deque(maxlen=TAIL_LINES)
        self.last_error: str | None = None
        self.json = logs.json_wanted()

    def follow(self, pipe) -> threading.Thread:
        thread = threading.Thread(target=self._pump, args=(pipe,), name=f"relay-{self.name}", daemon=True)
        thread.start()
        return thread

    def _pump(self, pipe) -> None:
        block: list[str] | None = None
        for raw in iter(pipe.readline, b""):
            line = raw.decode(errors="replace").rstrip("\n")
            self.tail.append(line)
            if block is not None:
                block.append(line)
                if line and not line[0].isspace():  # the exception's own line ends the traceback
                    self._traceback(block)
                    block = None
            elif line.startswith("Traceback (most recent call last):"):
                block = [line]
            else:
                self._line(line)
        if block:
            self._traceback(block)
        pipe.close()

    def _traceback(self, block: list[str]) -> None:
        text = "\n".join(block)
        if text == self.last_error:
            self._say(f"{self.name}: the same error as before (traceback not repeated)", "error")
            return
        self.last_error = text
        if self.json:
            self._write(self._wrapped(block[-1], "error", error=text))
        else:  # printed by Python itself, not a logger: say whose it is
            self._write("\n".join(f"{self.name} | {line}" for line in block))

    def _line(self, line: str) -> None:
        if self.json and line.startswith("{"):
            try:
                record = orjson.loads(line)
            except orjson.JSONDecodeError:
                record = None
            if isinstance(record, dict):
                error = record.get("error")
                if error is not None:
                    if error == self.last_error:
                        record["error"] = "the same error as before (not repeated)"
                        line = orjson.dumps(record).decode()
                    self.last_error = error
                self._write(line)
                return
        self._write(self._wrapped(line, "info") if self.json else line)

    def _wrapped(self, message: str, level: str, **extra) -> str:
        return orjson.dumps({"time": _utc_now(), "level": level, "role": self.name, "message": message,
                             **extra}).decode()

    def _say(self, message: str, level: str) -> None:
        self._write(self._wrapped(message, level) if self.json else message)

    @classmethod
    def _write(cls, text: str) -> None:
        with cls.write_lock:
            sys.stderr.write(text + "\n")
            sys.stderr.flush()


def _utc_now() -> str:
    now = time.time()
    return time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(now)) + f".{int(now % 1 * 1000):03d}Z"


# ---- children ----------------------------------------------------------------------------------

class Child:
    """One supervised process: its command, its restarts, its output."""

    def __init__(self, name: str, cmd: list[str], env: dict, cwd: Path, last: bool = False):
        self.name, self.cmd, self.cwd = name, cmd, cwd
        self.last = last  # Redis: stopped after the others, which depend on it
        self.awaits_redis = False  # exited while Redis did not answer: restarted once it does
        self.env = {**env, "PROCESS_ROLE": name}
        self.proc: subprocess.Popen | None = None
        self.started = 0.0
        self.restart_at: float | None = None
        self.backoff = Backoff()
        self.crashes: list[float] = []
        self.relay = Relay(name)

    def start(self) -> subprocess.Popen[bytes]:
        proc = self.proc = subprocess.Popen(self.cmd, env=self.env, cwd=self.cwd, stdin=subprocess.DEVNULL,
                                     stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                                     preexec_fn=_die_with_parent(os.getpid()))
        self.relay.follow(self.proc.stdout)
        self.started = time.monotonic()
        self.restart_at = None
        self.awaits_redis = False
        return proc

    @property
    def returncode(self) -> int | None:
        """The process's exit status; None before its start and while it runs."""
        return None if self.proc is None else self.proc.returncode

    def exited(self) -> bool:
        return (self.proc is not None and self.proc.poll() is not None and self.restart_at is None
                and not self.awaits_redis)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()

    def wait(self, timeout_s: float) -> None:
        if self.proc is None:
            return
        try:
            self.proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait(timeout=5)


# ---- refusals ----------------------------------------------------------------------------------

def check_port(host: str, port: str) -> None:
    """Refuses a port another process listens on (gunicorn would retry it for seconds, then
    the supervisor would restart it forever)."""
    try:
        number = int(port)
        if not 0 < number < 65536:
            raise ValueError
    except ValueError:
        raise Refused(f"PORT={port!r} is not a port number (1-65535).") from None
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as gunicorn binds it
        try:
            s.bind((host, number))
        except OSError as e:
            if e.errno == errno.EADDRINUSE:
                raise Refused(f"Port {number} is already in use on {host}: stop what holds it, "
                              f"or choose another port with PORT=<n> (e.g. PORT={number + 1}).") from None
            raise Refused(f"Cannot listen on {host}:{number}: {e.strerror}. Set HOST and PORT.") from None


def lock_data_dir(data_dir: Path):
    """Holds an exclusive lock on the data directory for the life of this process; a second
    instance on the same directory is refused (it would share the first one's Redis)."""
    data_dir.mkdir(parents=True, exist_ok=True)
    handle = open(data_dir / "server.lock", "a+")
    try:
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        handle.close()
        raise Refused(f"Another server is running with DATA_DIR={data_dir}: stop it, or give this one its "
                      f"own DATA_DIR (or point REDIS_URL at a Redis of your own).") from None
    handle.seek(0)
    handle.truncate()
    handle.write(f"{os.getpid()}\n")
    handle.flush()
    return handle


def health_url(host: str, port: str) -> str:
    probe = {"0.0.0.0": "127.0.0.1", "": "127.0.0.1", "::": "[::1]"}.get(host, f"[{host}]" if ":" in host else host)
    return f"http://{probe}:{port}/health"


def answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url, timeout=1) as response:
            return response.status == 200
    except OSError:
        return False


# ---- the loop ----------------------------------------------------------------------------------

def redis_probe(env: Mapping[str, str]) -> Callable[[], bool]:
    """Whether the Redis the children need answers PING: the queue's and the store's (any node
    of a cluster: one node down does not stop the others' children). Short timeouts: the
    supervisor's loop waits for it."""
    clients = None

    def answers() -> bool:
        nonlocal clients
        import redis
        from redis.cluster import RedisCluster
        from redis.exceptions import RedisClusterException

        from events.connection import Connections

        try:
            if clients is None:
                clients = Connections.from_env(env, socket_connect_timeout=0.5, socket_timeout=0.5)
            clients.queue.ping()
            if clients.clustered:
                clients.store.ping(target_nodes=RedisCluster.RANDOM)
            elif clients.store is not clients.queue:
                clients.store.ping()
            return True
        except (redis.RedisError, RedisClusterException, OSError):
            clients = None  # a cluster's client may hold a stale view of its nodes: made anew
            return False

    return answers


class Supervisor:
    def __init__(self, children: list[Child], health: str, public_url: str,
                 redis_answers: Callable[[], bool] = lambda: True):
        self.children = children
        self.health = health
        self.public_url = public_url
        self.redis_answers = redis_answers
        self.started = time.monotonic()
        self.stopping = False
        self.announced = False
        self.next_redis_probe = 0.0

    def request_stop(self, signum=None, frame=None) -> None:
        self.stopping = True

    def run(self) -> int:
        for child in self.children:
            if child.proc is None:
                child.start()
        next_probe = 0.0
        try:
            while not self.stopping:
                now = time.monotonic()
                for child in self.children:
                    if child.exited() and not self.stopping:
                        if not self._schedule_restart(child, now):
                            return 1
                    if child.restart_at is not None and now >= child.restart_at and not self.stopping:
                        child.start()
                self._restart_once_redis_answers(now)
                if not self.announced and now >= next_probe:
                    next_probe = now + 0.25
                    if answers(self.health):
                        self.announced = True
                        log.info("serving on %s", self.public_url)
                time.sleep(0.1)
            return 0
        finally:
            self.stop_all()

    def _schedule_restart(self, child: Child, now: float) -> bool:
        """Restarts a child that exited as its cause deserves; False: it is given up on."""
        ran_for, status = now - child.started, child.returncode
        if status is not None and killed_from_outside(status):
            child.restart_at = now + child.backoff.first
            log.warning("%s was killed (signal %d) after %.1f s; restarting it in %.1f s",
                        child.name, -status, ran_for, child.backoff.first)
            return True
        if not child.last and not self.redis_answers():
            child.awaits_redis = True
            log.warning("%s exited with status %s after %.1f s while Redis does not answer; "
                        "restarting it once Redis answers", child.name, status, ran_for)
            return True
        return self._after_crash(child, now, ran_for)

    def _restart_once_redis_answers(self, now: float) -> None:
        waiting = [child for child in self.children if child.awaits_redis]
        if not waiting or self.stopping or now < self.next_redis_probe:
            return
        self.next_redis_probe = now + DEPENDENCY_POLL_S
        if self.redis_answers():
            log.info("Redis answers; restarting %s", ", ".join(child.name for child in waiting))
            for child in waiting:
                child.start()

    def _after_crash(self, child: Child, now: float, ran_for: float) -> bool:
        child.crashes.append(now)
        if gives_up(child.crashes, self.started):
            lines = child.relay.last_error or "\n".join(child.relay.tail) or "(it printed nothing)"
            log.error("%s crashed %d times within %d s of start-up (last exit status %s); giving up. "
                      "Its last error:\n%s", child.name, len(child.crashes), STARTUP_WINDOW_S,
                      child.returncode, lines)
            return False
        delay = child.backoff.after_exit(ran_for)
        child.restart_at = now + delay
        log.warning("%s exited with status %s after %.1f s; restarting it in %.1f s",
                    child.name, child.returncode, ran_for, delay)
        return True

    def stop_all(self) -> None:
        """Stops the children, those that others depend on (Redis) last."""
        for group in ([c for c in self.children if not c.last], [c for c in self.children if c.last]):
            for child in group:
                child.stop()
            for child in group:
                child.wait(timeout_s=15)


def install_signals(supervisor: Supervisor) -> None:
    signal.signal(signal.SIGTERM, supervisor.request_stop)
    signal.signal(signal.SIGINT, supervisor.request_stop)
