"""The tiers (tests/tiers.py) on small suites of their own, run in this process by pytester: a
marker cheaper than the fixtures fails the collection, the guard fails a test that does what its
tier rules out, and a test in its right tier passes. Nothing here starts a process or opens a
socket to anything: `subprocess.Popen([])` reaches the guard, then fails in the real call before
a process starts; a socket is only bound to a port of 127.0.0.1 where the tier allows it."""
from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

INI = """
[pytest]
markers =
    unit: in memory
    redis: a Redis
    process: processes
    browser: a browser
"""

# `redis_url` is a fixture of the table (tier `redis`); here it starts nothing, as a session's
# own Redis would, except that it tries to start a process (which its tier alone would refuse).
CONFTEST = """
import subprocess

import pytest


@pytest.fixture(scope="session")
def redis_url():
    with pytest.raises(IndexError):  # the guard let it through: the real Popen refused the empty args
        subprocess.Popen([])
    return "redis://127.0.0.1:1"


@pytest.fixture
def redis_client(redis_url):
    return redis_url
"""


@pytest.fixture
def suite(pytester):
    pytester.makeini(INI)
    pytester.makeconftest(CONFTEST)
    return pytester


def run(suite, *args):
    return suite.runpytest_inprocess("-p", "tests.tiers", "-p", "no:cacheprovider", "-p", "no:xdist", *args)


def test_a_unit_marker_on_a_test_of_a_redis_fixture_fails_the_collection(suite):
    suite.makepyfile("""
        import pytest

        @pytest.mark.unit
        def test_reads(redis_client):
            pass
    """)
    result = run(suite)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*ERROR collecting test_*.py*",
                                 "*::test_reads: marked `unit` but its fixtures redis_client, redis_url are `redis`: "
                                 "mark it `pytest.mark.redis`*",
                                 "*1 error during collection*"])


def test_two_tier_markers_fail_the_collection(suite):
    suite.makepyfile("""
        import pytest

        pytestmark = pytest.mark.redis

        @pytest.mark.process
        def test_both():
            pass
    """)
    result = run(suite)
    assert result.ret == pytest.ExitCode.INTERRUPTED
    result.stdout.fnmatch_lines(["*::test_both: marked redis and process: one tier only*"])


def test_a_unit_test_that_opens_a_socket_or_starts_a_process_fails_naming_the_marker(suite):
    suite.makepyfile("""
        import os
        import socket
        import subprocess

        def test_connects():
            with socket.socket() as s:
                s.connect(("127.0.0.1", 9))

        def test_binds():
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))

        def test_makes_a_connection():
            socket.create_connection(("127.0.0.1", 9))

        def test_spawns():
            subprocess.Popen([])

        def test_spawns_by_os():
            os.posix_spawn("/nowhere", ["nowhere"], {})
    """)
    result = run(suite, "-m", "unit")
    result.assert_outcomes(failed=5)
    result.stdout.fnmatch_lines([
        "*TierError: test_*.py::test_connects is a `unit` test but tried to connect a socket*"
        "mark it `pytest.mark.redis`*",
        "*TierError: test_*.py::test_binds is a `unit` test but tried to bind a socket*",
        "*TierError: test_*.py::test_makes_a_connection is a `unit` test but tried to open a connection*",
        "*TierError: test_*.py::test_spawns is a `unit` test but tried to start a process*"
        "mark it `pytest.mark.process`*",
        "*TierError: test_*.py::test_spawns_by_os is a `unit` test but tried to start a process (`os.posix_spawn`)*",
    ])


def test_a_redis_test_may_open_sockets_not_start_processes(suite):
    suite.makepyfile("""
        import socket
        import subprocess

        def test_binds(redis_url):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))

        def test_spawns(redis_url):
            subprocess.Popen([])
    """)
    result = run(suite, "-m", "redis")
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*TierError: *::test_spawns is a `redis` test but tried to start a process*"])


def test_tests_in_their_tiers_pass_and_are_selected_by_them(suite):
    suite.makepyfile("""
        import subprocess

        import pytest

        def test_adds():
            assert 1 + 1 == 2

        def test_reads(redis_client):
            assert redis_client.startswith("redis://")

        @pytest.mark.process
        def test_starts(redis_url):
            with pytest.raises(IndexError):  # no guard in the process tier
                subprocess.Popen([])
    """)
    run(suite).assert_outcomes(passed=3)
    run(suite, "-m", "unit").assert_outcomes(passed=1, deselected=2)
    run(suite, "-m", "unit or redis").assert_outcomes(passed=2, deselected=1)
    run(suite, "-m", "process").assert_outcomes(passed=1, deselected=2)


def test_a_thread_the_test_starts_is_guarded_too(suite):
    suite.makepyfile("""
        import socket
        import threading

        def test_in_a_thread():
            failed = []

            def connect():
                try:
                    socket.socket().bind(("127.0.0.1", 0))
                except BaseException as e:
                    failed.append(e)

            thread = threading.Thread(target=connect)
            thread.start()
            thread.join()
            assert type(failed[0]).__name__ == "TierError"
    """)
    run(suite, "-m", "unit").assert_outcomes(passed=1)


def test_a_process_test_that_starts_a_browser_fails_naming_the_marker(suite):
    suite.makepyfile("""
        import subprocess

        import pytest

        @pytest.mark.process
        def test_drives():
            subprocess.Popen(["/nowhere/chromedriver", "--port=0"])
    """)
    result = run(suite)
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(["*TierError: *::test_drives is a `process` test but tried to start a process "
                                 "(`chromedriver`): mark it `pytest.mark.browser`*"])
