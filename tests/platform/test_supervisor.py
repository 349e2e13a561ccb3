"""`python app.py` as an operator meets it, with real processes: it refuses what it cannot do
at once, gives up on a child that cannot start instead of restarting it forever, says
"serving" only once it serves, and leaves nothing running when it stops or is killed."""
from __future__ import annotations

import json
import re
import signal
import socket
import time

import pytest
import requests

from tests.conftest import wait_for
from tests.platform.processes import AppProcess, descendants, wait_gone

# The tier (tests/tiers.py): `apps` starts `python app.py`.
pytestmark = pytest.mark.process


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


def test_serving_is_announced_only_once_it_answers_and_sigint_leaves_no_child(apps):
    app = apps()
    app.wait_healthy(120)
    # the supervisor's probe (every 0.25 s) may announce a beat after the test's saw an answer
    wait_for(lambda: "serving on" in app.output(), interval=0.1)
    tree = descendants(app.proc.pid)
    assert len(tree) >= 5  # redis, gunicorn master + worker, an RQ worker, the reconciler
    app.signal(signal.SIGINT)
    assert app.wait_exit(30) == 0
    assert wait_gone(tree, 10) == set()
    out = app.output()
    assert out.count("serving on http://127.0.0.1:") == 1
    # gunicorn was listening before the announcement was made, not the other way round
    assert out.index("Listening at:") < out.index("serving on")


def test_a_port_in_use_is_refused_at_once_with_what_to_do(apps):
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        started = time.monotonic()
        app = apps(PORT=port)
        code = app.wait_exit(5)
        assert time.monotonic() - started < 5
    assert code != 0
    out = app.output()
    assert f"Port {port} is already in use" in out and "PORT=" in out
    assert "Traceback" not in out and len(out.strip().splitlines()) == 1


def test_serving_beyond_loopback_without_a_relying_party_is_refused_at_once(tmp_path):
    """Issue 49 (13): passkeys followed each request's Host; beyond loopback the operator names
    the relying party (WEBAUTHN_RP_ID, WEBAUTHN_ORIGIN) or the server does not start."""
    app = AppProcess(tmp_path)
    app.env["HOST"] = "0.0.0.0"
    for name in ("WEBAUTHN_RP_ID", "WEBAUTHN_ORIGIN"):
        app.env.pop(name, None)
    try:
        started = time.monotonic()
        assert app.start().wait_exit(10) == 2
        assert time.monotonic() - started < 10
        out = app.output()
        assert "WEBAUTHN_RP_ID" in out and "WEBAUTHN_ORIGIN" in out and "HOST=127.0.0.1" in out
        assert "Traceback" not in out and len(out.strip().splitlines()) == 1
    finally:
        app.close()


def test_a_second_instance_on_the_same_data_dir_is_refused(apps, tmp_path):
    first = apps(DATA_DIR=tmp_path / "shared")
    first.wait_healthy(120)
    second = apps(DATA_DIR=tmp_path / "shared")
    assert second.wait_exit(5) == 2
    assert "Another server is running with DATA_DIR=" in second.output()
    assert first.healthy()  # and the first was not disturbed


def test_children_die_with_a_sigkilled_supervisor_and_free_the_port(apps):
    app = apps()
    app.wait_healthy(120)
    tree = descendants(app.proc.pid)
    app.signal(signal.SIGKILL)
    app.proc.wait(timeout=5)
    assert wait_gone(tree, 20) == set()
    with socket.socket() as s:  # nothing holds the port any more
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        s.bind(("127.0.0.1", app.port))


def test_a_child_that_cannot_start_is_given_up_on_with_its_last_lines_once(apps):
    # every child fails to import it; three children (the web, a turn worker, the reconciler), not
    # six: each crash round starts every child's imports again (issue 48)
    app = apps(EXTRA_GAME_MODULES="no_such_game_module", TURN_WORKERS=1, WEBHOOK_WORKERS=0, ANALYSIS_WORKERS=0)
    started = time.monotonic()
    code = app.wait_exit(60)
    assert code == 1
    assert time.monotonic() - started < 45
    out = app.output()
    assert "giving up" in out and "No module named 'no_such_game_module'" in out
    delays = [float(d) for d in re.findall(r"restarting it in ([\d.]+) s", out)]
    assert {0.5, 1.0, 2.0} <= set(delays) and max(delays) <= 30  # back-off, not a 0.5 s loop
    assert "the same error as before" in out
    # No child printed the same traceback twice in a row: each child's tracebacks (relayed as
    # "<child> | " lines) differ from the one before; repeats were named instead.
    blocks: dict = {}
    for match in re.finditer(r"^(\S+) \| Traceback \(most recent call last\):\n((?:\1 \| .*\n)*)", out, flags=re.M):
        blocks.setdefault(match.group(1), []).append(match.group(2))
    assert set(blocks) >= {"web", "worker-0", "reconciler"}, out[-3000:]
    for child, texts in blocks.items():
        assert all(a != b for a, b in zip(texts, texts[1:])), (child, texts)
        assert len(texts) < 5, (child, len(texts))  # fewer than its crashes: repeats were not printed
    assert "serving on" not in out


def test_json_logs_from_every_process_carry_role_and_request_id(apps):
    app = apps(LOG_FORMAT="json", ACCESS_LOG=1)
    app.wait_healthy(120)
    created = requests.post(f"{app.base}/games", json={"type": "splendor", "seats": [{"bot": "random"}, {"name": "A"}]},
                            headers={"X-Request-Id": "req-42"}, timeout=10)
    assert created.status_code == 201 and created.headers["X-Request-Id"] == "req-42"
    gid = created.json()["id"]
    made = requests.get(f"{app.base}/games/{gid}", timeout=10)
    assert re.fullmatch(r"[0-9a-f]{32}", made.headers["X-Request-Id"])  # made when none was sent
    deadline = time.monotonic() + 60  # the bot (seat 0) plays its first turn (a ceiling for a slow host)
    while requests.get(f"{app.base}/games/{gid}", timeout=10).json()["to_act"] != [1]:
        assert time.monotonic() < deadline
        time.sleep(0.1)
    app.signal(signal.SIGINT)
    app.wait_exit(30)
    lines = [line for line in app.output().splitlines() if line.strip()]
    records = [json.loads(line) for line in lines]  # every line is one JSON object
    assert all({"time", "level", "role", "message"} <= set(r) for r in records)
    roles = {r["role"] for r in records}
    assert {"supervisor", "web", "worker-0", "reconciler", "redis"} <= roles, roles
    assert any(r.get("request_id") == "req-42" and r["role"] == "web" for r in records)
    assert any(r.get("game_id") == gid and r.get("request_id") == made.headers["X-Request-Id"] for r in records)
    # a worker's lines about a turn name the game and the version it played at
    assert any(r["role"] == "worker-0" and r.get("game_id") == gid and isinstance(r.get("version"), int)
               for r in records), [r for r in records if r["role"] == "worker-0"][-5:]
