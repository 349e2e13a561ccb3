"""The spec and the server agree: schemathesis runs every check (`--checks all`) in every phase
(examples, coverage, fuzzing, stateful) against `python app.py` (gunicorn + gevent, RQ workers,
the reconciler) on a real Redis, with zero failures.

Its hooks (tests/robustness/schemathesis_hooks.py) aim schema-valid cases at real games with
real seat tokens, so the fuzzing reaches the games and not only their 404s, and add a check of
our own: every error is application/problem+json with a code and a detail. Its configuration
(tests/robustness/schemathesis.toml) says one thing no schema can: a well-formed move may break
a game's rules (422). The server runs as deployed: client seeds refused, which the spec
documents (CreateGame); only the per-address budgets are opened (every case comes from
127.0.0.1). FUZZ_EXAMPLES (default 60) sets the examples per operation and phase: about a
minute and a half on two cores.
"""
from __future__ import annotations

import os
import subprocess
import sys
import uuid

import requests

from tests.conftest import ROOT, wait_for
from tests.robustness.servers import ApiServer

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "60"))
SEED = os.environ.get("FUZZ_SEED", "14")


def test_schemathesis_all_checks_all_phases_against_app_py(redis_url, tmp_path):
    api = ApiServer(redis_url, f"fuzz{uuid.uuid4().hex[:6]}:", tmp_path, ALLOW_CLIENT_SEEDS=0,
                    SSE_MAX_SECONDS=0.2, SSE_KEEPALIVE_S=0.05).start()
    try:
        # /health/ready answers 503 until a worker and the reconciler have beaten once
        wait_for(lambda: requests.get(f"{api.base}/health/ready", timeout=2).status_code == 200, timeout=30)
        env = {**os.environ, "GAME_SERVER_URL": api.base, "PYTHONPATH": str(ROOT),
               "SCHEMATHESIS_HOOKS": "tests.robustness.schemathesis_hooks"}
        run = subprocess.run(
            [sys.executable, "-m", "schemathesis.cli", "--config-file", str(ROOT / "tests/robustness/schemathesis.toml"),
             "run", str(ROOT / "openapi.yaml"), "--url", api.base, "--checks", "all",
             "--phases", "examples,coverage,fuzzing,stateful", "--max-examples", str(EXAMPLES), "--seed", SEED,
             "--generation-database", "none", "--request-timeout", "30"],
            cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    finally:
        api.stop()
    failures = run.stdout.find("= FAILURES")  # the cases themselves, not only the summary's counts
    report = (run.stdout[failures:failures + 8000] if failures >= 0 else run.stdout[-6000:]) + run.stderr[-2000:]
    assert run.returncode == 0, report
    for phase in ("Examples", "Coverage", "Fuzzing", "Stateful"):
        assert f"✅ {phase}" in run.stdout, report  # every phase ran and passed
