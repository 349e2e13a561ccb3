"""decide takes untrusted JSON: any value gives events or MoveRejected, never another error,
and never changes the state it is given."""
import copy
import json
import random

import pytest

from domain.contract import SYSTEM, MoveRejected
from domain.play import fold
from domain.splendor import GAME
from tests.splendor.helpers import decide, start

CODES = {"invalid_move", "unknown_move_type", "not_your_turn", "game_over", "illegal_move",
         "not_enough_gems", "reserve_limit", "card_not_available", "deck_empty", "cannot_afford",
         "wrong_payment", "wrong_return", "must_return_tokens", "must_choose_noble"}

GARBAGE = [None, 0, 1.5, "pass", [], ["type"], {}, {"type": None}, {"type": 7}, {"type": ["buy"]},
           {"type": "fly"}, {"type": "pass", "extra": 1}, {"type": "take_gems"},
           {"type": "take_gems", "colors": "white"}, {"type": "take_gems", "colors": [1, 2, 3]},
           {"type": "take_gems", "colors": [None]}, {"type": "take_gems", "colors": [["white"]]},
           {"type": "take_two", "color": 5}, {"type": "take_two", "color": "mauve"},
           {"type": "reserve", "card": 12}, {"type": "reserve", "card": None}, {"type": "reserve"},
           {"type": "reserve_blind", "level": 10 ** 100}, {"type": "reserve_blind", "level": -1},
           {"type": "buy", "card": "sp-1-01"}, {"type": "buy", "card": "sp-1-01", "payment": "all"},
           {"type": "buy", "card": ["sp-1-01"], "payment": {}}, {"type": "buy", "card": "sp-1-01", "payment": {"gold": 10 ** 50}},
           {"type": "return_tokens", "tokens": {"red": 1}}, {"type": "choose_noble", "noble": "sp-noble-01"},
           {"type": "choose_noble", "noble": 3}, {"type": "score_game"}, {"type": "score_game", "x": 1}]


@pytest.mark.parametrize("move", GARBAGE, ids=lambda m: json.dumps(m)[:40])
@pytest.mark.parametrize("actor", [0, 1, SYSTEM, None, True, "0", 99])
def test_garbage_is_rejected_with_a_stable_code(move, actor):
    state = start()
    before = copy.deepcopy(state)
    with pytest.raises(MoveRejected) as info:
        decide(state, actor, move, None)
    assert info.value.code in CODES and info.value.message.endswith(".")
    assert state == before


def test_the_seat_whose_turn_it_is_not_is_refused():
    with pytest.raises(MoveRejected) as info:
        decide(start(), 1, {"type": "take_two", "color": "red"}, None)
    assert info.value.code == "not_your_turn"


def test_unknown_move_type():
    with pytest.raises(MoveRejected) as info:
        decide(start(), 0, {"type": "steal"}, None)
    assert info.value.code == "unknown_move_type"


def test_fuzzed_mutations_of_legal_moves_never_crash():
    """Random playouts; at each step, mutate a legal move's fields to random JSON values."""
    values = [None, True, -1, 0, 3, 2.5, "", "red", "gold", "sp-1-01", "sp-noble-01", [], ["red"],
              {}, {"red": 1}, {"gold": 2}, 10 ** 20]
    rng = random.Random(5)
    for seed in range(3):
        state = fold(GAME, GAME.setup({"strict_take_three": False}, 2, random.Random(seed)))
        while GAME.actors(state):
            actor = GAME.actors(state)[0]
            moves = GAME.legal_moves(state, actor)
            for _ in range(3):
                move = dict(rng.choice(moves))
                key = rng.choice([k for k in move if k != "type"] or ["type"])
                move[key] = rng.choice(values)
                try:
                    events = decide(state, actor, move, rng)
                except MoveRejected as rejected:
                    assert rejected.code in CODES
                else:
                    assert move in moves and events
            for event in decide(state, actor, rng.choice(moves), rng):
                state = GAME.evolve(state, event)


def test_messages_quote_client_values_briefly():
    with pytest.raises(MoveRejected) as info:
        decide(start(), 0, {"type": "x" * 100000}, None)
    assert info.value.code == "unknown_move_type" and len(info.value.message) < 120
