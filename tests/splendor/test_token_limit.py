"""The 10-token limit: the turn is not over until the excess is returned (spec: Token limit)."""
import pytest

from domain.contract import MoveRejected
from tests.splendor.helpers import act, decide, moves_of, start, toks, with_player, with_supply

TAKE = {"type": "take_gems", "colors": ["white", "blue", "green"]}


def _at(tokens, state=None):
    return with_player(state or start(), 0, tokens=tokens)


def test_ten_tokens_after_taking_ends_the_turn():
    _, state = act(_at(toks(red=4, black=3)), 0, TAKE)
    assert sum(state.players[0].tokens) == 10 and state.seat == 1 and state.phase == "play"


def test_over_ten_keeps_the_turn_until_tokens_are_returned():
    _, state = act(_at(toks(red=4, black=4)), 0, TAKE)
    assert state.phase == "return_tokens" and state.seat == 0
    assert state.turns == 0  # the turn is not over
    assert sum(state.players[0].tokens) == 11
    assert moves_of(state, 1) == []
    with pytest.raises(MoveRejected) as info:
        decide(state, 1, {"type": "take_two", "color": "red"}, None)
    assert info.value.code == "not_your_turn"


def test_other_actions_are_refused_while_tokens_must_be_returned():
    _, state = act(_at(toks(red=4, black=4)), 0, TAKE)
    with pytest.raises(MoveRejected) as info:
        decide(state, 0, TAKE, None)
    assert info.value.code == "must_return_tokens"


def test_every_way_to_return_the_excess_is_listed():
    _, state = act(_at(toks(red=4, black=4)), 0, TAKE)  # holds W1 U1 G1 R4 K4
    listed = moves_of(state, 0)
    assert all(m["type"] == "return_tokens" and sum(m["tokens"].values()) == 1 for m in listed)
    assert sorted(next(iter(m["tokens"])) for m in listed) == ["black", "blue", "green", "red", "white"]
    _, state = act(_at(toks(red=4, black=4, gold=2)), 0, {"type": "take_two", "color": "white"})
    assert all(sum(m["tokens"].values()) == 2 for m in moves_of(state, 0))
    assert {"type": "return_tokens", "tokens": {"white": 2}} in moves_of(state, 0)  # just taken
    assert {"type": "return_tokens", "tokens": {"red": 1, "gold": 1}} in moves_of(state, 0)


def test_returning_tokens_gives_them_back_and_ends_the_turn():
    _, state = act(_at(toks(red=4, black=4)), 0, TAKE)
    events, state = act(state, 0, {"type": "return_tokens", "tokens": {"white": 1}})
    assert events == [{"type": "tokens_returned", "seat": 0, "tokens": {"white": 1}}]
    assert state.players[0].tokens == toks(blue=1, green=1, red=4, black=4)
    assert state.supply[0] == 4
    assert state.phase == "play" and state.seat == 1 and state.turns == 1


@pytest.mark.parametrize("tokens,code", [
    ({"white": 2}, "illegal_move"),  # holds only one white
    ({"red": 2}, "wrong_return"),  # too many
    ({}, "wrong_return"),  # too few
    ({"red": 0, "white": 1}, "invalid_move"),  # zero entries are not the listed shape
    ({"purple": 1}, "invalid_move"),
    ([1], "invalid_move"),
])
def test_wrong_returns_are_refused(tokens, code):
    _, state = act(_at(toks(red=4, black=4)), 0, TAKE)
    with pytest.raises(MoveRejected) as info:
        decide(state, 0, {"type": "return_tokens", "tokens": tokens}, None)
    assert info.value.code == code


def test_gold_from_reserving_counts_toward_the_limit():
    _, state = act(_at(toks(red=4, black=4, white=2)), 0, {"type": "reserve", "card": "sp-1-01"})
    assert state.phase == "return_tokens"
    assert {"type": "return_tokens", "tokens": {"gold": 1}} in moves_of(state, 0)


def test_taking_at_ten_is_allowed():
    state = with_supply(_at(toks(red=4, black=4, white=2)), white=4)
    assert TAKE in moves_of(state, 0)
    _, state = act(state, 0, TAKE)
    assert state.phase == "return_tokens" and sum(state.players[0].tokens) == 13
    assert all(sum(m["tokens"].values()) == 3 for m in moves_of(state, 0))
