"""pass: only when none of the four actions is possible; still a turn, nobles still checked."""
import pytest

from domain.contract import SYSTEM, MoveRejected
from domain.splendor import GAME
from tests.splendor.helpers import act, bonus, decide, moves_of, start, with_player, with_supply

PASS = {"type": "pass"}
NO_GEMS = dict(white=0, blue=0, green=0, red=0, black=0)


def _blocked(state, seat, **extra):
    """No gems in the supply, three reserved cards, no tokens: nothing but pass."""
    reserved = [f"sp-3-{seat * 3 + i + 10:02d}" for i in range(3)]
    return with_player(state, seat, reserved=reserved, **extra)


def test_pass_is_refused_while_any_action_is_possible():
    with pytest.raises(MoveRejected) as info:
        decide(start(), 0, PASS, None)
    assert info.value.code == "illegal_move"
    assert PASS not in moves_of(start(), 0)


def test_pass_is_the_only_move_when_nothing_else_is_possible():
    state = _blocked(with_supply(start(), **NO_GEMS), 0)
    assert moves_of(state, 0) == [PASS]
    events, state = act(state, 0, PASS)
    assert events == [{"type": "turn_passed", "seat": 0}]
    assert state.seat == 1 and state.turns == 1  # it counts as a turn


def test_strict_take_three_with_two_colours_left_can_leave_only_pass():
    state = _blocked(with_supply(start(strict=True), white=0, blue=0, green=0, red=1, black=1), 0)
    assert moves_of(state, 0) == [PASS]


def test_the_noble_check_still_runs_after_a_pass():
    state = _blocked(with_supply(start(), **NO_GEMS), 0, bonuses=bonus(white=3, blue=3, black=3))
    state = state._replace(market=((-1,) * 4,) * 3)  # those bonuses would buy sp-1-02 for free
    assert moves_of(state, 0) == [PASS]
    events, state = act(state, 0, PASS)
    assert [e["type"] for e in events] == ["turn_passed", "noble_visited"]
    assert state.players[0].points == 3


def test_a_full_round_of_passes_ends_the_game():
    state = _blocked(_blocked(with_supply(start(), **NO_GEMS), 0), 1)
    _, state = act(state, 0, PASS)
    assert GAME.actors(state) == [1]
    _, state = act(state, 1, PASS)
    assert GAME.actors(state) == [SYSTEM]
    _, state = act(state, SYSTEM, {"type": "score_game"})
    assert GAME.result(state)["reason"] == "blocked"
    assert GAME.result(state)["winners"] == [0, 1]


def test_an_action_between_passes_resets_the_count():
    state = _blocked(with_supply(start(), **NO_GEMS), 0)
    _, state = act(state, 0, PASS)
    _, state = act(state, 1, {"type": "reserve", "card": "sp-1-01"})
    assert GAME.actors(state) == [0] and state.passes == 0
