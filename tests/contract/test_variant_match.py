"""bench/variant_match.py's `ismcts` variant (issue 56) for a game whose expert searches only some
decisions keeps the expert's split: Witches' passes and spell choices by `careful`, Small World's
redeployment, markers and purchases by `greedy`, the rest by the information-set search at the
variant's budget, move for move with the same rng."""
from __future__ import annotations

import dataclasses
import random

import pytest

from bench.expert_cpu import positions
from bench.variant_match import ITERATIONS, infer, ismcts
from domain import registry, search
from domain.analysis import searcher_of
from domain.play import fold
from domain.search import Searcher
from domain.splendor.bots import expert_policy

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


def test_splendors_infer_variant_plays_the_experts_moves_where_no_blind_reserve_is_held():
    """Neither greedy nor the expert reserves blind: along a greedy game the variant's worlds are
    determinize.py's, draw for draw, so its moves are the expert's for the same rng (24
    iterations a decision: enough for a world drawn otherwise to change some moves)."""
    scale = search.iterations_scale()
    search.set_iterations_scale(0.1)
    try:
        _same_moves()
    finally:
        search.set_iterations_scale(scale)


def _same_moves() -> None:
    game = registry.get("splendor")
    assert game is not None
    variant = infer(game)
    rng = random.Random(3)
    state = fold(game, game.setup(game.default_options(), 2, rng))
    compared = 0
    while (actors := game.actors(state)) and compared < 8:
        seat = actors[0]
        move = game.bots["greedy"](state, seat, rng)
        if seat == 0 and state.turns % 4 == 0:
            move = variant(state, seat, random.Random(state.turns))
            assert move == expert_policy(state, seat, random.Random(state.turns)), state.turns
            compared += 1
        state = fold(game, game.decide(state, seat, move, rng), state)
    assert compared == 8
