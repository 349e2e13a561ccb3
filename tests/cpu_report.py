"""`pytest --cpu-report=PATH`: the CPU seconds each test file cost, written as JSON lines (one file
per xdist worker: PATH.<worker>). A file's figure is its tests' own CPU (setup, call, teardown, in
this process: `own`), that of the processes its tests and module fixtures started and reaped
(the servers, workers and tools of its tier: `children`), and what the session's shared processes
still running (the session's Redis, `app_server`, the web server, the browser and their children)
computed while its tests ran (`shared`: read from /proc at each change of file, so a shared
server's work for a test is that test's file's). A shared process's start counts to the first
file that asks for it; its stop, at the session's end, to `(session)`, with the collection.

Wall time says what waited; CPU says what the two cores paid for, whatever else ran beside: the
suite's wall time is its CPU over the cores plus its waits (docs/testing.md)."""
from __future__ import annotations

import json
import os
import resource
import time
from collections import defaultdict

import pytest

_TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-report", default=None, help="write each test file's CPU seconds to PATH.<worker>")


def _children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


def live_descendants_cpu(root: int | None = None) -> float:
    """The CPU seconds the running descendants of `root` (this process) have used, their own
    reaped children's included (utime, stime, cutime, cstime of /proc/<pid>/stat); 0 without
    /proc. One scan of /proc: a few milliseconds, so taken once a file, not once a test."""
    root = os.getpid() if root is None else root
    parent: dict[int, int] = {}
    used: dict[int, float] = {}
    try:
        names = os.listdir("/proc")
    except OSError:
        return 0.0
    for name in names:
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except OSError:
            continue  # gone since the listing
        parent[int(name)] = int(fields[1])
        used[int(name)] = sum(int(value) for value in fields[11:15]) / _TICK
    total = 0.0
    for pid in used:
        ancestor, seen = parent.get(pid), 0
        while ancestor and ancestor != root and seen < 64:  # the chain up to init (or a loop's end)
            ancestor, seen = parent.get(ancestor), seen + 1
        total += used[pid] if ancestor == root else 0.0
    return total


class CpuReport:
    def __init__(self, path: str):
        self.path = f"{path}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
        self.own: dict[str, float] = defaultdict(float)
        self.children: dict[str, float] = defaultdict(float)
        self.shared: dict[str, float] = defaultdict(float)
        self.at_start = (time.process_time(), _children())
        self.file: str | None = None  # the file whose tests run now
        self.live = live_descendants_cpu()  # the running processes' CPU at the last change of file
        # when each file's tests ran, in seconds since this worker began: [first start, last end],
        # so a run's tail (one worker busy, the other done) can be read from the report
        self.when: dict[str, list[float]] = {}
        self.began = time.monotonic()

    def _book_live(self, file: str | None) -> None:
        """What the running processes computed since the last reading, to `file`: a process
        reaped meanwhile leaves the reading (its whole CPU is then in a test's `children`)."""
        now = live_descendants_cpu()
        self.shared[file or "(session)"] += now - self.live
        self.live = now

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None):
        file = item.nodeid.split("::", 1)[0]
        if file != self.file:
            self._book_live(self.file)
            self.file = file
        before = (time.process_time(), _children())
        started = time.monotonic() - self.began
        yield
        self.own[file] += time.process_time() - before[0]
        self.children[file] += _children() - before[1]
        self.when.setdefault(file, [started, started])[1] = time.monotonic() - self.began

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None):
        """The last test's teardown also ends the session's fixtures (its servers, browsers and
        workers are reaped then): that share is the session's, not the last file's."""
        if nextitem is None:
            self._book_live(self.file)
            self.file = "(session)"
        before = (time.process_time(), _children())
        yield
        if nextitem is None:
            file = item.nodeid.split("::", 1)[0]
            own, children = time.process_time() - before[0], _children() - before[1]
            self.own[file] -= own
            self.children[file] -= children
            self.own["(session)"] += own
            self.children["(session)"] += children
            self._book_live("(session)")

    def pytest_sessionfinish(self) -> None:
        own, children = time.process_time(), _children()
        self._book_live("(session)")
        with open(self.path, "w") as out:
            # what no test's protocol measured (collection, the session's start) is the session's too
            self.own["(session)"] += own - self.at_start[0] - sum(self.own.values())
            self.children["(session)"] += children - self.at_start[1] - sum(self.children.values())
            for file in sorted(set(self.own) | set(self.shared)):
                start, end = self.when.get(file, (None, None))
                out.write(json.dumps({"file": file, "own": round(self.own[file], 2),
                                      "children": round(self.children[file], 2),
                                      "shared": round(self.shared[file], 2),
                                      "start": start and round(start, 1), "end": end and round(end, 1)}) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--cpu-report")
    if path and not hasattr(config, "workerinput") and config.getoption("numprocesses", None):
        return  # the controller of an xdist run runs no test: its workers write the report
    if path:
        config.pluginmanager.register(CpuReport(path), "cpu-report")
