"""The suite's tiers, by cost (docs/testing.md): `unit` (in memory: no Redis, no subprocess, no
socket), `redis` (sockets: a Redis, a server on a thread; no process of its own), `process`
(servers, RQ workers, subprocesses, PostgreSQL) and `browser` (a real browser). Every test
carries exactly one tier marker.

A test's tier is the costliest of the fixtures it uses (FIXTURES below; pytest's fixture closure
makes that transitive) and of a tier marker it is given by hand, for what it starts in its own
body. A marker cheaper than the test's fixtures, or two tier markers, fail the collection.

While a test below `browser` sets up and runs, a guard makes what its tier rules out raise
TierError naming the test and the marker it needs: so a test in the wrong tier fails instead of
quietly costing. The fixtures of the table are exempt from the guard while they set up (the
session's Redis fixture starts a redis-server for the first test that asks, whatever that test's
own tier). Teardown is not guarded: a scope's finalizers run in whichever test happens to be last.

tests/conftest.py loads this module as a plugin.
"""
from __future__ import annotations

import functools
import os
import socket
import subprocess
import threading
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

import pytest

TIERS = ("unit", "redis", "process", "browser")  # the cheapest first
RANK = {tier: rank for rank, tier in enumerate(TIERS)}

# The fixtures that cost: the tier of each fixture that starts or connects to something. A
# fixture built on one of these (the session's `app` on `redis_url`, say) needs no entry.
FIXTURES = {
    # a Redis: the session's own redis-server (tests/conftest.py), or a cluster (tests/cluster)
    "redis_url": "redis",
    "redis_client": "redis",
    # RQ workers, servers, subprocesses
    "workers": "process",
    "app_server": "process",
    "http_server": "process",
    "web_server": "process",
    "api": "process",
    "apis": "process",
    "cluster": "process",
    "queue_url": "process",
    "node_tools": "process",
    "python_client": "process",
    # PostgreSQL: a server beside the Redis that `-m "unit or redis"` must not need
    "postgres_url": "process",
    # a real browser
    "browser": "browser",
    "second_browser": "browser",
    "korean": "browser",
}


class TierError(BaseException):
    """A test did what its tier rules out. A BaseException, not an OSError: the clients that
    retry a failed connect (redis-py's, requests') must not take it for a refused connection and
    try again until a timeout."""


def tier_needed_by_fixtures(fixturenames: Iterable[str]) -> str:
    return max((FIXTURES.get(name, "unit") for name in fixturenames), key=RANK.__getitem__, default="unit")


def assign_tier(item: pytest.Item) -> str | None:
    """Marks the item with its tier; the problem, if its markers are wrong, else None."""
    fixturenames = getattr(item, "fixturenames", ())
    needed = tier_needed_by_fixtures(fixturenames)
    explicit = {mark.name for mark in item.iter_markers() if mark.name in RANK}
    if len(explicit) > 1:
        return f"{item.nodeid}: marked {' and '.join(sorted(explicit, key=RANK.__getitem__))}: one tier only"
    if not explicit:
        item.add_marker(needed)
        return None
    (marked,) = explicit
    if RANK[marked] < RANK[needed]:
        costly = sorted(name for name in fixturenames if FIXTURES.get(name) == needed)
        return (f"{item.nodeid}: marked `{marked}` but its fixtures {', '.join(costly)} are `{needed}`: "
                f"mark it `pytest.mark.{needed}` or leave the tier to the fixtures")
    return None


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by the markers given here
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """A test in the wrong tier is an error of the collection (which stops the run, also under
    xdist, whose workers pass collection reports on), not a test that runs."""
    wrong = {item.nodeid: problem for item in items if (problem := assign_tier(item))}
    for nodeid, problem in wrong.items():
        config.hook.pytest_collectreport(report=pytest.CollectReport(
            nodeid, "failed", f"{problem}\n(the tiers: tests/tiers.py, docs/testing.md)", []))
    items[:] = [item for item in items if item.nodeid not in wrong]


# The guard: what a test may do besides computing in memory, by its tier.
MAY = {"unit": frozenset(), "redis": frozenset({"socket"}), "process": frozenset({"socket", "process"}),
       "browser": frozenset({"socket", "process", "browser"})}
BROWSERS = frozenset({"chromedriver", "chromium", "chromium-browser", "chrome", "google-chrome"})


def cheapest_tier_that_may(kind: str) -> str:
    return next(tier for tier in TIERS if kind in MAY[tier])


@dataclass(frozen=True)
class Guard:
    nodeid: str
    tier: str
    # threads that were running before the test (the Redis client threads a previous test left,
    # xdist's own): what they do is not the test's
    foreign: frozenset[int]


_guard: Guard | None = None


@contextmanager
def _guarding(guard: Guard | None) -> Iterator[None]:
    global _guard
    outer, _guard = _guard, guard
    try:
        yield
    finally:
        _guard = outer


def _guard_for(item: pytest.Item) -> Guard | None:
    tier = next((mark.name for mark in item.iter_markers() if mark.name in RANK), "unit")
    if tier == "browser":  # may do anything
        return None
    others = frozenset(t.ident for t in threading.enumerate() if t.ident not in (None, threading.get_ident()))
    return Guard(item.nodeid, tier, others)


def _check(kind: str, action: str) -> None:
    guard = _guard
    if guard is None or kind in MAY[guard.tier] or threading.get_ident() in guard.foreign:
        return
    raise TierError(f"{guard.nodeid} is a `{guard.tier}` test but tried to {action}: mark it "
                    f"`pytest.mark.{cheapest_tier_that_may(kind)}` or use a fixture of that tier (docs/testing.md)")


def _guarded(real: Callable, kind: str, action: str) -> Callable:
    @functools.wraps(real)
    def guarded(*args, **kwargs):
        _check(kind, action)
        return real(*args, **kwargs)
    return guarded


def _socket_guarded(real: Callable, verb: str) -> Callable:
    @functools.wraps(real)
    def guarded(self, address, *args):
        _check("socket", f"{verb} a socket ({address!r})")
        return real(self, address, *args)
    return guarded


def _spawn_guarded(real: Callable) -> Callable:
    """Popen's one way to a child: a browser (chromedriver, which Selenium starts) is its own kind."""
    @functools.wraps(real)
    def guarded(self, args, executable, *rest, **kwargs):
        program = executable or (args if isinstance(args, (str, bytes)) else next(iter(args), ""))
        name = os.path.basename(os.fsdecode(program))
        _check("browser" if name in BROWSERS else "process", f"start a process (`{name}`)")
        return real(self, args, executable, *rest, **kwargs)
    return guarded


_installed = False


def install_guard() -> None:
    """Wraps the calls that start a process or open a connection, once per Python process. With
    no test running (the guard unset), the wrappers only call through."""
    global _installed
    if _installed:  # a second session in this process (pytester's in-process runs)
        return
    _installed = True
    popen: Any = subprocess.Popen  # _execute_child is private: typeshed does not list it
    popen._execute_child = _spawn_guarded(popen._execute_child)
    for name in ("fork", "forkpty", "posix_spawn", "posix_spawnp", "system"):
        if hasattr(os, name):
            setattr(os, name, _guarded(getattr(os, name), "process", f"start a process (`os.{name}`)"))
    for name, verb in (("connect", "connect"), ("connect_ex", "connect"), ("bind", "bind")):
        setattr(socket.socket, name, _socket_guarded(getattr(socket.socket, name), verb))
    socket.create_connection = _guarded(socket.create_connection, "socket", "open a connection")


def pytest_configure(config: pytest.Config) -> None:
    install_guard()


@pytest.hookimpl(wrapper=True)
def pytest_runtest_setup(item: pytest.Item):
    with _guarding(_guard_for(item)):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_call(item: pytest.Item):
    with _guarding(_guard_for(item)):
        return (yield)


@pytest.hookimpl(wrapper=True)
def pytest_fixture_setup(fixturedef: pytest.FixtureDef, request: pytest.FixtureRequest):
    if fixturedef.argname not in FIXTURES:
        return (yield)
    with _guarding(None):  # the table's fixtures start what their tier is for
        return (yield)
