"""bench/flat_mc.py's flat Monte Carlo baseline (issue 56) keeps working: a short seeded game of
Splendor and a Witches round, the baseline in one seat with a tiny CPU budget, every move it
plays one of the real state's legal moves, and it runs at least one iteration per arm."""
from __future__ import annotations

import json
import random

import pytest

from bench.flat_mc import FlatMC
from domain.contract import SYSTEM
from domain.play import fold
from domain.splendor import GAME as SPLENDOR
from domain.witches import GAME as WITCHES

pytestmark = pytest.mark.unit


@pytest.mark.parametrize("game", [SPLENDOR, WITCHES], ids=lambda g: g.name)
def test_the_baseline_plays_only_legal_moves_from_its_seats_view(game):
    baseline = FlatMC(game, k=4, cpu_s=0.0)
    rng = random.Random(3)
    n = game.min_seats
    state = fold(game, game.setup(game.default_options(), n, random.Random(3)))
    for _ in range(120):
        actors = game.actors(state)
        if not actors:
            break
        actor = actors[0]
        if actor == 0:
            seen = game.determinize(state, 0, rng)
            move = baseline(seen, 0, rng)
            assert json.dumps(move, sort_keys=True) in {json.dumps(m, sort_keys=True) for m in game.legal_moves(state, 0)}
        elif actor == SYSTEM:
            move = game.legal_moves(state, actor)[0]
        else:
            move = next(iter(game.bots.values()))(state, actor, rng)
        for event in game.decide(state, actor, move, rng):
            state = game.evolve(state, event)
    assert baseline.iterations and min(baseline.iterations) >= 2
