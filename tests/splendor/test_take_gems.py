"""Actions 1 and 2: take 3 different gems, take 2 of one colour (spec: A turn, 1-2)."""
import pytest

from domain.contract import MoveRejected
from tests.splendor.helpers import act, decide, moves_of, start, toks, with_supply


def _rejects(state, move, code, seat=0):
    with pytest.raises(MoveRejected) as info:
        decide(state, seat, move, None)
    assert info.value.code == code, info.value.message
    assert move not in moves_of(state, seat)


def test_take_three_different_gems_moves_them_from_supply_to_player():
    events, state = act(start(), 0, {"type": "take_gems", "colors": ["white", "blue", "green"]})
    assert events == [{"type": "gems_taken", "seat": 0, "tokens": {"white": 1, "blue": 1, "green": 1}}]
    assert state.players[0].tokens == toks(white=1, blue=1, green=1)
    assert state.supply == toks(white=3, blue=3, green=3, red=4, black=4, gold=5)
    assert state.seat == 1 and state.phase == "play"


def test_all_ten_colour_triples_are_listed():
    assert len(moves_of(start(), 0, "take_gems")) == 10


def test_gold_can_never_be_taken():
    _rejects(start(), {"type": "take_gems", "colors": ["white", "blue", "gold"]}, "illegal_move")
    _rejects(start(), {"type": "take_two", "color": "gold"}, "invalid_move")


def test_colours_must_differ_and_be_three_while_three_are_left():
    _rejects(start(), {"type": "take_gems", "colors": ["white", "white", "blue"]}, "invalid_move")
    _rejects(start(), {"type": "take_gems", "colors": ["white", "blue"]}, "illegal_move")
    _rejects(start(), {"type": "take_gems", "colors": ["white", "blue", "green", "red"]}, "illegal_move")


def test_colours_are_named_in_canonical_order():
    _rejects(start(), {"type": "take_gems", "colors": ["blue", "white", "green"]}, "invalid_move")


def test_a_colour_missing_from_the_supply_cannot_be_taken():
    state = with_supply(start(), white=0)
    _rejects(state, {"type": "take_gems", "colors": ["white", "blue", "green"]}, "not_enough_gems")
    assert len(moves_of(state, 0, "take_gems")) == 4  # triples of the 4 colours left


def test_two_colours_left_takes_one_of_each():
    state = with_supply(start(), white=0, blue=0, green=0)
    assert moves_of(state, 0, "take_gems") == [{"type": "take_gems", "colors": ["red", "black"]}]
    _, after = act(state, 0, {"type": "take_gems", "colors": ["red", "black"]})
    assert after.players[0].tokens == toks(red=1, black=1)
    _rejects(state, {"type": "take_gems", "colors": ["red"]}, "illegal_move")


def test_one_colour_left_takes_one_gem():
    state = with_supply(start(), white=0, blue=0, green=0, red=0, black=1)
    assert moves_of(state, 0, "take_gems") == [{"type": "take_gems", "colors": ["black"]}]


def test_no_colour_left_no_take_gems():
    state = with_supply(start(), white=0, blue=0, green=0, red=0, black=0)
    assert moves_of(state, 0, "take_gems") == []


def test_strict_take_three_forbids_taking_fewer_colours():
    state = with_supply(start(strict=True), white=0, blue=0, green=0)
    assert moves_of(state, 0, "take_gems") == []
    _rejects(state, {"type": "take_gems", "colors": ["red", "black"]}, "illegal_move")


def test_take_two_of_a_colour_with_four_in_supply():
    events, state = act(start(), 0, {"type": "take_two", "color": "red"})
    assert events[0]["tokens"] == {"red": 2}
    assert state.players[0].tokens == toks(red=2)
    assert state.supply[3] == 2


def test_take_two_needs_four_in_supply_before_taking():
    state = with_supply(start(), red=3)
    _rejects(state, {"type": "take_two", "color": "red"}, "not_enough_gems")
    assert {m["color"] for m in moves_of(state, 0, "take_two")} == {"white", "blue", "green", "black"}


def test_take_two_is_possible_with_exactly_four():
    state = with_supply(start(n=4), red=4)
    assert {"type": "take_two", "color": "red"} in moves_of(state, 0)
