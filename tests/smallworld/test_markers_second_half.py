"""The artifacts and legendary places of issue 16 (sources §4): Aegis of Aggramar, Ashes of
Al'ar, Doomhammer, Battleground, Light's Hope Chapel, Well of Eternity; with decline."""
from domain.contract import SYSTEM
from domain.smallworld import GAME
from domain.smallworld.state import MARKERS, SCORE, Conquest, Region

from .helpers import FixedRng, R, cost_of, make_state, mine, murloc, play, play_with


def score(state):
    state = state.with_(turn=state.turn._replace(step=SCORE))
    return play(state, SYSTEM, {"type": "score_turn"})


def breakdown(state):
    return next(e for e in score(state)[1] if e["type"] == "turn_scored")["breakdown"]


def attacker(regions, race="orcs", power="farmer", hand=9, **p1):
    """Seat 1 attacks; seat 0 holds the marker."""
    return make_state(regions=regions, seat=1, players={0: {"race": "dwarves", "power": "farmer"},
                                                         1: {"race": race, "power": power, "hand": hand, **p1}})


# --- Aegis of Aggramar -------------------------------------------------------------------------

def test_the_aegis_owner_places_it_at_the_end_of_each_turn():
    regions = {"T-1": mine(0, "orcs", 1, marker="aegis_of_aggramar"), "T-2": mine(0, "orcs", 1)}
    state = make_state(regions=regions, players={0: {"race": "orcs", "power": "farmer", "hand": 0}})
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.turn.step == MARKERS
    state, _ = play(state, 0, {"type": "move_marker", "marker": "aegis_of_aggramar", "region": "T-2"})
    assert state.regions[R("T-2")].marker == "aegis_of_aggramar" and state.turn.step == SCORE


def test_the_aegis_region_costs_an_attacker_2_coins_to_its_owner_and_shields_from_powers():
    regions = {"T-1": mine(1, "orcs", 1), "T-2": mine(0, "dwarves", 1, marker="aegis_of_aggramar")}
    state, events = play(attacker(regions), 1, {"type": "conquer", "region": "T-2"})
    assert events[0]["tolls"] == [{"seat": 0, "coins": 2, "for": "aegis_of_aggramar"}]
    assert (state.players[1].coins, state.players[0].coins) == (3, 7)
    assert state.regions[R("T-2")].marker == "aegis_of_aggramar"  # it changes hands
    poor = attacker(regions, coins=1)
    assert cost_of(poor, 1, "T-2") is None
    bully = attacker(regions, power="intimidating")
    assert not [m for m in GAME.legal_moves(bully, 1) if m["type"] == "intimidate"]


def test_an_aegis_in_a_declined_region_shields_nothing():
    regions = {"T-1": mine(1, "orcs", 1), "T-2": Region(0, "dwarves", 1, True, marker="aegis_of_aggramar")}
    state = attacker(regions)
    state = state.set_player(0, state.players[0]._replace(race=None, power=None, declined="dwarves"))
    _, events = play(state, 1, {"type": "conquer", "region": "T-2"})
    assert "tolls" not in events[0]


# --- Ashes of Al'ar ----------------------------------------------------------------------------

def test_ashes_conquer_any_region_as_though_adjacent_once_a_turn():
    regions = {"T-1": mine(0, "orcs", 1, marker="ashes_of_alar"), "U-2": murloc()}
    state = make_state(regions=regions, players={0: {"race": "orcs", "power": "farmer", "hand": 6}})
    assert cost_of(state, 0, "U-2") is None and cost_of(state, 0, "U-2", "ashes_of_alar") == 3
    assert cost_of(state, 0, "T-7") == 3 and cost_of(state, 0, "T-7", "ashes_of_alar") == 2  # no travel
    state, _ = play(state, 0, {"type": "conquer", "region": "U-2", "use": "ashes_of_alar"})
    assert cost_of(state, 0, "T-7", "ashes_of_alar") is None


# --- Doomhammer ---------------------------------------------------------------------------------

def test_doomhammer_conquers_any_region_with_1_token_after_paying_its_owner_2():
    regions = {"T-1": mine(1, "orcs", 1, marker="doomhammer"), "U-2": mine(0, "dwarves", 4)}
    state = attacker(regions)
    assert cost_of(state, 1, "U-2", "doomhammer") == 1
    state, events = play(state, 1, {"type": "conquer", "region": "U-2", "use": "doomhammer"})
    assert events[0]["tolls"] == [{"seat": 0, "coins": 2, "for": "doomhammer"}] and events[0]["tokens"] == 1
    assert (state.players[1].coins, state.players[0].coins) == (3, 7)


def test_doomhammer_pays_the_bank_for_an_ownerless_region_and_needs_2_coins():
    regions = {"T-1": mine(1, "orcs", 1, marker="doomhammer"), "U-2": murloc()}
    state, events = play(attacker(regions), 1, {"type": "conquer", "region": "U-2", "use": "doomhammer"})
    assert events[0]["tolls"] == [{"seat": None, "coins": 2, "for": "doomhammer"}] and state.players[1].coins == 3
    assert cost_of(attacker(regions, coins=1), 1, "U-2", "doomhammer") is None


# --- Battleground -------------------------------------------------------------------------------

def beaten(race, *conquests, marker="battleground", declined=False):
    regions = {"T-1": mine(0, race, 1, marker=marker)}
    state = make_state(regions=regions, players={0: {"race": race, "power": "sailing"}},
                       conquests=tuple(Conquest(R(r), d, 1, 1, declined) for r, d in conquests))
    return breakdown(state).get("faction", 0)


def test_the_battleground_counts_a_race_twice_when_it_lost_2_regions():
    assert beaten("orcs", ("T-2", "dwarves"), ("T-3", "dwarves")) == 2
    assert beaten("orcs", ("T-2", "dwarves"), ("T-3", "dwarves"), marker=None) == 1
    assert beaten("orcs", ("T-2", "dwarves"), ("T-3", "dwarves"), ("T-4", "dwarves")) == 2  # twice at most


def test_a_neutral_race_on_the_battleground_fights_for_the_side_that_pays_best():
    assert beaten("kobolds", ("T-2", "dwarves"), ("T-3", "orcs"), ("T-4", "orcs")) == 2  # as Alliance
    assert beaten("kobolds", ("T-2", "dwarves"), ("T-3", "orcs"), marker=None) == 0


# --- Light's Hope Chapel -----------------------------------------------------------------------

def test_the_chapel_holder_loses_no_token_even_when_the_chapel_falls():
    regions = {"T-1": mine(1, "orcs", 1), "T-2": mine(0, "dwarves", 2, marker="lights_hope_chapel"),
               "T-3": mine(0, "dwarves", 2)}
    state, _ = play(attacker(regions), 1, {"type": "conquer", "region": "T-3"})
    assert state.players[0].hand == 2
    state, _ = play(state, 1, {"type": "conquer", "region": "T-2"})
    assert state.players[0].hand == 4  # one last time


def test_a_declined_chapel_holder_is_not_spared():
    regions = {"T-1": mine(1, "orcs", 1), "T-2": Region(0, "dwarves", 1, True, marker="lights_hope_chapel"),
               "T-3": mine(0, "trolls", 2)}
    state = attacker(regions)
    state = state.set_player(0, state.players[0]._replace(race="trolls", declined="dwarves"))
    state, _ = play(state, 1, {"type": "conquer", "region": "T-3"})
    assert state.players[0].hand == 1  # the chapel is held by the declined race only


# --- Well of Eternity ----------------------------------------------------------------------------

def test_the_well_flows_to_its_island_lake_when_revealed():
    regions = {"T-4": mine(0, "orcs", 1), "T-5": murloc()._replace(marker="hidden")}
    state = make_state(regions=regions, players={0: {"race": "orcs", "power": "farmer", "hand": 9}})
    state, events = play_with(state, 0, {"type": "conquer", "region": "T-5"}, FixedRng("well_of_eternity"))
    assert events[0]["revealed"] == "well_of_eternity" and events[0]["moved_to"] == "T-6"
    assert state.regions[R("T-6")].marker == "well_of_eternity" and state.regions[R("T-5")].marker is None


def test_on_an_island_without_water_another_place_is_drawn():
    regions = {"U-1": mine(0, "orcs", 1), "U-2": murloc()._replace(marker="hidden")}
    state = make_state(regions=regions, players={0: {"race": "orcs", "power": "farmer", "hand": 9}})
    state, events = play_with(state, 0, {"type": "conquer", "region": "U-2"}, FixedRng("well_of_eternity", "karazhan"))
    assert events[0]["revealed"] == "karazhan" and state.regions[R("U-2")].marker == "karazhan"


def test_the_well_pays_2_to_the_race_with_most_regions_around_it_even_in_decline():
    well = {"T-6": Region(marker="well_of_eternity")}
    state = make_state(regions={**well, "T-4": mine(0, "orcs", 1), "T-5": mine(0, "orcs", 1), "T-7": mine(1, "trolls", 1)},
                       players={0: {"race": "orcs", "power": "farmer"}, 1: {"race": "trolls", "power": "farmer"}})
    assert breakdown(state)["well_of_eternity"] == 2
    tie = state.set_region(R("T-5"), mine(1, "trolls", 1))
    assert "well_of_eternity" not in breakdown(tie)
    gone = make_state(regions={**well, "T-4": Region(0, "orcs", 1, True)}, players={0: {"declined": "orcs"}}, declined=True)
    assert breakdown(gone)["well_of_eternity"] == 2
