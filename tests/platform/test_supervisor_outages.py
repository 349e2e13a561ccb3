"""`python app.py` through the outages a chaos soak makes, with real processes: children killed
from outside, and Redis going away under them. Their restarts do not grow a back-off (that is
for children that crash on their own, tests/platform/test_supervisor.py): a killed child is
back within 0.5 s, and one that died while Redis was away is back as soon as Redis answers."""
from __future__ import annotations

import os
import re
import signal
import subprocess
import time
from pathlib import Path

import pytest
import requests

from events import local_redis
from tests.platform.processes import AppProcess, alive, descendants

# The tier (tests/tiers.py): `apps` starts `python app.py`, `outside_redis` a Redis.
pytestmark = pytest.mark.process


def role_pid(app: AppProcess, role: str) -> int | None:
    """The pid of the supervisor's child running as `role` (its PROCESS_ROLE), if alive."""
    for pid in descendants(app.proc.pid):
        try:
            environ = Path(f"/proc/{pid}/environ").read_bytes().split(b"\0")
        except OSError:
            continue
        if f"PROCESS_ROLE={role}".encode() in environ and alive(pid):
            return pid
    return None


def wait_role(app: AppProcess, role: str, not_pid: int | None, timeout_s: float) -> tuple[int, float]:
    """Waits for `role` to run in a process other than not_pid: (its pid, seconds waited)."""
    started = time.monotonic()
    while time.monotonic() - started < timeout_s:
        pid = role_pid(app, role)
        if pid is not None and pid != not_pid:
            return pid, time.monotonic() - started
        assert app.proc.poll() is None, app.output()[-3000:]
        time.sleep(0.05)
    raise AssertionError(f"{role} not restarted within {timeout_s} s:\n{app.output()[-3000:]}")


@pytest.fixture
def apps(tmp_path):
    started: list[AppProcess] = []

    def make(**env) -> AppProcess:
        app = AppProcess(tmp_path, **env)
        started.append(app)
        return app.start()

    yield make
    for app in started:
        app.close()


def test_a_child_killed_from_outside_again_and_again_is_back_within_half_a_second(apps):
    app = apps()
    app.wait_healthy(120)
    pid, _ = wait_role(app, "worker-0", None, 10)
    for _ in range(6):  # more kills within the first minute than the give-up allows crashes
        os.kill(pid, signal.SIGKILL)
        pid, waited = wait_role(app, "worker-0", pid, 10)
        assert waited < 2.5, waited  # 0.5 s, plus the 0.1 s loop and this poll on a busy machine
    out = app.output()
    delays = [float(d) for d in re.findall(r"worker-0 was killed \(signal 9\) after [\d.]+ s; restarting it in ([\d.]+) s",
                                           out)]
    assert delays == [0.5] * 6, out[-3000:]
    assert "giving up" not in out and app.healthy()


@pytest.fixture
def outside_redis(tmp_path):
    """A Redis of the test's own, which it can take away and bring back on the same socket."""
    data = tmp_path / "outside-redis"
    url = local_redis.prepare(data)
    procs: list[subprocess.Popen] = []

    def up() -> None:
        local_redis.prepare(data)
        procs.append(subprocess.Popen(local_redis.command(data, fsync="everysec"), stdout=subprocess.DEVNULL,
                                      stderr=subprocess.DEVNULL))
        local_redis.wait_alive(url, procs[-1])

    def down() -> None:
        procs[-1].kill()
        procs[-1].wait(timeout=10)

    up()
    yield url, up, down
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.wait(timeout=10)


def test_children_that_die_while_redis_is_away_are_back_as_soon_as_it_answers(apps, outside_redis):
    url, up, down = outside_redis
    app = apps(REDIS_URL=url, WEBHOOK_WORKERS=1)
    app.wait_healthy(120)
    roles = ("worker-0", "webhooks-0")
    pids = [wait_role(app, role, None, 10)[0] for role in roles]
    down()
    outage = time.monotonic()
    for pid in pids:  # killed during the outage: their successors cannot reach Redis and exit
        os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + 60
    out = app.output()
    while not all(re.search(rf"{role} exited with status 1 after [\d.]+ s while Redis does not answer", out)
                  for role in roles):
        assert time.monotonic() < deadline, out[-3000:]
        time.sleep(0.1)
        out = app.output()
    time.sleep(max(0.0, 8 - (time.monotonic() - outage)))  # an outage as long as the soak's
    assert all(role_pid(app, role) is None for role in roles), "restarted while Redis was away"
    up()
    for role in roles:
        _, waited = wait_role(app, role, None, 10)
        assert waited < 2.0, (role, waited)
    out = app.output()
    assert not re.search(r"(worker-0|webhooks-0) exited with status \S+ after [\d.]+ s; restarting", out), out[-3000:]
    assert "Redis answers; restarting" in out and "giving up" not in out


def test_a_worker_that_waited_out_an_outage_plays_within_a_second_or_two_of_redis(apps, outside_redis):
    url, up, down = outside_redis
    app = apps(REDIS_URL=url)
    app.wait_healthy(120)
    worker = wait_role(app, "worker-0", None, 10)[0]
    down()
    time.sleep(8)
    up()
    back = time.monotonic()
    created = requests.post(f"{app.base}/games", json={"type": "splendor", "seats": [{"bot": "random"}, {"name": "A"}]},
                            timeout=10)
    assert created.status_code == 201, created.text
    while requests.get(f"{app.base}/games/{created.json()['id']}", timeout=10).json()["to_act"] != [1]:
        assert time.monotonic() - back < 4, app.output()[-3000:]  # RQ's own back-off: 1, 2, 4, 8 s...
        time.sleep(0.05)
    assert role_pid(app, "worker-0") == worker  # it waited for Redis itself, and was not restarted
