"""The fuzz campaign: schemathesis, every check (`--checks all`), against `python app.py`
(gunicorn + gevent, RQ workers, the reconciler) on a real Redis, over several seeds.

    python -m bench.fuzz_api                          # seeds 14,3,27 and one drawn at random
    FUZZ_SEEDS=14,3 FUZZ_EXAMPLES=200 python -m bench.fuzz_api

The first seed runs every phase (examples, coverage, fuzzing, stateful); the others fuzzing and
stateful only (examples and coverage do not depend on the seed), so the FUZZ_EXAMPLES examples
per operation (default 60) are shared among them, the first seed fuzzing twice as much as each
other. A failure names its seed (`FUZZ_SEEDS=<seed>` replays it alone). It took 7 minutes on two
cores at load 12; the suite keeps a short smoke of it (tests/robustness/test_schemathesis.py).

The first seed's coverage phase sends every case the suite's smoke leaves out: all eight methods
a path does not declare (the smoke: OPTIONS and DELETE) and each wrong JSON type of each field
(the smoke: one per field); and the server plays to their end the clocked games the fuzz creates
(the smoke resigns them once answered: their takeover bots' play is no check's).

The hooks (tests/robustness/schemathesis_hooks.py) aim schema-valid cases at real games with real
seat tokens, and add a check of our own: every error is application/problem+json with a code and
a detail. The configuration (tests/robustness/schemathesis.toml) says what no schema can: a
well-formed move may break a game's rules (422). The server runs as deployed: client seeds
refused, which the spec documents (CreateGame); only the per-address and per-network budgets
are opened (every case comes from 127.0.0.1).
"""
from __future__ import annotations

import os
import random
import subprocess
import sys
import tempfile
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import requests

from tests.conftest import ROOT, wait_for
from tests.robustness.servers import ApiServer, RedisServer

ALL_PHASES = "examples,coverage,fuzzing,stateful"
# A ceiling for a hung run, not a speed target: a first seed's run of 60 examples took over 900 s
# on a host four times slower than usual (CI's own machine, stop 47), 2-4 minutes on a usual one.
RUN_TIMEOUT_S = 2400
# Every budget an address or its network has: the hooks create games and players from 127.0.0.1.
OPEN_BUDGETS = {name: 100_000_000 for name in ("NETWORK_READ_LIMIT", "NETWORK_STREAM_LIMIT", "NETWORK_CREATE_LIMIT",
                                               "ANONYMOUS_CREATE_LIMIT")}


@contextmanager
def fuzz_server(redis_url: str, log_dir: Path) -> Iterator[ApiServer]:
    """`python app.py` as deployed (client seeds refused), its budgets opened, ready (a worker
    and the reconciler have beaten once)."""
    api = ApiServer(redis_url, f"fuzz{uuid.uuid4().hex[:6]}:", log_dir, ALLOW_CLIENT_SEEDS=0,
                    SSE_MAX_SECONDS=0.2, SSE_KEEPALIVE_S=0.05, **OPEN_BUDGETS).start()
    try:
        # /health/ready answers 503 until a worker and the reconciler have beaten once
        wait_for(lambda: _ready(api.base), timeout=30)
        yield api
    finally:
        api.stop()


def _ready(base: str) -> bool:
    """/health/ready answered 200; a probe that times out (a loaded host: the server's children
    still starting) is a no, asked again, not the run's failure."""
    try:
        return requests.get(f"{base}/health/ready", timeout=2).status_code == 200
    except requests.RequestException:
        return False


def run(base: str, seed: str, phases: str, examples: int, smoke: bool = False) -> subprocess.CompletedProcess:
    """One schemathesis run, every check, against the spec the server serves (it hosts High
    Card, so its unions hold the extra games' variants). `smoke`: the suite's, whose coverage
    phase sends two of the eight undeclared methods and one wrong JSON type per field
    (tests/robustness/schemathesis_hooks.py); the campaign's sends them all."""
    env = {**os.environ, "GAME_SERVER_URL": base, "PYTHONPATH": str(ROOT), "FUZZ_SEED": seed,
           "SCHEMATHESIS_HOOKS": "tests.robustness.schemathesis_hooks", "FUZZ_SCOPE": "smoke" if smoke else "campaign"}
    return subprocess.run(
        [sys.executable, "-m", "schemathesis.cli", "--config-file", str(ROOT / "tests/robustness/schemathesis.toml"),
         "run", f"{base}/openapi.yaml", "--url", base, "--checks", "all", "--phases", phases,
         "--max-examples", str(examples), "--seed", seed, "--generation-database", "none", "--request-timeout", "30"],
        cwd=ROOT, env=env, capture_output=True, text=True, timeout=RUN_TIMEOUT_S)


def report(done: subprocess.CompletedProcess, seed: str) -> str:
    failures = done.stdout.find("= FAILURES")  # the cases themselves, not only the summary's counts
    found = done.stdout[failures:failures + 8000] if failures >= 0 else done.stdout[-6000:]
    return f"seed {seed} (replay: FUZZ_SEEDS={seed}):\n{found}{done.stderr[-2000:]}"


def failures(done: subprocess.CompletedProcess, seed: str, phases: str) -> str | None:
    """None when the run passed every phase it was given, else its report."""
    passed = done.returncode == 0 and all(f"✅ {phase.capitalize()}" in done.stdout for phase in phases.split(","))
    return None if passed else report(done, seed)


def plan(seeds: list[str], examples: int) -> list[tuple[str, str, int]]:
    """(seed, phases, examples) per run: every phase for the first seed, which fuzzes twice as
    much as each other one."""
    share = max(1, examples // (len(seeds) + 1))
    return ([(seeds[0], ALL_PHASES, examples - share * (len(seeds) - 1))]
            + [(seed, "fuzzing,stateful", share) for seed in seeds[1:]])


def main() -> int:
    seeds = os.environ.get("FUZZ_SEEDS", f"14,3,27,{random.SystemRandom().randrange(10**6)}").split(",")
    examples = int(os.environ.get("FUZZ_EXAMPLES", "60"))
    print(f"schemathesis seeds: {','.join(seeds)}, {examples} examples per operation", flush=True)
    with tempfile.TemporaryDirectory(prefix="fuzz-api-") as tmp:
        redis_server = RedisServer(Path(tmp) / "redis").start()
        try:
            with fuzz_server(redis_server.url, Path(tmp)) as api:
                found = []
                for seed, phases, count in plan(seeds, examples):
                    outcome = failures(run(api.base, seed, phases, count), seed, phases)
                    print(f"seed {seed} ({phases}, {count} examples): {'FAILED' if outcome else 'passed'}", flush=True)
                    found += [outcome] if outcome else []
        finally:
            redis_server.stop()
    for outcome in found:
        print(outcome)
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
