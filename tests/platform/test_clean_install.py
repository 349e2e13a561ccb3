"""The README's run command on a clean machine: a virtualenv with `requirements.txt` alone (no
dev requirements, which once hid a missing runtime dependency) runs `python app.py`, which
starts its own Redis and serves `/health` (within 30 s on a quiet host; the test waits longer, as
a host four times slower may need), and stops with nothing left running."""
from __future__ import annotations

import hashlib
import shutil
import signal
import subprocess
import sys

import pytest

from tests.conftest import ROOT, wait_for
from tests.platform.processes import AppProcess, descendants, wait_gone

# The tier (tests/tiers.py): builds a virtualenv and starts `python app.py` in it.
pytestmark = pytest.mark.process


@pytest.fixture(scope="module")
def runtime_python() -> str:
    """A virtualenv built from requirements.txt only (kept under var/ per version of that file,
    so a run on an unchanged file reuses it; CI's clean clone always builds it). Built without a
    pip of its own (this process's pip installs into it: `--python`) and without compiling every
    installed module (the app's first start compiles those it imports): 18.5 CPU-s to 11.6 on
    this host, the start about 1 CPU-s more (issue 48)."""
    digest = hashlib.sha256((ROOT / "requirements.txt").read_bytes()).hexdigest()[:12]
    venv = ROOT / "var" / "clean-install" / digest
    python = venv / "bin" / "python"
    done = venv / ".installed"
    if not done.exists():
        shutil.rmtree(venv, ignore_errors=True)
        base = getattr(sys, "_base_executable", sys.executable)
        subprocess.run([base, "-m", "venv", "--without-pip", str(venv)], check=True)
        subprocess.run([sys.executable, "-m", "pip", "--python", str(python), "install", "-q", "--no-compile",
                        "-r", str(ROOT / "requirements.txt")],
                       check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, timeout=600)
        done.write_text("ok\n")
    return str(python)


def test_the_runtime_environment_has_no_dev_requirements(runtime_python):
    probe = subprocess.run([runtime_python, "-c", "import pytest"], capture_output=True)
    assert probe.returncode != 0  # so nothing the tests install can hide a missing runtime one


def test_requirements_alone_serve_and_sigint_leaves_nothing(runtime_python, tmp_path):
    # every role app.py starts, once each (a second web process or turn worker is the same
    # command again, and its start, about 2 CPU-s, only slowed the health wait: issue 48)
    app = AppProcess(tmp_path, python=runtime_python, WEB_WORKERS=1, TURN_WORKERS=1, WEBHOOK_WORKERS=1,
                     ANALYSIS_WORKERS=1).start()
    try:
        # generous: waited out only on a failure (a first start in a fresh virtualenv compiles
        # every module it imports; under load CI's host took over 30 s)
        app.wait_healthy(150)
        # the supervisor's own probe (every 0.25 s) announces it: on a loaded machine a beat
        # after the test's probe saw the API answer
        wait_for(lambda: "serving on" in app.output(), interval=0.1)
        tree = descendants(app.proc.pid)
        app.signal(signal.SIGINT)
        assert app.wait_exit(60) == 0, app.output()
        assert wait_gone(tree, 10) == set(), app.output()
        assert "Traceback" not in app.output(), app.output()
    finally:
        app.close()
