"""One test (or more) per race of this issue."""
from domain.contract import SYSTEM
from domain.smallworld import GAME, abilities, catalog
from domain.smallworld.state import SCORE, Conquest, Region

from .helpers import R, cost_of, make_state, mine, murloc, play, rejected

ISSUE_RACES = set(catalog.RACES)  # the whole box (issue 16)


def test_the_races_of_this_issue_are_registered():
    assert set(abilities.RACES) == ISSUE_RACES


def with_race(race, power="sailing", regions=(), hand=10, **kw):
    return make_state(players={0: {"race": race, "power": power, "hand": hand}},
                      regions={rid: mine(0, race, 1) for rid in regions} | kw.pop("extra", {}), **kw)


def breakdown(state):
    state = state.with_(turn=state.turn._replace(step=SCORE))
    return play(state, SYSTEM, {"type": "score_turn"})[1][0]["breakdown"]


def test_blood_elves_score_1_per_magic_region():
    assert breakdown(with_race("blood_elves", regions=("T-4", "T-2")))["blood_elves"] == 1


def test_dwarves_pay_2_less_for_mountains():
    assert cost_of(with_race("dwarves", regions=("T-1",)), 0, "T-3") == 1  # 3 - 2
    state = with_race("dwarves", regions=("T-1",), extra={"T-3": Region(1, "orcs", 2)})
    assert cost_of(state, 0, "T-3") == 3  # 5 - 2
    assert cost_of(with_race("dwarves", regions=("T-1",)), 0, "T-2") == 2


def test_kobolds_attack_caverns_as_adjacent_and_may_start_there_without_travel():
    state = with_race("kobolds")
    assert cost_of(state, 0, "T-5") == 2 and cost_of(state, 0, "U-2") == 2
    assert cost_of(with_race("kobolds", regions=("T-1",)), 0, "U-2") == 2
    assert cost_of(with_race("orcs"), 0, "T-5") is None


def test_naga_conquer_lakes_and_may_start_there():
    assert cost_of(with_race("naga"), 0, "T-6") == 2  # first conquest on a lake
    assert cost_of(with_race("naga", regions=("T-4",)), 0, "T-6") == 2
    assert cost_of(with_race("naga", regions=("U-1",)), 0, "T-6") is None  # later: adjacent only


def test_declined_naga_stay_in_lakes():
    state = with_race("naga", regions=("T-6", "T-4"), step="start")
    state, _ = play(state, 0, {"type": "decline"})
    assert state.regions[R("T-6")] == Region(0, "naga", 1, True)


def test_night_elves_pay_1_less_for_forests_and_raise_a_wisp_wall():
    state = with_race("night_elves", regions=("T-1",))
    assert cost_of(state, 0, "T-2") == 1
    state, events = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert events[0]["wall"] and state.regions[R("T-2")].wall
    assert cost_of(state.with_(players=(state.players[0]._replace(race="orcs", power="farmer"),
                                        state.players[1])), 0, "T-2") is None  # own region
    # the wall defends: another race pays 2 + 1 token + 1 wall
    other = make_state(players={1: {"race": "orcs", "power": "farmer", "hand": 9}}, seat=1,
                       regions={"T-1": mine(1, "orcs", 1), "T-2": state.regions[R("T-2")]})
    assert cost_of(other, 1, "T-2") == 2 + 1 + 1


def test_wisp_walls_are_limited_to_nine(monkeypatch):
    from domain.smallworld import catalog, query
    walls = {rid: Region(1, "night_elves", 1, True, wall=True) for rid in ("T-3", "T-4", "T-5", "T-7", "U-1", "U-2")}
    state = with_race("night_elves", regions=("T-1",), extra=walls)
    assert catalog.SUPPLIES["wisp_walls"] == 9 and query.walls_left(state) == 3
    monkeypatch.setitem(catalog.SUPPLIES, "wisp_walls", 6)  # as if 9 stood on a larger map
    assert query.walls_left(state) == 0
    _, events = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert events[0]["wall"] is False


def test_night_elf_walls_stay_when_they_decline_and_go_when_the_region_is_conquered():
    state = with_race("night_elves", regions=("T-1",), step="start",
                      extra={"T-2": Region(0, "night_elves", 2, wall=True)})
    state, _ = play(state, 0, {"type": "decline"})
    assert state.regions[R("T-2")].wall
    attacker = make_state(players={1: {"race": "orcs", "power": "farmer", "hand": 9}}, seat=1,
                          regions={"T-4": mine(1, "orcs", 1), "T-2": state.regions[R("T-2")]})
    attacker, _ = play(attacker, 1, {"type": "conquer", "region": "T-2"})
    assert not attacker.regions[R("T-2")].wall


def test_orcs_gain_1_per_alliance_region_conquered_on_top_of_the_faction_bonus():
    records = (Conquest(1, "dwarves", 1, 1, False), Conquest(2, "dwarves", 1, 1, False),
               Conquest(3, "naga", 2, 1, False))
    state = make_state(step=SCORE, players={0: {"race": "orcs", "power": "sailing"}}, conquests=records)
    bd = breakdown(state)
    assert bd["orcs"] == 2 and bd["faction"] == 1


def test_trolls_pay_1_less_for_non_empty_regions():
    state = with_race("trolls", regions=("T-1",), extra={"T-3": murloc()})
    assert cost_of(state, 0, "T-3") == 3  # 2 + mountain + murloc - 1
    assert cost_of(state, 0, "T-2") == 2


def test_worgen_choose_a_form_at_the_start_of_each_turn():
    state = with_race("worgen", regions=("T-1",), step="start")
    moves = GAME.legal_moves(state, 0)
    assert {"type": "ready", "form": "human"} in moves and {"type": "ready", "form": "worgen"} in moves
    assert {"type": "ready"} not in moves
    human, _ = play(state, 0, {"type": "ready", "form": "human"})
    assert human.players[0].coins == 7 and cost_of(human, 0, "T-2") == 2
    wolf, _ = play(state, 0, {"type": "ready", "form": "worgen"})
    assert wolf.players[0].coins == 4 and cost_of(wolf, 0, "T-3") == 2  # 3 - 1


def test_worgen_form_needs_a_coin_and_other_races_have_no_form():
    poor = make_state(step="start", players={0: {"race": "worgen", "power": "sailing", "coins": 0}},
                      regions={"T-1": mine(0, "worgen", 1)})
    assert rejected(poor, 0, {"type": "ready", "form": "worgen"}) == "illegal_move"
    orcs = with_race("orcs", regions=("T-1",), step="start")
    assert rejected(orcs, 0, {"type": "ready", "form": "human"}) == "illegal_move"
