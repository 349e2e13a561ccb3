"""decide takes untrusted JSON: anything else than a listed move is refused with a code."""
import random

import pytest

from domain.contract import SYSTEM, MoveRejected
from domain.play import fold
from domain.smallworld import GAME

from .helpers import make_state, mine, rejected

GARBAGE = [None, 7, "pick", [], ["pick"], {}, {"type": 3}, {"type": None}, {"type": "fly"},
           {"type": "pick"}, {"type": "pick", "index": "0"}, {"type": "pick", "index": True},
           {"type": "pick", "index": 10 ** 30}, {"type": "pick", "index": -1},
           {"type": "pick", "index": 0, "extra": 1}, {"type": "conquer", "region": 5},
           {"type": "conquer", "region": "nowhere"}, {"type": "conquer", "region": "T-1", "use": "ashes"},
           {"type": "place", "region": "T-1", "count": 0}, {"type": "place", "region": "T-1"},
           {"type": "ready", "form": 1}, {"type": "score_turn", "x": 1}]


def states():
    s = fold(GAME, GAME.setup({}, 3, random.Random(5)))
    yield s
    yield make_state(players={0: {"race": "orcs", "power": "farmer", "hand": 5}},
                     regions={"T-1": mine(0, "orcs", 1)})
    yield make_state(step="score")


@pytest.mark.parametrize("move", GARBAGE, ids=repr)
def test_garbage_is_refused_with_a_code(move):
    for state in states():
        for actor in (0, 1, SYSTEM, "x", None, 2.5):
            try:
                GAME.decide(state, actor, move, random.Random(0))
            except MoveRejected as r:
                assert r.code and r.message.endswith(".")
            else:
                assert move in GAME.legal_moves(state, actor)


def test_codes():
    state = make_state(players={0: {"race": "orcs", "power": "farmer", "hand": 5}},
                       regions={"T-1": mine(0, "orcs", 1)})
    assert rejected(state, 0, []) == "invalid_move"
    assert rejected(state, 0, {"type": "fly"}) == "unknown_move_type"
    assert rejected(state, 1, {"type": "end_conquests"}) == "not_your_turn"
    assert rejected(state, SYSTEM, {"type": "score_turn"}) == "not_your_turn"
    assert rejected(state, 0, {"type": "pick", "index": 0}) == "wrong_step"
    assert rejected(state, 0, {"type": "conquer", "region": "Z-9"}) == "unknown_region"
    assert rejected(state, 0, {"type": "place", "region": "T-1", "count": 1}) == "wrong_step"
