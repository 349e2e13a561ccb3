"""The contract's tools, pinned: the npm ones (clients/package.json and its lock, installed with
`npm ci` into var/clients) and openapi-python-client (requirements-dev.txt). Generated code goes
to var/clients and is never committed."""
from __future__ import annotations

import hashlib
import importlib
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import ROOT

TOOLS = ROOT / "var" / "clients"
PINNED = ("package.json", "package-lock.json")


def run(args, cwd=ROOT, timeout=300, env=None) -> subprocess.CompletedProcess:
    return subprocess.run(args, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)


@pytest.fixture(scope="session")
def node_tools() -> Path:
    """var/clients/node_modules/.bin, installed by `npm ci` from the committed lock (again only
    when the lock changed). Node 20+ and npm are required: CI has them, and these tests are how
    CI lints the spec and builds the TypeScript client, so their absence fails, not skips
    (CONTRACT_NO_NODE=1 skips them on a machine without Node)."""
    npm = shutil.which("npm")
    if npm is None:
        if os.environ.get("CONTRACT_NO_NODE") == "1":
            pytest.skip("CONTRACT_NO_NODE=1: no Node.js here")
        pytest.fail("npm is not installed: the contract's tests need Node.js 20+ and npm (or CONTRACT_NO_NODE=1)")
    TOOLS.mkdir(parents=True, exist_ok=True)
    digest = hashlib.sha256(b"".join((ROOT / "clients" / f).read_bytes() for f in PINNED)).hexdigest()
    stamp = TOOLS / "node_modules" / ".installed-from"
    if not stamp.exists() or stamp.read_text() != digest:
        for name in PINNED:
            shutil.copy(ROOT / "clients" / name, TOOLS / name)
        done = run([npm, "ci", "--no-audit", "--no-fund", "--loglevel=error"], cwd=TOOLS, timeout=600)
        assert done.returncode == 0, done.stdout + done.stderr
        stamp.write_text(digest)
    return TOOLS / "node_modules" / ".bin"


@pytest.fixture(scope="session")
def python_client():
    """The Python client openapi-python-client generates from openapi.yaml, imported as is."""
    out = TOOLS / "python" / "game_server_client"
    shutil.rmtree(out, ignore_errors=True)
    generator = Path(sys.executable).parent / "openapi-python-client"
    done = run([str(generator), "generate", "--path", "openapi.yaml", "--output-path", str(out),
                "--meta", "none", "--config", "clients/openapi-python-client.yaml"])
    assert done.returncode == 0, done.stdout + done.stderr
    sys.path.insert(0, str(out.parent))
    try:
        importlib.invalidate_caches()
        yield importlib.import_module("game_server_client"), done.stdout + done.stderr
    finally:
        sys.path.remove(str(out.parent))
