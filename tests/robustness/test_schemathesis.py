"""The spec and the server agree: a smoke of the fuzz campaign (bench/fuzz_api.py). schemathesis
runs every check (`--checks all`) in every phase (examples, coverage, fuzzing, stateful) against
`python app.py` (gunicorn + gevent, RQ workers, the reconciler) on a real Redis, with zero
failures: one fixed seed and a few examples per operation. The coverage phase's boundary cases
and the examples do not depend on the seed or the count; the campaign's several seeds and 60
examples per operation (about 7 minutes on two cores) meet what a short fuzz does not:

    python -m bench.fuzz_api              # FUZZ_SEEDS=14,3 FUZZ_EXAMPLES=200 to choose

FUZZ_SEEDS / FUZZ_EXAMPLES also set this smoke's seed (the first) and count.
"""
from __future__ import annotations

import os

import pytest

from bench.fuzz_api import ALL_PHASES, failures, fuzz_server, run

# The tier (tests/tiers.py): starts `python app.py` and schemathesis.
pytestmark = pytest.mark.process

SEED = os.environ.get("FUZZ_SEEDS", "14").split(",")[0]
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "3"))


def test_schemathesis_all_checks_all_phases_against_app_py(redis_url, tmp_path):
    with fuzz_server(redis_url, tmp_path) as api:
        done = run(api.base, SEED, ALL_PHASES, EXAMPLES)
    outcome = failures(done, SEED, ALL_PHASES)
    assert outcome is None, outcome
