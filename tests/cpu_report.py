"""`pytest --cpu-report=PATH`: the CPU seconds each test file cost, written as JSON lines (one file
per xdist worker: PATH.<worker>). A file's figure is its tests' own CPU (setup, call, teardown, in
this process) and that of the processes its tests and module fixtures started and reaped (the
servers, workers and tools of its tier). Processes the whole session shares (the session's Redis,
`app_server`, the browser) are reaped at the session's end and counted under `(session)`.

Wall time says what waited; CPU says what the two cores paid for, whatever else ran beside: the
suite's wall time is its CPU over the cores plus its waits (docs/testing.md)."""
from __future__ import annotations

import json
import os
import resource
import time
from collections import defaultdict

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption("--cpu-report", default=None, help="write each test file's CPU seconds to PATH.<worker>")


def _children() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


class CpuReport:
    def __init__(self, path: str):
        self.path = f"{path}.{os.environ.get('PYTEST_XDIST_WORKER', 'main')}"
        self.own: dict[str, float] = defaultdict(float)
        self.children: dict[str, float] = defaultdict(float)
        self.at_start = (time.process_time(), _children())

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_protocol(self, item: pytest.Item, nextitem: pytest.Item | None):
        before = (time.process_time(), _children())
        yield
        file = item.nodeid.split("::", 1)[0]
        self.own[file] += time.process_time() - before[0]
        self.children[file] += _children() - before[1]

    @pytest.hookimpl(hookwrapper=True)
    def pytest_runtest_teardown(self, item: pytest.Item, nextitem: pytest.Item | None):
        """The last test's teardown also ends the session's fixtures (its servers, browsers and
        workers are reaped then): that share is the session's, not the last file's."""
        before = (time.process_time(), _children())
        yield
        if nextitem is None:
            file = item.nodeid.split("::", 1)[0]
            own, children = time.process_time() - before[0], _children() - before[1]
            self.own[file] -= own
            self.children[file] -= children
            self.own["(session)"] += own
            self.children["(session)"] += children

    def pytest_sessionfinish(self) -> None:
        own, children = time.process_time(), _children()
        with open(self.path, "w") as out:
            # what no test's protocol measured (collection, the session's start) is the session's too
            self.own["(session)"] += own - self.at_start[0] - sum(self.own.values())
            self.children["(session)"] += children - self.at_start[1] - sum(self.children.values())
            for file in sorted(self.own):
                out.write(json.dumps({"file": file, "own": round(self.own[file], 2),
                                      "children": round(self.children[file], 2)}) + "\n")


def pytest_configure(config: pytest.Config) -> None:
    path = config.getoption("--cpu-report")
    if path and not hasattr(config, "workerinput") and config.getoption("numprocesses", None):
        return  # the controller of an xdist run runs no test: its workers write the report
    if path:
        config.pluginmanager.register(CpuReport(path), "cpu-report")
