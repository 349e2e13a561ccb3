"""bench/variant_match.py's `ismcts` variant (issue 56) for a game whose expert searches only some
decisions keeps the expert's split: Witches' passes and spell choices by `careful`, Small World's
redeployment, markers and purchases by `greedy`, the rest by the information-set search at the
variant's budget, move for move with the same rng."""
from __future__ import annotations

import dataclasses
import random

import pytest

from bench.expert_cpu import positions
from bench.variant_match import ITERATIONS, ismcts
from domain import registry
from domain.analysis import searcher_of
from domain.search import Searcher

pytestmark = pytest.mark.unit

HEURISTIC = {"witches": "careful", "smallworld-of-warcraft": "greedy"}


def _searched(name: str, state, seat: int) -> bool:
    if name == "witches":
        from domain.witches.moves import playable
        from domain.witches.state import PLAYING
        return state.phase == PLAYING and len(playable(state, seat)) > 1
    from domain.smallworld.bots import SEARCHED
    return state.turn.step in SEARCHED


@pytest.mark.parametrize("name", sorted(HEURISTIC))
def test_the_ismcts_variant_searches_what_the_expert_searches_and_no_more(name, monkeypatch):
    grown = []  # the information-set trees grown (Searcher._grow: that mode's alone)
    grow = Searcher._grow
    monkeypatch.setattr(Searcher, "_grow", lambda self, *args: grown.append(1) or grow(self, *args))
    game = registry.get(name)
    assert game is not None
    variant = ismcts(game, iterations=8)
    base = searcher_of(game)
    search = Searcher(base.rules, base.n_seats,
                      dataclasses.replace(base.spec, information_sets=True, iterations=8))
    searched = 0
    for i, (state, seat) in enumerate(positions(game, 12)):
        if _searched(name, state, seat):
            expected = search(state, seat, random.Random(i))
            searched += 1
        else:
            expected = game.bots[HEURISTIC[name]](state, seat, random.Random(i))
        before = len(grown)
        assert variant(state, seat, random.Random(i)) == expected, (i, name)
        grows = _searched(name, state, seat) and len(search._candidates(base.rules, state, seat)) > 1
        assert len(grown) - before == int(grows), (i, name)
    assert searched, "no searched decision among the positions"
    assert ITERATIONS[name] > 8  # (the shipped budget is the calibrated one, not the test's)
