"""Thousands of live streams held by a C process (bench/sse_watchers.c, one epoll loop), driven
from Python by line commands on its stdin: like wrk, a load generator that costs next to nothing
(the asyncio watchers of bench/sse_client.py cost about 12 µs of CPU per delivery, on the cores
of the server they measure).

The program is compiled with `cc -O2` into bench/.build/ when missing or older than its source.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import threading
from pathlib import Path

SOURCE = Path(__file__).resolve().parent / "sse_watchers.c"
BUILD = SOURCE.parent / ".build"


def compiler() -> str | None:
    return shutil.which("cc")


def build() -> Path:
    """The compiled program, (re)built if older than its source."""
    binary = BUILD / "sse_watchers"
    if binary.exists() and binary.stat().st_mtime >= SOURCE.stat().st_mtime:
        return binary
    BUILD.mkdir(exist_ok=True)
    partial = BUILD / f"sse_watchers.{os.getpid()}"  # renamed into place: two builds never clash
    subprocess.run([compiler() or "cc", "-O2", "-Wall", "-o", str(partial), str(SOURCE)], check=True)
    os.replace(partial, binary)
    return binary


class CWatchers:
    """The C process: watcher i follows a path; counts, fan-out delays and CPU on demand. One
    command and its answer at a time (a lock): the players' loop moves watchers while the bench's
    main thread asks for counts."""

    def __init__(self, host: str, port: int, batch_us: int = 0):
        self.proc = subprocess.Popen([str(build()), host, str(port), str(batch_us)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=1 << 16)
        self.lock = threading.Lock()

    def _send(self, line: str) -> None:
        self.proc.stdin.write(line.encode() + b"\n")
        self.proc.stdin.flush()

    def _ask(self, line: str, lines: int = 1) -> list[str]:
        with self.lock:
            self._send(line)
            answer = [self.proc.stdout.readline().decode() for _ in range(lines)]
        if not answer[0]:
            raise RuntimeError(f"sse_watchers exited ({self.proc.poll()})")
        return answer

    def open(self, i: int, path: str) -> None:
        with self.lock:
            self._send(f"open {i} {path}")

    def move(self, i: int, path: str) -> None:
        """Watcher i follows path from its start (its connection is dropped and made again)."""
        with self.lock:
            self._send(f"move {i} {path}")

    def status(self) -> dict:
        """{"open", "refused", "connecting", "ended"}: streams open (a 200 received), non-200
        answers ever received, connections under way or waiting to reconnect, streams ended."""
        words = self._ask("status")[0].split()
        return {words[k]: int(words[k + 1]) for k in range(0, len(words), 2)}

    def _samples(self, command: str, since_ms: float, until_ms: float) -> list[float]:
        head, values = self._ask(f"{command} {since_ms:.0f} {until_ms:.0f}", lines=2)
        found = [float(v) for v in values.split()]
        assert len(found) == int(head.split()[1]), head
        return found

    def delays(self, since_ms: float, until_ms: float) -> list[float]:
        """The fan-out delays (ms) of the game events that arrived within [since_ms, until_ms]."""
        return self._samples("delays", since_ms, until_ms)

    def lags(self, since_ms: float, until_ms: float) -> list[float]:
        """How late the C loop ran its 20 ms tick (ms), within [since_ms, until_ms]."""
        return self._samples("lags", since_ms, until_ms)

    def cpu_seconds(self) -> float:
        return float(self._ask("cpu")[0].split()[1])

    def retry(self, ms: float) -> None:
        """A refused watcher tries again `ms` later (0: it stops, the default)."""
        assert self._ask(f"retry {ms:g}")[0].strip() == "retry"

    def drop(self) -> int:
        """Cuts every open stream's connection at once: each reconnects 50 ms later with
        Last-Event-ID. Returns how many were cut."""
        return int(self._ask("drop")[0].split()[1])

    def refusals(self) -> dict[int, int]:
        """How many answers of each status but 200 were received."""
        words = self._ask("refusals")[0].split()[1:]
        return {int(k): int(v) for k, v in (w.split(":") for w in words)}

    def close_all(self) -> None:
        """Closes every stream; the watchers, the refused count and the delays are forgotten."""
        assert self._ask("close")[0].strip() == "closed"

    def quit(self) -> None:
        if self.proc.poll() is None:
            try:
                with self.lock:
                    self._send("quit")
            except OSError:
                pass
            try:
                self.proc.wait(5)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        for stream in (self.proc.stdin, self.proc.stdout):
            stream.close()
