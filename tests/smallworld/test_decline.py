"""Decline: instead of conquering, one declined race per seat, a new combo next turn."""
from domain.smallworld import GAME
from domain.smallworld.state import PICK, SCORE, START, Region

from .helpers import R, cost_of, make_state, mine, play


def declining(**kw):
    regions = {"T-1": mine(0, "orcs", 4), "T-2": mine(0, "orcs", 2, wall=True), **kw.pop("regions", {})}
    players = {0: {"race": "orcs", "power": "farmer", "hand": 3, **kw.pop("p0", {})}}
    return make_state(step=START, regions=regions, players=players, **kw)


def test_decline_is_offered_at_the_start_of_an_expansion_turn():
    assert {"type": "decline"} in GAME.legal_moves(declining(), 0)


def test_declining_flips_one_token_per_region_and_returns_the_rest():
    state, events = play(declining(), 0, {"type": "decline"})
    assert events == [{"type": "declined", "seat": 0, "race": "orcs", "removed": None}]
    p = state.players[0]
    assert (p.race, p.power, p.hand, p.declined) == (None, None, 0, "orcs")
    assert state.regions[R("T-1")] == Region(0, "orcs", 1, True)
    assert state.regions[R("T-2")].wall  # walls stay
    assert "farmer" in state.power_discards  # the badge is discarded
    assert state.turn.step == SCORE  # no conquest this turn


def test_an_older_declined_race_leaves_the_map_first():
    state = declining(regions={"T-4": Region(0, "kobolds", 1, True, wall=True)}, p0={"declined": "kobolds"})
    state, events = play(state, 0, {"type": "decline"})
    assert events[0]["removed"] == "kobolds"
    assert state.regions[R("T-4")] == Region()
    shown = {r for r, _, _ in state.display}
    assert "kobolds" in set(state.race_pile) | shown and state.players[0].declined == "orcs"


def test_the_declining_turn_scores_the_declined_regions_only():
    state, _ = play(declining(), 0, {"type": "decline"})
    state, events = play(state, "system", {"type": "score_turn"})
    assert events[0]["breakdown"] == {"regions": 2}  # no farmer bonus although T-1 is fields


def test_next_turn_the_seat_picks_a_new_combo_and_conquers_as_a_first_conquest():
    state, _ = play(declining(display=(("naga", "sailing", 0),)), 0, {"type": "decline"})
    state, _ = play(state, "system", {"type": "score_turn"})
    state, _ = play(state, 1, {"type": "pick", "index": 0})
    state, _ = play(state, 1, {"type": "end_conquests"})
    state, _ = play(state, "system", {"type": "score_turn"})
    assert state.seat == 0 and state.turn.step == PICK
    state = state.with_(display=(("trolls", "mining", 0),))
    state, _ = play(state, 0, {"type": "pick", "index": 0})
    targets = {m["region"] for m in GAME.legal_moves(state, 0) if m["type"] == "conquer"}
    assert targets == {"T-1", "T-7", "U-1"}  # entry regions only, its own declined one too
    assert cost_of(state, 0, "T-1") == 2 + 1 + 1 - 1  # 1 declined token, travel, trolls
