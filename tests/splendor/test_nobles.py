"""Nobles: checked at the end of every turn, bonuses only, one per turn, the player chooses
among several (spec: Nobles). Table nobles for 2 seats: sp-noble-01 (W3 U3 K3),
sp-noble-02 (G3 R3 K3), sp-noble-03 (W3 R3 K3)."""
import pytest

from domain.contract import MoveRejected
from domain.splendor import GAME
from tests.splendor.helpers import act, bonus, decide, moves_of, start, toks, with_player

BUY_WHITE = {"type": "buy", "card": "sp-1-02", "payment": {}}  # white bonus, free with 3 blue bonuses
TAKE = {"type": "take_gems", "colors": ["white", "blue", "green"]}


def test_a_noble_visits_when_bonuses_meet_its_requirement():
    state = with_player(start(), 0, bonuses=bonus(white=2, blue=3, black=3))
    events, state = act(state, 0, BUY_WHITE)
    assert [e["type"] for e in events] == ["card_bought", "noble_visited"]
    assert events[1] == {"type": "noble_visited", "seat": 0, "noble": "sp-noble-01"}
    player = state.players[0]
    assert player.points == 3 and GAME.view(state, 1)["players"][0]["nobles"] == ["sp-noble-01"]
    assert [n["id"] for n in GAME.view(state, 1)["nobles"]] == ["sp-noble-02", "sp-noble-03"]  # not replaced
    assert state.seat == 1 and state.phase == "play"


def test_tokens_never_count_for_nobles():
    state = with_player(start(), 0, tokens=toks(white=3, blue=3, black=3), bonuses=bonus(white=2, blue=3))
    events, state = act(state, 0, BUY_WHITE)
    assert [e["type"] for e in events] == ["card_bought"] and state.players[0].points == 0


def test_several_qualifying_nobles_the_player_chooses_one():
    state = with_player(start(), 0, bonuses=bonus(white=2, blue=3, red=3, black=3))
    events, state = act(state, 0, BUY_WHITE)
    assert [e["type"] for e in events] == ["card_bought"]
    assert state.phase == "choose_noble" and GAME.actors(state) == [0]
    assert moves_of(state, 0) == [{"type": "choose_noble", "noble": "sp-noble-01"},
                                  {"type": "choose_noble", "noble": "sp-noble-03"}]
    assert GAME.view(state, 1)["pending"] == {"seat": 0, "nobles": ["sp-noble-01", "sp-noble-03"]}
    with pytest.raises(MoveRejected) as info:
        decide(state, 0, TAKE, None)
    assert info.value.code == "must_choose_noble"
    with pytest.raises(MoveRejected) as info:
        decide(state, 0, {"type": "choose_noble", "noble": "sp-noble-02"}, None)
    assert info.value.code == "illegal_move"
    events, state = act(state, 0, {"type": "choose_noble", "noble": "sp-noble-03"})
    assert events == [{"type": "noble_visited", "seat": 0, "noble": "sp-noble-03"}]
    assert state.players[0].points == 3 and state.seat == 1


def test_one_noble_per_turn_the_other_may_come_at_the_end_of_a_later_turn():
    state = with_player(start(), 0, bonuses=bonus(white=2, blue=3, red=3, black=3))
    _, state = act(state, 0, BUY_WHITE)
    _, state = act(state, 0, {"type": "choose_noble", "noble": "sp-noble-03"})
    assert state.players[0].points == 3  # one noble only
    _, state = act(state, 1, TAKE)
    events, state = act(state, 0, {"type": "take_two", "color": "red"})  # any action
    assert [e["type"] for e in events] == ["gems_taken", "noble_visited"]
    assert events[1]["noble"] == "sp-noble-01" and state.players[0].points == 6


def test_nobles_come_after_the_tokens_are_returned():
    state = with_player(start(), 0, tokens=toks(red=4, black=4), bonuses=bonus(white=3, blue=3, black=3))
    events, state = act(state, 0, TAKE)
    assert [e["type"] for e in events] == ["gems_taken"] and state.phase == "return_tokens"
    events, state = act(state, 0, {"type": "return_tokens", "tokens": {"red": 1}})
    assert [e["type"] for e in events] == ["tokens_returned", "noble_visited"]
    assert state.players[0].points == 3 and state.seat == 1


def test_nobles_visit_only_the_player_whose_turn_ends():
    state = with_player(start(), 1, bonuses=bonus(white=3, blue=3, black=3))
    events, state = act(state, 0, TAKE)
    assert [e["type"] for e in events] == ["gems_taken"] and state.players[1].points == 0
    events, state = act(state, 1, TAKE)
    assert events[-1] == {"type": "noble_visited", "seat": 1, "noble": "sp-noble-01"}


def test_a_noble_that_is_gone_cannot_visit_again():
    state = with_player(start(), 0, bonuses=bonus(white=2, blue=3, black=3))
    state = with_player(state, 1, bonuses=bonus(white=3, blue=3, black=3))
    _, state = act(state, 0, BUY_WHITE)  # seat 0 takes sp-noble-01
    events, state = act(state, 1, TAKE)
    assert [e["type"] for e in events] == ["gems_taken"] and state.players[1].points == 0


def test_one_bonus_short_is_not_enough():
    state = with_player(start(), 0, bonuses=bonus(white=2, blue=3, black=3))  # sp-noble-01: W3 U3 K3
    events, state = act(state, 0, TAKE)
    assert [e["type"] for e in events] == ["gems_taken"] and state.players[0].points == 0


def test_more_bonuses_than_required_qualify():
    state = with_player(start(), 0, bonuses=bonus(white=5, blue=4, black=3))
    events, _ = act(state, 0, TAKE)
    assert events[-1] == {"type": "noble_visited", "seat": 0, "noble": "sp-noble-01"}
