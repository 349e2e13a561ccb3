"""The expert decides as it did before its search was made cheaper (issue 56): the decisions of
Splendor's and Witches' experts on fixed positions (bench/expert_cpu.py's `positions`: seeded
games played by greedy / careful), each with its seeded rng at a fixed budget, recorded in
expert_decisions.json from the code before the change (main at 335c384; Splendor's re-recorded
when its expert became an information-set search, issue 56, branch ismcts56: 4 of the 16 moves
as before). The same decisions for the same seeds and budget: the same strength, by
construction. Re-record it (the script in bench/README.md, "Cheaper expert search") only for a
change meant to decide differently."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from bench.expert_cpu import decide_all, positions
from domain import registry, search

pytestmark = pytest.mark.unit

RECORDED = json.loads((Path(__file__).parent / "expert_decisions.json").read_text())


@pytest.fixture
def recorded_budget():
    before = search.iterations_scale()
    search.set_iterations_scale(RECORDED["scale"])
    yield
    search.set_iterations_scale(before)


@pytest.mark.parametrize("name", ["splendor", "witches"])
def test_the_expert_decides_as_recorded(name, recorded_budget):
    game = registry.get(name)
    moves, _ = decide_all(game, positions(game, RECORDED["positions"]))
    assert moves == RECORDED["decisions"][name]
