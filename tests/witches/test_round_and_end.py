"""The end of a round (scored by the system), the spell caster's choice, and the end of the game."""
import random
from dataclasses import replace

import pytest

from domain.contract import SYSTEM, MoveRejected
from domain.play import fold
from domain.witches import GAME
from domain.witches.cards import PYGMY_QUEEN, RED_CARDS, WATER_WITCH
from domain.witches.state import SCORING, SPELL_CHOICE

from .helpers import c, round_end

SCORE = {"type": "score_round"}


def reds(*values):
    return [c("red", v) for v in values]


def score(state, seed=0):
    events = GAME.decide(state, SYSTEM, SCORE, random.Random(seed))
    return fold(GAME, events, state), events


def test_after_the_last_trick_only_the_system_can_act():
    state = round_end(3, [reds(1), [], []])
    assert state.phase == SCORING
    assert GAME.actors(state) == [SYSTEM]
    for seat in range(3):
        assert GAME.legal_moves(state, seat) == []
        with pytest.raises(MoveRejected) as err:
            GAME.decide(state, seat, SCORE, random.Random())
        assert err.value.code == "not_your_turn"
    assert GAME.view(state, 0)["to_act"] == [SYSTEM]


def test_scoring_a_round_deals_the_next_with_the_next_dealer_and_direction():
    state = round_end(3, [reds(1, 2), [WATER_WITCH], []], totals=[3, 4, 5])
    state, events = score(state)
    assert [e["type"] for e in events] == ["round_scored", "round_dealt"]
    assert events[0]["points"] == [2, 5, 0] and events[0]["totals"] == [5, 9, 5]
    dealt = events[1]
    assert (dealt["round"], dealt["dealer"], dealt["pass_direction"]) == (2, 1, "right")
    assert state.round == 2 and GAME.actors(state) == [0, 1, 2]
    assert GAME.view(state, 0)["round_points"] == [[2, 5, 0]]


def test_the_deal_is_chance_written_into_the_event():
    state = round_end(3, [reds(1), [], []])
    _, a = score(state, seed=1)
    _, b = score(state, seed=2)
    assert a[1]["hands"] != b[1]["hands"]


def test_the_game_ends_after_a_round_in_which_someone_reaches_the_target():
    state = round_end(3, [reds(1, 2, 3), [], []], totals=[67, 10, 20])
    state, events = score(state)
    assert [e["type"] for e in events] == ["round_scored", "game_ended"]
    assert events[1] == {"type": "game_ended", "reason": "target_reached", "winners": [1], "scores": [70, 10, 20]}
    assert GAME.actors(state) == []
    assert GAME.result(state)["winners"] == [1]
    assert GAME.result(state)["scores"] == [70, 10, 20]
    with pytest.raises(MoveRejected) as err:
        GAME.decide(state, 0, {"type": "play", "card": c("red", 1)}, random.Random())
    assert err.value.code == "game_over"


def test_one_point_below_the_target_plays_on():
    state = round_end(3, [reds(1, 2), [], []], totals=[67, 10, 20])
    _, events = score(state)
    assert events[1]["type"] == "round_dealt"


def test_a_custom_target():
    state = round_end(3, [reds(1, 2), [], []], totals=[28, 10, 20], target_score=30)
    _, events = score(state)
    assert events[1]["reason"] == "target_reached"


def test_ties_for_the_lowest_total_share_the_win():
    state = round_end(4, [reds(1, 2, 3), [], [], [c("red", 4)]], totals=[67, 10, 20, 9])
    state, events = score(state)
    assert GAME.result(state)["winners"] == [1, 3]


def test_a_fixed_number_of_rounds_ends_the_game_whatever_the_scores():
    state = round_end(3, [reds(1, 2, 3), [], []], totals=[90, 10, 20], rounds=2)
    state, events = score(state)
    assert events[1]["type"] == "round_dealt"  # 93 is past 70 but only round 1 of 2 was played
    state = round_end(3, [[], [], []], totals=[5, 6, 5], rounds=2)
    state = replace(state, round=2)
    state, events = score(state)
    assert events[1] == {"type": "game_ended", "reason": "rounds_played", "winners": [0, 2], "scores": [5, 6, 5]}


def spell_state(totals, **opts):
    return round_end(3, [list(RED_CARDS) + [WATER_WITCH], [PYGMY_QUEEN], []], totals=totals, **opts)


def test_a_spell_that_does_not_end_the_game_is_scored_at_once():
    state = spell_state([30, 10, 20])
    assert state.phase == SCORING
    _, events = score(state)
    assert events[0]["points"] == [0, 20, 20]
    assert events[0]["spell"]["choice"] == "others"


def test_a_spell_that_would_end_the_game_waits_for_the_casters_choice():
    state = spell_state([30, 50, 20])
    assert state.phase == SPELL_CHOICE
    assert GAME.actors(state) == [0]
    assert GAME.legal_moves(state, 0) == [{"type": "choose_spell", "choice": "others"},
                                          {"type": "choose_spell", "choice": "self"}]
    for actor in (SYSTEM, 1):
        with pytest.raises(MoveRejected):
            GAME.decide(state, actor, SCORE, random.Random())
    with pytest.raises(MoveRejected) as err:
        GAME.decide(state, 0, {"type": "choose_spell", "choice": "nobody"}, random.Random())
    assert err.value.code == "invalid_move"
    # The caster takes the points off their own total: the game goes on.
    chose = fold(GAME, GAME.decide(state, 0, {"type": "choose_spell", "choice": "self"}, random.Random()), state)
    assert GAME.actors(chose) == [SYSTEM]
    after, events = score(chose)
    assert events[0]["points"] == [-20, 0, 0] and events[0]["totals"] == [10, 50, 20]
    assert events[0]["spell"] == {"caster": 0, "kind": "water", "points": 20, "choice": "self"}
    assert events[1]["type"] == "round_dealt"
    # Or gives them to the others: the game ends and the caster wins.
    chose = fold(GAME, GAME.decide(state, 0, {"type": "choose_spell", "choice": "others"}, random.Random()), state)
    after, events = score(chose)
    assert events[0]["totals"] == [30, 70, 40]
    assert GAME.result(after)["winners"] == [0]


def test_a_spell_on_self_never_goes_below_zero():
    state = spell_state([5, 60, 20])
    chose = fold(GAME, GAME.decide(state, 0, {"type": "choose_spell", "choice": "self"}, random.Random()), state)
    _, events = score(chose)
    assert events[0]["totals"] == [0, 60, 20]


def test_with_a_fixed_number_of_rounds_the_caster_is_not_asked():
    state = spell_state([30, 60, 20], rounds=5)
    assert state.phase == SCORING


def test_a_whole_round_where_one_seat_takes_every_trick_casts_the_great_fire_spell():
    from domain.witches.cards import DECK

    from .helpers import playing

    strong = list(RED_CARDS) + [c("green", v) for v in range(9, 15)]
    rest = [card for card in DECK if card not in strong]
    state = playing(3, [strong, rest[:20], rest[20:]], leader=0)
    state = replace(state, totals=(0, 60, 50))
    rng = random.Random(9)
    while GAME.actors(state) != [SYSTEM] and state.phase != SPELL_CHOICE:
        (seat,) = GAME.actors(state)
        state = fold(GAME, GAME.decide(state, seat, GAME.bots["random"](state, seat, rng), rng), state)
    assert state.tricks_won == (20, 0, 0)
    assert state.spell == (0, "great_fire", 30)
    assert GAME.actors(state) == [0]  # 60 + 30 would end the game: the caster chooses
    move = GAME.bots["careful"](state, 0, rng)
    assert move == {"type": "choose_spell", "choice": "others"}  # 0 against 90 and 80: a win
    state = fold(GAME, GAME.decide(state, 0, move, rng), state)
    state, events = score(state)
    assert events[0]["points"] == [0, 30, 30]
    assert GAME.result(state) == {"winners": [0], "scores": [0, 90, 80], "reason": "target_reached",
                                  "rounds_played": 1, "round_points": [[0, 30, 30]]}
