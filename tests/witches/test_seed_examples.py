"""The seed's worked examples A-G (shared/seeds/witches.ko.txt), each as a test."""
import random

from domain.contract import SYSTEM
from domain.witches import GAME
from domain.witches.cards import AIR_WITCH, EARTH_WITCH, FIRE_WITCH, PYGMY_QUEEN, RED_CARDS, WATER_WITCH
from domain.witches.scoring import fire_points

from .helpers import c, round_end

PQ = 10  # the Pygmy Queen's points (spec default)


def reds(*values):
    return [c("red", v) for v in values]


def test_example_a_three_fire_cards_without_the_fire_witch_score_3():
    assert fire_points(reds(2, 5, 9), PQ) == 3


def test_example_b_six_fire_cards_with_the_fire_witch_score_10():
    # Five fire points, doubled; the Fire Witch herself scores nothing.
    assert fire_points(reds(1, 2, 3, 4, 5) + [FIRE_WITCH], PQ) == 10


def test_example_c_ten_fire_cards_with_the_fire_witch_are_capped_at_15():
    assert fire_points(reds(1, 2, 3, 4, 5, 6, 7, 8, 9) + [FIRE_WITCH], PQ) == 15


def test_example_d_three_fire_cards_water_and_earth_witch_score_3():
    assert fire_points(reds(3, 4, 5) + [WATER_WITCH, EARTH_WITCH], PQ) == 3


def test_example_e_three_fire_cards_with_fire_witch_and_earth_witch_score_0():
    # 2 fire points doubled to 4, less 5, never below 0.
    assert fire_points(reds(3, 4) + [FIRE_WITCH, EARTH_WITCH], PQ) == 0


def test_example_f_air_witch_cancels_water_witch_and_pygmy_queen():
    assert fire_points([WATER_WITCH, PYGMY_QUEEN, AIR_WITCH], PQ) == 0


def test_example_g_pygmy_spell_gives_everyone_else_25_and_their_witches_do_nothing():
    uwe = list(RED_CARDS) + [PYGMY_QUEEN]
    alexa = [AIR_WITCH, EARTH_WITCH]
    joe = [WATER_WITCH]
    state = round_end(3, [uwe, alexa, joe])
    assert state.spell == (0, "pygmy", 25)
    assert GAME.actors(state) == [SYSTEM]
    events = GAME.decide(state, SYSTEM, {"type": "score_round"}, random.Random(0))
    scored = events[0]
    assert scored["type"] == "round_scored"
    assert scored["points"] == [0, 25, 25]
    assert scored["totals"] == [0, 25, 25]
    assert scored["spell"] == {"caster": 0, "kind": "pygmy", "points": 25, "choice": "others"}
