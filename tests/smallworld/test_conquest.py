"""Conquest: targets, the cost formula and its worked examples, losses, the final conquest
with the reinforcement die, ready your troops and abandoning, Murlocs."""
from domain.smallworld import GAME
from domain.smallworld.state import DEFEND, REDEPLOY, SCORE, Region

from .helpers import FixedRng, R, cost_of, make_state, mine, murloc, orcs, play, play_with, rejected


def end_turn(state):
    """End the conquests and put all of seat 0's tokens back in T-1."""
    state, _ = play(state, 0, {"type": "end_conquests"})
    if state.turn.step == REDEPLOY:
        state, _ = play(state, 0, {"type": "place", "region": "T-1", "count": state.players[0].hand})
    return state


def first_turn(**kw):
    return make_state(players=orcs(), **kw)


def holding(*rids, tokens=1, hand=10, **kw):
    regions = {rid: mine(0, "orcs", tokens) for rid in rids}
    regions.update(kw.pop("regions", {}))
    return make_state(players=orcs(hand), regions=regions, **kw)


# --- worked cost examples ---------------------------------------------------------------

def test_an_empty_entry_region_costs_3_on_the_first_conquest():
    assert cost_of(first_turn(), 0, "T-1") == 3
    assert cost_of(first_turn(), 0, "U-1") == 3


def test_the_first_conquest_must_be_an_entry_region():
    state = first_turn()
    assert cost_of(state, 0, "T-2") is None
    assert rejected(state, 0, {"type": "conquer", "region": "T-2"}) == "not_reachable"
    targets = {m["region"] for m in GAME.legal_moves(state, 0) if m["type"] == "conquer"}
    assert targets == {"T-1", "T-7", "U-1"}


def test_an_adjacent_empty_region_costs_2():
    assert cost_of(holding("T-1"), 0, "T-2") == 2


def test_a_mountain_adds_1_and_a_murloc_adds_1():
    assert cost_of(holding("T-1"), 0, "T-3") == 3
    assert cost_of(holding("T-1", regions={"T-3": murloc()}), 0, "T-3") == 4
    assert cost_of(holding("T-1", regions={"T-2": murloc()}), 0, "T-2") == 3


def test_every_defending_token_adds_1():
    state = holding("T-1", regions={"T-2": mine(1, "dwarves", 2)})
    assert cost_of(state, 0, "T-2") == 4


def test_own_declined_tokens_defend_too_and_a_wisp_wall_adds_1():
    state = holding("T-1", regions={"T-2": Region(0, "kobolds", 1, True, wall=True)})
    assert cost_of(state, 0, "T-2") == 2 + 1 + 1


def test_a_non_adjacent_entry_region_costs_1_travel_an_adjacent_one_does_not():
    assert cost_of(holding("T-2"), 0, "T-7") == 3
    assert cost_of(holding("T-2"), 0, "U-1") == 3
    assert cost_of(holding("T-2"), 0, "T-1") == 2


def test_other_regions_must_be_adjacent():
    assert cost_of(holding("T-1"), 0, "T-5") is None
    assert cost_of(holding("T-1"), 0, "U-2") is None


def test_lakes_and_seas_are_closed_to_all_but_the_naga():
    assert cost_of(holding("T-4"), 0, "T-6") is None


def test_the_cost_never_falls_below_1():
    state = make_state(players={0: {"race": "dwarves", "power": "blacksmith", "hand": 5}},
                       regions={"T-1": mine(0, "dwarves", 1)})
    assert cost_of(state, 0, "T-3") == 1  # 3 - 2 (dwarves) - 1 (blacksmith), floor 1


def test_a_conquest_needs_its_cost_in_hand():
    state = holding("T-1", hand=1)
    assert rejected(state, 0, {"type": "conquer", "region": "T-3"}) == "not_enough_tokens"


# --- resolution and losses --------------------------------------------------------------

def test_conquering_puts_the_cost_in_the_region():
    state, _ = play(first_turn(), 0, {"type": "conquer", "region": "T-1"})
    assert state.regions[R("T-1")] == Region(0, "orcs", 3)
    assert state.players[0].hand == 7


def test_an_active_defender_discards_1_token_and_redeploys_the_rest_at_turn_end():
    state = holding("T-1", regions={"T-2": mine(1, "dwarves", 3), "T-4": mine(1, "dwarves", 1),
                                    "U-1": mine(1, "dwarves", 1)})
    state = state.set_player(1, state.players[1]._replace(race="dwarves", power="ranger"))
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert state.players[1].hand == 2 and state.turn.defenders == (1,)
    state = end_turn(state)
    assert state.turn.step == DEFEND and GAME.actors(state) == [1]
    state, _ = play(state, 1, {"type": "place", "region": "U-1", "count": 2})
    assert state.regions[R("U-1")].tokens == 3 and state.turn.step == SCORE


def test_a_defender_with_one_region_left_gets_its_tokens_there_without_a_move():
    state = holding("T-1", regions={"T-2": mine(1, "dwarves", 4), "U-1": mine(1, "dwarves", 1)})
    state = state.set_player(1, state.players[1]._replace(race="dwarves", power="ranger"))
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    state = end_turn(state)
    assert state.regions[R("U-1")].tokens == 4 and state.turn.step == SCORE


def test_a_defender_with_no_region_left_keeps_its_tokens_in_hand():
    state = holding("T-1", regions={"T-2": mine(1, "dwarves", 4)})
    state = state.set_player(1, state.players[1]._replace(race="dwarves", power="ranger"))
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    state = end_turn(state)
    assert state.players[1].hand == 3 and state.turn.step == SCORE


def test_defenders_redeploy_in_seat_order_after_the_active_seat():
    regions = {"T-1": mine(2, "orcs", 1), "T-2": mine(0, "dwarves", 3), "T-4": mine(0, "dwarves", 1),
               "T-5": mine(0, "dwarves", 1), "T-3": mine(1, "naga", 3), "T-7": mine(1, "naga", 1),
               "U-1": mine(1, "naga", 1)}
    state = make_state(n=3, seat=2, regions=regions, players={
        2: {"race": "orcs", "power": "farmer", "hand": 20},
        0: {"race": "dwarves", "power": "ranger"}, 1: {"race": "naga", "power": "mining"}})
    state, _ = play(state, 2, {"type": "conquer", "region": "T-2"})
    state, _ = play(state, 2, {"type": "conquer", "region": "T-3"})
    assert state.turn.defenders == (0, 1)


def test_declined_and_murloc_defenders_are_all_discarded():
    state = holding("T-1", regions={"T-2": Region(1, "kobolds", 1, True), "T-3": murloc()})
    state = state.set_player(1, state.players[1]._replace(declined="kobolds"))
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert state.players[1].declined is None  # its last region: the banner goes back
    assert state.returned == ("kobolds",)  # under the pile: drawn last
    state, _ = play(state, 0, {"type": "conquer", "region": "T-3"})
    assert state.regions[R("T-3")] == Region(0, "orcs", 4)


def test_a_seat_may_conquer_its_own_declined_region_losing_that_token():
    state = holding("T-1", regions={"T-2": Region(0, "kobolds", 1, True), "T-4": Region(0, "kobolds", 1, True)})
    state = state.set_player(0, state.players[0]._replace(declined="kobolds"))
    assert cost_of(state, 0, "T-2") == 3
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert state.players[0].declined == "kobolds" and state.regions[R("T-2")].race == "orcs"


# --- final conquest ---------------------------------------------------------------------

def test_a_final_conquest_is_offered_when_1_to_3_tokens_short():
    state = holding("T-1", hand=1, regions={"T-2": mine(1, "dwarves", 2)})
    moves = GAME.legal_moves(state, 0)
    assert {"type": "final_conquest", "region": "T-2"} in moves  # cost 4, 3 short
    assert {"type": "final_conquest", "region": "T-3"} in moves  # cost 3
    assert {"type": "conquer", "region": "T-3"} not in moves


def test_the_final_conquest_names_its_target_before_the_die_and_the_roll_is_an_event():
    state = holding("T-1", hand=1)
    after, events = play_with(state, 0, {"type": "final_conquest", "region": "T-3"}, FixedRng(2))
    assert [e["type"] for e in events] == ["reinforcement_rolled", "region_conquered", "conquests_ended"]
    assert events[0] == {"type": "reinforcement_rolled", "seat": 0, "region": "T-3", "roll": 2,
                         "cost": 3, "hand": 1}
    assert after.regions[R("T-3")].race == "orcs" and after.players[0].hand == 0


def test_a_failed_final_conquest_ends_the_conquests_and_the_tokens_go_home():
    state = holding("T-1", hand=1)
    after, events = play_with(state, 0, {"type": "final_conquest", "region": "T-3"}, FixedRng(0))
    assert [e["type"] for e in events] == ["reinforcement_rolled", "conquest_failed", "conquests_ended"]
    assert after.regions[R("T-3")].race is None
    assert after.regions[R("T-1")].tokens == 2 and after.turn.step == SCORE


def test_a_final_conquest_cannot_be_used_with_enough_tokens_or_too_few():
    assert rejected(holding("T-1", hand=5), 0, {"type": "final_conquest", "region": "T-3"}) == "not_final_conquest"
    state = holding("T-1", hand=1, regions={"T-2": mine(1, "dwarves", 3)})  # cost 5, 4 short
    assert rejected(state, 0, {"type": "final_conquest", "region": "T-2"}) == "not_final_conquest"


# --- ready your troops, abandoning, redeployment -----------------------------------------

def test_ready_takes_back_all_tokens_but_one_per_region():
    state = holding("T-1", "T-2", tokens=3, hand=0, step="start")
    state, _ = play(state, 0, {"type": "ready"})
    assert state.players[0].hand == 4
    assert [state.regions[R(r)].tokens for r in ("T-1", "T-2")] == [1, 1]


def test_regions_may_be_abandoned_before_the_first_conquest_only():
    state = holding("T-1", "T-2", tokens=1, hand=4, step="start")
    state, _ = play(state, 0, {"type": "ready"})
    state, _ = play(state, 0, {"type": "abandon", "region": "T-2"})
    assert state.regions[R("T-2")] == Region() and state.players[0].hand == 5
    state, _ = play(state, 0, {"type": "conquer", "region": "T-3"})
    assert rejected(state, 0, {"type": "abandon", "region": "T-1"}) == "cannot_abandon"


def test_after_abandoning_everything_the_first_conquest_rule_applies_again():
    state = holding("T-1", tokens=1, hand=4, step="start")
    state, _ = play(state, 0, {"type": "ready"})
    state, _ = play(state, 0, {"type": "abandon", "region": "T-1"})
    assert cost_of(state, 0, "T-2") is None
    assert cost_of(state, 0, "T-1") == 3


def test_redeployment_moves_tokens_freely_leaving_one_per_region():
    state = holding("T-1", hand=6)
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})  # T-1: 1, T-2: 2, hand 4
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.turn.step == REDEPLOY and state.players[0].hand == 5
    moves = GAME.legal_moves(state, 0)
    assert len(moves) == 2 * 5 and {"type": "place", "region": "T-1", "count": 5} in moves
    state, _ = play(state, 0, {"type": "place", "region": "T-1", "count": 5})
    assert state.regions[R("T-1")].tokens == 6 and state.regions[R("T-2")].tokens == 1
    assert state.turn.step == SCORE


def test_with_one_region_the_redeployment_is_automatic():
    state, _ = play(first_turn(), 0, {"type": "conquer", "region": "T-1"})
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.regions[R("T-1")].tokens == 10 and state.turn.step == SCORE
