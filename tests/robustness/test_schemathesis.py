"""The spec and the server agree: a smoke of the fuzz campaign (bench/fuzz_api.py). schemathesis
runs every check (`--checks all`) in every phase (examples, coverage, fuzzing, stateful) against
`python app.py` (gunicorn + gevent, RQ workers, the reconciler) on a real Redis, with zero
failures: one fixed seed and a few examples per operation. The coverage phase's boundary cases
and the examples do not depend on the seed or the count; the campaign's several seeds and 60
examples per operation (about 7 minutes on two cores) meet what a short fuzz does not:

    python -m bench.fuzz_api              # FUZZ_SEEDS=14,3 FUZZ_EXAMPLES=200 to choose

FUZZ_SEEDS / FUZZ_EXAMPLES also set this smoke's seed (the first) and count.

What the smoke leaves out (issue 48; `run(..., smoke=True)`, FUZZ_SCOPE=smoke in the hooks), and
where it went: of the eight methods the coverage phase sends where a path does not declare them,
it sends OPTIONS and DELETE only (every path still gets both, and both checks about them run):
all eight on every path are tests/robustness/test_strict_input.py's
test_every_path_refuses_every_method_it_does_not_declare (in-process: 405, problem+json, an Allow
of exactly the declared methods) and the campaign's first seed. Of the coverage phase's wrong
JSON types it sends one per field (every field of every operation still gets one): each wrong
type of each field is the campaign's first seed (bench/fuzz_api.py sends them all). A clocked game
the smoke creates outside the stateful phase is resigned as soon as its answer is back
(schemathesis_hooks.after_call): its clock (a `per_move_s` or `initial_s` of 1, the schema's
boundary) would time every seat out within seconds and the takeover bots would play it to its
end, about 9,000 moves no check reads (half the smoke's CPU); the answer and its checks are as
before. Timeouts and takeovers are tests/api/test_clocks.py's, the bots' play the contract suite's
(tests/contract) and tests/api/test_play_every_game.py's; the campaign lets the server play them.
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
        done = run(api.base, SEED, ALL_PHASES, EXAMPLES, smoke=True)
    outcome = failures(done, SEED, ALL_PHASES)
    assert outcome is None, outcome
