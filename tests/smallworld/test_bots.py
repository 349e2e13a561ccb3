"""The greedy bot uses every race's and power's own moves when they plainly help."""
import random

from domain.smallworld import GAME
from domain.smallworld.state import MARKERS, REINFORCE

from .helpers import make_state, mine

greedy = GAME.bots["greedy"]


def test_greedy_steals_an_artifact_within_reach():
    regions = {"T-2": mine(0, "ethereals", 3), "T-4": mine(1, "orcs", 2, marker="frostmourne")}
    state = make_state(regions=regions, players={0: {"race": "ethereals", "power": "farmer", "hand": 4},
                                                 1: {"race": "orcs", "power": "farmer"}})
    assert greedy(state, 0, random.Random(0))["type"] == "steal_artifact"


def test_greedy_bombs_and_buys_and_places_objectives_next_to_itself():
    bombs = make_state(step=MARKERS, regions={"T-2": mine(0, "goblins", 2), "T-1": mine(1, "orcs", 2)},
                       players={0: {"race": "goblins", "power": "farmer"}, 1: {"race": "orcs", "power": "farmer"}})
    assert greedy(bombs, 0, random.Random(0)) == {"type": "place_piece", "piece": "bomb", "region": "T-1"}
    humans = make_state(step=MARKERS, regions={"U-1": mine(0, "humans", 2)},
                        players={0: {"race": "humans", "power": "farmer"}})
    assert greedy(humans, 0, random.Random(0))["region"] == "U-2"
    buying = make_state(step=REINFORCE, regions={"T-1": mine(0, "forsaken", 2)}, forced=2,
                        players={0: {"race": "forsaken", "power": "farmer"}})
    assert greedy(buying, 0, random.Random(0)) == {"type": "buy_tokens", "count": 2}


def test_greedy_intimidates_a_weak_neighbour_before_attacking():
    regions = {"T-1": mine(0, "orcs", 1), "T-2": mine(1, "trolls", 2)}
    state = make_state(regions=regions, players={0: {"race": "orcs", "power": "intimidating", "hand": 6},
                                                 1: {"race": "trolls", "power": "farmer"}})
    assert greedy(state, 0, random.Random(0)) == {"type": "intimidate", "region": "T-2"}
