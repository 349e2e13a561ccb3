"""The last round, scoring by the server, tie-breaks (spec: End)."""
import pytest

from domain.contract import EVERYONE, SYSTEM, MoveRejected
from domain.splendor import GAME
from tests.splendor.helpers import act, bonus, decide, moves_of, score, start, toks, with_player

TAKE = {"type": "take_gems", "colors": ["white", "blue", "green"]}
# sp-2-03: 2 points, costs G1 R4 K2.
BUY_2 = {"type": "buy", "card": "sp-2-03", "payment": {"green": 1, "red": 4, "black": 2}}


def _rich(state, seat, points, bought=()):
    return with_player(state, seat, points=points, tokens=toks(green=1, red=4, black=2), bought=list(bought))


def test_reaching_15_starts_the_last_round_which_is_played_out():
    state = _rich(start(), 0, points=13)
    _, state = act(state, 0, BUY_2)
    assert state.players[0].points == 15 and state.last_round
    assert GAME.actors(state) == [1] and GAME.view(state, 1)["last_round"] is True
    _, state = act(state, 1, TAKE)
    assert state.phase == "score" and GAME.actors(state) == [SYSTEM]


def test_the_system_scores_the_game_with_one_move():
    state = _rich(start(), 1, points=13)
    _, state = act(state, 0, TAKE)
    _, state = act(state, 1, BUY_2)  # the last seat reaches 15: the round is complete
    assert GAME.actors(state) == [SYSTEM]
    assert GAME.legal_moves(state, SYSTEM) == [{"type": "score_game"}]
    assert moves_of(state, 0) == moves_of(state, 1) == []
    for seat in (0, 1):
        with pytest.raises(MoveRejected) as info:
            decide(state, seat, TAKE, None)
        assert info.value.code == "not_your_turn"
    assert GAME.result(state) is None
    events, state = score(state)
    assert events == [{"type": "game_scored", "winners": [1], "scores": [0, 15], "cards_bought": [0, 1],
                       "nobles": [0, 0], "reason": "points", "tie_break": "none"}]
    assert GAME.actors(state) == [] and state.phase == "over"
    assert GAME.result(state) == {k: v for k, v in events[0].items() if k != "type"}
    assert GAME.view(state, 0)["result"]["winners"] == [1]
    with pytest.raises(MoveRejected) as info:
        decide(state, SYSTEM, {"type": "score_game"}, None)
    assert info.value.code == "game_over"


def test_three_seats_the_round_ends_after_the_last_seat():
    state = _rich(start(n=3), 1, points=13)
    _, state = act(state, 0, TAKE)
    _, state = act(state, 1, BUY_2)
    assert GAME.actors(state) == [2]
    _, state = act(state, 2, TAKE)
    assert GAME.actors(state) == [SYSTEM]
    assert state.turns == 3  # everyone had the same number of turns


def test_the_game_goes_on_below_15():
    state = _rich(start(), 0, points=12)
    _, state = act(state, 0, BUY_2)
    _, state = act(state, 1, TAKE)
    assert not state.last_round and GAME.actors(state) == [0]


def test_a_noble_counts_toward_15():
    state = with_player(start(), 0, points=12, bonuses=bonus(white=2, blue=3, black=3))
    events, state = act(state, 0, {"type": "buy", "card": "sp-1-02", "payment": {}})
    assert events[-1]["type"] == "noble_visited" and state.last_round


def test_system_cannot_act_during_play_and_seats_cannot_score():
    with pytest.raises(MoveRejected) as info:
        decide(start(), SYSTEM, {"type": "score_game"}, None)
    assert info.value.code == "not_your_turn"
    with pytest.raises(MoveRejected) as info:
        decide(start(), 0, {"type": "score_game"}, None)
    assert info.value.code == "illegal_move"


def _finish(p0, c0, p1, c1):
    """Seat 0 already has p0 points and c0 cards; seat 1 buys sp-2-03 (+2 points, +1 card)
    to end on p1 points with c1 cards. Returns the result."""
    state = with_player(start(), 0, points=p0, bought=[f"sp-1-{i + 20:02d}" for i in range(c0)])
    state = _rich(state, 1, points=p1 - 2, bought=[f"sp-1-{i + 30:02d}" for i in range(c1 - 1)])
    _, state = act(state, 0, TAKE)
    _, state = act(state, 1, BUY_2)
    _, state = score(state)
    return GAME.result(state)


def test_most_points_wins():
    result = _finish(16, 3, 15, 8)
    assert result["winners"] == [0] and result["scores"] == [16, 15] and result["tie_break"] == "none"


def test_tied_points_fewest_bought_cards_wins():
    result = _finish(15, 6, 15, 5)
    assert result["winners"] == [1] and result["cards_bought"] == [6, 5]
    assert result["tie_break"] == "fewest_cards"
    assert _finish(15, 4, 15, 5)["winners"] == [0]


def test_tied_points_and_cards_is_a_shared_win():
    result = _finish(15, 5, 15, 5)
    assert result["winners"] == [0, 1] and result["tie_break"] == "shared"


def test_the_finished_game_is_open_to_everyone():
    state = _rich(start(), 1, points=13)
    _, state = act(state, 0, TAKE)
    _, state = act(state, 1, BUY_2)
    _, state = score(state)
    assert GAME.view(state, EVERYONE)["decks"][0][0] == "sp-1-05"
