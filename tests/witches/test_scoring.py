"""Fire points with every witch and the Pygmy Queen, the Earth Witch variant, and spells."""
import random

import pytest

from domain.contract import SYSTEM
from domain.witches import GAME
from domain.witches.cards import AIR_WITCH, EARTH_WITCH, FIRE_WITCH, PYGMY_QUEEN, RED_CARDS, WATER_WITCH, WIZARDS
from domain.witches.scoring import find_spell, fire_points, raw_points, score_round
from domain.witches.state import Options

from .helpers import c, round_end

PLAIN = Options(70, 0, 10, False)
VARIANT = Options(70, 0, 10, True)


def reds(*values):
    return [c("red", v) for v in values]


@pytest.mark.parametrize("cards,points", [
    ([], 0),
    ([c("green", 5), c("yellow", 14), c("blue", 1)] + list(WIZARDS), 0),  # plain cards: nothing
    (reds(1), 1),
    (reds(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 12, 13, 14), 13),  # every red but the Fire Witch
    ([FIRE_WITCH], 0),  # she scores nothing herself
    (reds(1, 2, 3, 4, 5, 6, 7) + [FIRE_WITCH], 14),  # doubled
    (reds(1, 2, 3, 4, 5, 6, 7, 8) + [FIRE_WITCH], 15),  # 16 capped at 15
    (list(RED_CARDS), 15),
    ([WATER_WITCH], 5),
    ([PYGMY_QUEEN], 10),
    ([WATER_WITCH, PYGMY_QUEEN], 15),
    ([WATER_WITCH, AIR_WITCH], 0),
    ([PYGMY_QUEEN, AIR_WITCH], 0),
    ([AIR_WITCH] + reds(1, 2), 2),  # the Air Witch does not touch fire cards
    ([AIR_WITCH], 0),
    ([EARTH_WITCH], 0),  # nothing to take off: stays 0
    ([EARTH_WITCH] + reds(1, 2, 3, 4, 5, 6), 1),
    ([EARTH_WITCH, PYGMY_QUEEN] + reds(1, 2), 7),
    ([FIRE_WITCH, WATER_WITCH] + reds(1, 2), 9),  # the Fire Witch doubles only the red cards
    ([EARTH_WITCH, AIR_WITCH, WATER_WITCH, PYGMY_QUEEN, FIRE_WITCH] + reds(1, 2, 3, 4), 3),
])
def test_fire_points(cards, points):
    assert fire_points(cards, 10) == points


def test_pygmy_queen_option_5():
    assert fire_points([PYGMY_QUEEN], 5) == 5
    assert fire_points([PYGMY_QUEEN, WATER_WITCH, c("red", 1)], 5) == 11
    assert raw_points([PYGMY_QUEEN, AIR_WITCH], 5) == 0


def test_round_points_of_every_seat_are_added_to_the_totals():
    taken = [reds(1, 2, 3), [PYGMY_QUEEN], [EARTH_WITCH, WATER_WITCH]]
    points, totals = score_round(taken, [10, 20, 30], PLAIN, None, None)
    assert points == [3, 10, 0]
    assert totals == [13, 30, 30]


def test_earth_witch_variant_takes_the_rest_off_the_running_total():
    taken = [[EARTH_WITCH] + reds(1, 2), [c("yellow", 10)] + reds(3), []]
    points, totals = score_round(taken, [10, 10, 0], VARIANT, None, None)
    assert points == [-3, 1, 0]  # 2 fire points: 3 more come off seat 0's total
    assert totals == [7, 11, 0]


def test_earth_witch_variant_never_goes_below_zero_and_is_off_by_default():
    taken = [[EARTH_WITCH], [], []]
    assert score_round(taken, [2, 0, 0], VARIANT, None, None) == ([-2, 0, 0], [0, 0, 0])  # the change
    assert score_round(taken, [4, 0, 0], VARIANT, None, None) == ([-4, 0, 0], [0, 0, 0])
    assert score_round(taken, [2, 0, 0], PLAIN, None, None) == ([0, 0, 0], [2, 0, 0])


def test_earth_witch_variant_with_5_points_or_more_is_the_plain_rule():
    taken = [[EARTH_WITCH] + reds(1, 2, 3, 4, 5, 6, 7), [], []]
    assert score_round(taken, [20, 0, 0], VARIANT, None, None) == ([2, 0, 0], [22, 0, 0])


@pytest.mark.parametrize("extra,kind,amount", [
    ([WATER_WITCH], "water", 20),
    ([PYGMY_QUEEN], "pygmy", 25),
    ([WATER_WITCH, PYGMY_QUEEN], "great_fire", 30),
    ([WATER_WITCH, PYGMY_QUEEN, AIR_WITCH], "great_fire", 30),  # the caster's Air Witch is ignored
])
def test_spells(extra, kind, amount):
    taken = [[], list(RED_CARDS) + extra, [EARTH_WITCH], [AIR_WITCH]]
    spell = find_spell(taken)
    assert spell == (1, kind, amount)
    points, totals = score_round(taken, [0, 5, 0, 0], PLAIN, spell, None)
    assert points == [amount, 0, amount, amount]  # victims' witches do nothing
    assert totals == [amount, 5, amount, amount]


def test_spell_amounts_do_not_depend_on_the_pygmy_queen_option():
    assert find_spell([list(RED_CARDS) + [PYGMY_QUEEN], []]) == (0, "pygmy", 25)


def test_all_red_cards_without_water_witch_or_pygmy_queen_is_no_spell():
    assert find_spell([list(RED_CARDS) + [AIR_WITCH], [WATER_WITCH, PYGMY_QUEEN]]) is None
    assert fire_points(list(RED_CARDS), 10) == 15


def test_all_red_but_the_fire_witch_is_no_spell():
    assert find_spell([[r for r in RED_CARDS if r != FIRE_WITCH] + [WATER_WITCH, PYGMY_QUEEN]]) is None


def test_a_round_ends_with_the_system_scoring_it_through_decide():
    state = round_end(4, [reds(1, 2, 3), [PYGMY_QUEEN], [WATER_WITCH, AIR_WITCH], []], totals=[1, 2, 3, 4])
    assert GAME.actors(state) == [SYSTEM]
    assert GAME.legal_moves(state, SYSTEM) == [{"type": "score_round"}]
    events = GAME.decide(state, SYSTEM, {"type": "score_round"}, random.Random(5))
    assert events[0] == {"type": "round_scored", "round": 1, "points": [3, 10, 0, 0],
                         "totals": [4, 12, 3, 4], "spell": None}
    assert events[1]["type"] == "round_dealt" and events[1]["round"] == 2


def test_an_old_round_scored_event_with_unfloored_points_replays_to_the_real_change():
    import random
    from dataclasses import replace

    from domain.witches import GAME
    from domain.witches.evolve import evolve
    state = GAME.evolve(None, GAME.setup(GAME.default_options(), 3, random.Random(1))[0])
    state = replace(state, totals=(4, 0, 0))
    old = {"type": "round_scored", "round": 1, "points": [-5, 0, 0], "totals": [0, 0, 0], "spell": None}
    assert evolve(state, old).history[-1] == (-4, 0, 0)
