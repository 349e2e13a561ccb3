"""`offer_for` reads one region (a move's decide and its label ask for one offer): it must give
exactly what the whole list gives, the first of `offers` for that region and use, or None."""
import random

import pytest

from domain.contract import SYSTEM
from domain.play import fold
from domain.smallworld import GAME
from domain.smallworld.costs import offer_for, offers


@pytest.mark.parametrize("n,options", [(2, {}), (3, {}), (5, {}), (4, {"team": True})])
def test_one_regions_offer_is_the_lists(n, options):
    rng = random.Random(560 + n)
    state = fold(GAME, GAME.setup(options, n, random.Random(n)))
    bots = [GAME.bots["greedy" if s % 2 else "random"] for s in range(n)]
    asked = 0
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        if actor != SYSTEM and rng.random() < 0.12:
            for seat in range(n):
                listed = offers(state, seat)
                for i in range(-1, len(state.regions) + 1):
                    for use in {None} | {o.use for o in listed}:
                        expected = next((o for o in listed if o.region == i and o.use == use), None)
                        assert offer_for(state, seat, i, use) == expected, (i, use)
                        asked += expected is not None
        move = GAME.legal_moves(state, actor)[0] if actor == SYSTEM else bots[actor](state, actor, rng)
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
    assert asked > 50  # offers were there to find, not only Nones
