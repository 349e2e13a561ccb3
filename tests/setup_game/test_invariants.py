"""Whole games (random and greedy seats) keep SetUp's invariants after every turn."""
import random

import pytest

from domain.play import fold
from domain.setup_game import GAME
from domain.setup_game.data import N_TILES


@pytest.mark.parametrize("n,options", GAME.test_configs)
def test_every_tile_is_somewhere_once_and_racks_and_market_stay_full(n, options):
    for seed in range(4):
        rng = random.Random(seed)
        state = fold(GAME, GAME.setup({**GAME.default_options(), **options}, n, rng))
        while GAME.actors(state):
            seat = state.turn
            before = state.scores
            policy = GAME.bots["greedy" if (seat + seed) % 2 else "random"]
            for event in GAME.decide(state, seat, policy(state, seat, rng), rng):
                state = GAME.evolve(state, event)
            places = ([t for s in state.stacks for t in s] + [t for r in state.racks for t in r]
                      + list(state.market) + list(state.bag))
            assert sorted(places) == list(range(N_TILES))
            assert all(a <= b for a, b in zip(before, state.scores))
            if not state.over:  # 50 tiles always leave enough in the bag and under the tops
                assert len(state.market) == 4 and all(len(r) == 4 for r in state.racks)
        result = GAME.result(state)
        assert max(result["scores"]) >= state.goal
        if not options:
            assert all(result["scores"][w] >= state.goal for w in result["winners"])
