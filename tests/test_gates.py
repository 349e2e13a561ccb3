"""The static gates, run with the suite so that CI runs them: ruff over the whole tree and mypy
over what pyproject.toml's [tool.mypy] names (domain/, events/, api/ outside api/http/), both
from the repository's root with their configuration there, through this interpreter's
environment. A finding fails the test and prints the tool's report.

mypy keeps its cache in var/ (ignored by git, kept between runs): a cold run costs about 8 s of
one core, a warm one about 1 s."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

# The tier (tests/tiers.py): runs ruff and mypy.
pytestmark = pytest.mark.process

ROOT = Path(__file__).resolve().parent.parent
MYPY_CACHE = ROOT / "var" / "mypy-cache"
TIMEOUT_S = 600


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=TIMEOUT_S)


def _report(found: subprocess.CompletedProcess[str]) -> str:
    return f"{' '.join(found.args[2:])} exited {found.returncode}:\n{found.stdout}{found.stderr}"


def test_ruff_finds_nothing():
    found = _run("ruff", "check", ".")
    assert found.returncode == 0, _report(found)


def test_mypy_finds_nothing():
    found = _run("mypy", "--cache-dir", str(MYPY_CACHE))
    assert found.returncode == 0, _report(found)
