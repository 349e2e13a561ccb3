"""One test per special power of this issue."""
import pytest

from domain.contract import SYSTEM
from domain.smallworld import abilities, catalog
from domain.smallworld.state import SCORE, Conquest, Region

from .helpers import cost_of, make_state, mine, murloc, play

ISSUE_POWERS = set(catalog.POWERS)  # the whole box (issue 16)
ALL = ("T-1", "T-2", "T-3", "T-4", "T-5", "T-7", "U-1", "U-2")  # every land region


def test_the_powers_of_this_issue_are_registered():
    assert set(abilities.POWERS) == ISSUE_POWERS


def holding(power, regions=ALL, race="orcs", **kw):
    return make_state(step=SCORE, players={0: {"race": race, "power": power}},
                      regions={rid: mine(0, race, 1) for rid in regions} | kw.pop("extra", {}), **kw)


def bonus(state, key):
    return play(state, SYSTEM, {"type": "score_turn"})[1][0]["breakdown"].get(key, 0)


@pytest.mark.parametrize("power,expected", [
    ("farmer", 2),        # T-1, T-7 fields
    ("ranger", 2),        # T-2, U-1 forest
    ("herbalist", 2),     # T-4, U-2 hill
    ("swamp_walker", 1),  # T-5
    ("mountaineer", 1),   # T-3
    ("mining", 2),        # T-5, U-2 caverns
    ("fishing", 3),       # T-4, T-5, T-7 touch the lake
    ("explorer", 2),      # both islands
])
def test_region_bonus_powers(power, expected):
    assert bonus(holding(power), power) == expected


def test_explorer_counts_islands_not_regions():
    assert bonus(holding("explorer", regions=("T-1", "T-2", "T-3")), "explorer") == 1


def test_archaeologist_scores_each_artifact_and_place_held():
    extra = {"T-1": mine(0, "orcs", 1, marker="dark_portal"), "T-2": mine(0, "orcs", 1, marker="frostmourne"),
             "T-4": mine(1, "naga", 1, marker="karazhan")}
    assert bonus(holding("archaeologist", regions=("T-3",), extra=extra), "archaeologist") == 2


def scored_conquests(power, tokens):
    records = tuple(Conquest(i, race, seat, n, False) for i, (race, seat, n) in enumerate(tokens))
    return make_state(step=SCORE, players={0: {"race": "naga", "power": power}}, conquests=records)


def test_battle_master_scores_each_non_empty_conquest():
    state = scored_conquests("battle_master", [("murlocs", None, 1), (None, None, 0), ("orcs", 1, 3)])
    assert bonus(state, "battle_master") == 2


def test_enraged_scores_the_defenders_of_regions_held_by_2_or_more():
    state = scored_conquests("enraged", [("orcs", 1, 3), ("murlocs", None, 1), ("dwarves", 1, 2)])
    assert bonus(state, "enraged") == 5


def test_blacksmith_makes_every_conquest_1_cheaper_down_to_1():
    state = make_state(players={0: {"race": "orcs", "power": "blacksmith", "hand": 9}},
                       regions={"T-1": mine(0, "orcs", 1), "T-3": murloc()})
    assert cost_of(state, 0, "T-3") == 3 and cost_of(state, 0, "T-2") == 1
    assert cost_of(state, 0, "T-7") == 2  # travel 3 - 1


def test_sailing_pays_no_travel_for_entry_regions():
    state = make_state(players={0: {"race": "orcs", "power": "sailing", "hand": 9}},
                       regions={"T-2": mine(0, "orcs", 1)})
    assert cost_of(state, 0, "U-1") == 2
    first = make_state(players={0: {"race": "orcs", "power": "sailing", "hand": 9}})
    assert cost_of(first, 0, "T-1") == 2


def test_powers_stop_when_the_race_declines():
    state = holding("farmer", regions=())
    state = state.with_(regions=tuple(Region(0, "orcs", 1, True) if i in (0, 6) else r
                                      for i, r in enumerate(state.regions)),
                        players=(state.players[0]._replace(race=None, power=None, declined="orcs"),
                                 state.players[1]))
    assert play(state, SYSTEM, {"type": "score_turn"})[1][0]["breakdown"] == {"regions": 2}
