"""In decline, the second half's races, powers and markers stop working for their seat (the
Well of Eternity, Forts and MarshDweller excepted, tested with them): a seat's new active race
cannot use what its declined race holds or was."""
import pytest

from domain.contract import SYSTEM
from domain.smallworld import GAME
from domain.smallworld.state import SCORE, START, Conquest, Region

from .helpers import R, cost_of, make_state, mine, murloc, play


def seat_with_declined(declined_race, marker=None, power="farmer", race="trolls"):
    """Seat 0: an active race (Trolls in T-1) and a declined one in T-2 (holding `marker`)."""
    regions = {"T-1": mine(0, race, 2), "T-2": Region(0, declined_race, 1, True, marker=marker), "U-2": murloc()}
    return make_state(regions=regions, players={0: {"race": race, "power": power, "hand": 8, "declined": declined_race},
                                                1: {"race": "dwarves", "power": "farmer"}})


@pytest.mark.parametrize("marker,use", [("ashes_of_alar", "ashes_of_alar"), ("doomhammer", "doomhammer"),
                                        ("frostmourne", "frostmourne")])
def test_a_declined_race_s_artifact_serves_no_one(marker, use):
    state = seat_with_declined("orcs", marker=marker)
    assert not [m for m in GAME.legal_moves(state, 0) if m.get("use") == use]
    assert cost_of(state, 0, "U-2", use) is None


@pytest.mark.parametrize("race,use", [("gnomes", "gnomes"), ("ethereals", "ethereals")])
def test_declined_race_abilities_are_gone(race, use):
    state = seat_with_declined(race)
    assert not [m for m in GAME.legal_moves(state, 0) if m.get("use") == use or m["type"] == "steal_artifact"]


def test_declined_forsaken_buy_nothing():
    state = seat_with_declined("forsaken")
    state = state.set_region(R("T-3"), mine(1, "dwarves", 2))
    state, _ = play(state, 0, {"type": "conquer", "region": "T-3"})
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.turn.step != "reinforce"


def test_a_declined_battleground_doubles_nothing():
    state = seat_with_declined("orcs", marker="battleground", race="trolls")
    state = state.with_(turn=state.turn._replace(step=SCORE, conquests=(
        Conquest(R("T-3"), "dwarves", 1, 1, False), Conquest(R("T-4"), "dwarves", 1, 1, False))))
    scored = play(state, SYSTEM, {"type": "score_turn"})[1][-1]
    assert scored["breakdown"]["faction"] == 1


def test_powers_with_moves_go_with_the_decline():
    for power in ("intimidating", "portal_mage", "championing"):
        state = make_state(step=START, regions={"T-1": mine(0, "orcs", 2), "T-2": mine(1, "trolls", 1)},
                           players={0: {"race": "orcs", "power": power}, 1: {"race": "trolls", "power": "farmer"}})
        state, _ = play(state, 0, {"type": "decline"})
        assert state.players[0].power is None and power in state.power_discards
