"""Illegal plays and malformed moves: a stable code, a sentence, and nothing changes."""
import copy
import random

import pytest

from domain.contract import SYSTEM, MoveRejected
from domain.setup_game import GAME

from .helpers import play, rejected, start, tid

QUIET = {"C1": "h1", "C2": "s3", "C3": "c6", "C4": "h8"}


def _state():
    return start(board={**QUIET, "N1": "d10"}, racks=[["st10", "h2"], ["c2"]], market=["c10", "s5"])


@pytest.mark.parametrize("move,code", [
    (play({"C1": "c2"}), "tile_not_available"),          # another seat's rack
    (play({"C1": "h8"}), "tile_not_available"),          # a tile on the board
    (play({"C1": "d3"}), "tile_not_available"),          # a tile in the bag
    ({"type": "play", "place": {"C1": tid("st10"), "C2": tid("st10")}}, "tile_used_twice"),
    (play({"Z9": "st10"}), "unknown_square"),
    ({"type": "play", "place": {"C1": "su-moon-3"}}, "invalid_move"),
    ({"type": "play", "place": {}}, "invalid_move"),
    ({"type": "play", "place": [["C1", tid("st10")]]}, "invalid_move"),
    ({"type": "play"}, "invalid_move"),
    ({"type": "play", "place": {"C1": tid("st10")}, "extra": 1}, "invalid_move"),
    ({"type": "play", "place": {q: tid("st10") for q in
                                ("C1", "C2", "C3", "C4", "N1", "N2", "E1", "E2", "S1")}}, "too_many_tiles"),
    ({"type": "swap", "tiles": []}, "invalid_move"),
    ({"type": "swap", "tiles": [tid("st10")] * 5}, "invalid_move"),
    ({"type": "swap", "tiles": [tid("st10"), tid("st10")]}, "tile_used_twice"),
    ({"type": "swap", "tiles": [tid("c10")]}, "tile_not_in_rack"),
    ({"type": "swap", "tiles": "su-star-10"}, "invalid_move"),
    ({"type": "pass"}, "illegal_move"),
    ({"type": "fly"}, "unknown_move_type"),
    ({"type": ["play"]}, "unknown_move_type"),
    ({"place": {}}, "invalid_move"),
    (["play"], "invalid_move"),
    (None, "invalid_move"),
    (7, "invalid_move"),
])
def test_illegal_or_malformed_moves_are_rejected_with_a_code_and_change_nothing(move, code):
    state = _state()
    before = copy.deepcopy(state)
    error = rejected(state, move)
    assert error.code == code
    assert isinstance(error.message, str) and error.message.endswith(".")
    assert state == before


def test_only_the_seat_whose_turn_it_is_may_act():
    state = _state()
    assert rejected(state, play({"C1": "st10", "C2": "c10"}), actor=1).code == "not_your_turn"
    assert rejected(state, play({"C1": "st10", "C2": "c10"}), actor=SYSTEM).code == "not_your_turn"
    assert GAME.legal_moves(state, 1) == [] and GAME.legal_moves(state, SYSTEM) == []


def test_nothing_after_the_game_is_over():
    state = start(board={**QUIET, "N1": "d10"}, racks=[["st10"], []], market=["c10"], scores=[29, 0])
    events = GAME.decide(state, 0, play({"C1": "st10", "C2": "c10"}), random.Random(0))
    for event in events:
        state = GAME.evolve(state, event)
    assert state.over and GAME.actors(state) == [] and GAME.legal_moves(state, 1) == []
    assert rejected(state, {"type": "swap", "tiles": ["x"]}, actor=1).code == "game_over"


GARBAGE = [None, 0, -1, 10 ** 30, 1.5, True, "", "play", [], {}, [None], {"a": 1},
           {"C1": None}, {"C1": 5}, {"C1": ["x"]}, {5: "x"}, {"": ""}, "x" * 10000]


def test_decide_never_raises_anything_but_move_rejected_on_garbage():
    state = _state()
    rng = random.Random(3)
    for _ in range(400):
        move = {"type": rng.choice(["play", "swap", "pass", "x", None, 3]),
                rng.choice(["place", "tiles", "type", "other"]): rng.choice(GARBAGE)}
        for actor in (0, 1, SYSTEM, None, -1, 99, "0", True):
            try:
                GAME.decide(state, actor, move, random.Random(0))
            except MoveRejected as error:
                assert error.code and error.message
    for move in GARBAGE:
        with pytest.raises(MoveRejected):
            GAME.decide(state, 0, move, random.Random(0))


def test_messages_quote_client_values_briefly():
    state = _state()
    for move in ({"type": "x" * 5000}, {"type": "play", "place": {"y" * 5000: "z"}},
                 {"type": "swap", "tiles": ["w" * 5000]}, {"type": "pass", "v" * 5000: 1}):
        assert len(rejected(state, move).message) < 200
