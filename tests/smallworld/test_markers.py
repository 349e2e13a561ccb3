"""Artifacts and legendary places: the face-down marker on each island's spot, revealed on
entry, used by the active race that holds it; Dark Portal, Karazhan, Spirit Healer, Meeting
Stone and Frostmourne."""
import random

from domain.contract import SYSTEM
from domain.play import fold
from domain.smallworld import GAME, abilities, catalog
from domain.smallworld.state import REDEPLOY, SCORE

from .helpers import FixedRng, R, cost_of, make_state, mine, murloc, play, play_with, rejected

MARKERS = set(catalog.MARKERS)  # the whole box (issue 16)


def test_the_markers_of_this_issue_are_registered():
    assert set(abilities.MARKERS) == MARKERS


def test_setup_puts_one_face_down_marker_on_each_island_spot():
    for n in (2, 3, 4, 5):
        state = fold(GAME, GAME.setup({}, n, random.Random(n)))
        hidden = [i for i, r in enumerate(state.regions) if r.marker == "hidden"]
        assert len(hidden) == n
        assert sorted(state.map.island[i] for i in hidden) == list(range(n))
        assert all(state.map.has(i, "spot") for i in hidden)


def entering_spot(**kw):
    regions = {"T-4": mine(0, "orcs", 1), "T-5": murloc()._replace(marker="hidden")}
    return make_state(players={0: {"race": "orcs", "power": "farmer", "hand": 9}}, regions=regions, **kw)


def test_a_face_down_marker_is_revealed_on_entry_and_the_draw_is_in_the_event():
    state, events = play_with(entering_spot(), 0, {"type": "conquer", "region": "T-5"}, FixedRng("karazhan"))
    assert events[0]["revealed"] == "karazhan"
    assert state.regions[R("T-5")].marker == "karazhan"
    assert GAME.view(state, 1)["regions"][R("T-5")]["marker"] == "karazhan"


def test_the_hidden_marker_draw_skips_markers_already_on_the_map():
    state = entering_spot().set_region(R("U-1"), mine(1, "naga", 1, marker="karazhan"))
    for seed in range(20):
        _, events = play(state, 0, {"type": "conquer", "region": "T-5"}, seed=seed)
        assert events[0]["revealed"] in MARKERS - {"karazhan"}


def test_a_marker_changes_hands_with_its_region():
    state = make_state(players={0: {"race": "orcs", "power": "farmer", "hand": 9}},
                       regions={"T-4": mine(0, "orcs", 1), "T-5": mine(1, "naga", 1, marker="dark_portal")})
    state, events = play(state, 0, {"type": "conquer", "region": "T-5"})
    assert events[0]["revealed"] is None and state.regions[R("T-5")].marker == "dark_portal"


def score(state, key):
    state = state.with_(turn=state.turn._replace(step=SCORE))
    return play(state, SYSTEM, {"type": "score_turn"})[1][0]["breakdown"].get(key, 0)


def test_dark_portal_gives_2_coins_to_the_active_race_holding_it():
    state = make_state(players={0: {"race": "orcs", "power": "sailing"}, 1: {"declined": "naga"}},
                       regions={"T-1": mine(0, "orcs", 1, marker="dark_portal")})
    assert score(state, "dark_portal") == 2
    declined = state.set_region(0, mine(0, "orcs", 1, True, marker="dark_portal"))
    declined = declined.set_player(0, declined.players[0]._replace(race=None, power=None, declined="orcs"))
    assert score(declined, "dark_portal") == 0


def test_karazhan_scores_other_regions_of_its_terrain():
    regions = {"T-1": mine(0, "orcs", 1, marker="karazhan"), "T-7": mine(0, "orcs", 1),
               "T-2": mine(0, "orcs", 1)}
    state = make_state(players={0: {"race": "orcs", "power": "sailing"}}, regions=regions)
    assert score(state, "karazhan") == 1  # T-7 is fields like T-1


def test_spirit_healer_adds_a_token_at_the_redeployment_if_the_tray_has_one():
    regions = {"T-1": mine(0, "orcs", 3, marker="spirit_healer"), "T-2": mine(0, "orcs", 1)}
    state = make_state(players={0: {"race": "orcs", "power": "sailing", "hand": 2}}, regions=regions)
    after, events = play(state, 0, {"type": "end_conquests"})
    assert events[0]["extra_tokens"] == 1
    assert after.turn.step == REDEPLOY and after.players[0].hand == 2 + 2 + 1
    full = state.set_player(0, state.players[0]._replace(hand=7))  # 11 orcs in play: none left
    assert play(full, 0, {"type": "end_conquests"})[1][0]["extra_tokens"] == 0


def test_meeting_stone_waives_the_travel_cost():
    state = make_state(players={0: {"race": "orcs", "power": "farmer", "hand": 9}},
                       regions={"T-2": mine(0, "orcs", 1, marker="meeting_stone")})
    assert cost_of(state, 0, "U-1") == 2 and cost_of(state, 0, "T-7") == 2


def test_frostmourne_makes_one_conquest_per_turn_2_cheaper():
    state = make_state(players={0: {"race": "orcs", "power": "farmer", "hand": 9}},
                       regions={"T-1": mine(0, "orcs", 1, marker="frostmourne"), "T-3": murloc()})
    assert cost_of(state, 0, "T-3", use="frostmourne") == 2  # 4 - 2
    assert cost_of(state, 0, "T-2", use="frostmourne") == 1  # 2 - 2, floor 1
    moves = GAME.legal_moves(state, 0)
    assert {"type": "conquer", "region": "T-3", "use": "frostmourne"} in moves
    state, _ = play(state, 0, {"type": "conquer", "region": "T-3", "use": "frostmourne"})
    assert state.players[0].hand == 7 and state.turn.used == ("frostmourne",)
    assert all("use" not in m for m in GAME.legal_moves(state, 0))
    assert rejected(state, 0, {"type": "conquer", "region": "T-2", "use": "frostmourne"}) == "cannot_use"


def test_frostmourne_needs_its_region_held_by_the_active_race():
    state = make_state(players={0: {"race": "orcs", "power": "farmer", "hand": 9}},
                       regions={"T-1": mine(0, "orcs", 1), "T-4": mine(1, "naga", 1, marker="frostmourne")})
    assert cost_of(state, 0, "T-2", use="frostmourne") is None


# --- markers that move: the Heart of Azeroth ------------------------------------------------

def heart_turn():
    """Seat 0 (orcs) holds the Heart in T-1 and ends its conquests; seat 1's active naga hold
    T-3 (next to T-1), seat 2's declined kobolds hold T-2."""
    regions = {"T-1": mine(0, "orcs", 1, marker="heart_of_azeroth"), "T-4": mine(0, "orcs", 1),
               "T-5": mine(0, "orcs", 1, marker="dark_portal"),
               "T-3": mine(1, "naga", 1), "T-2": mine(2, "kobolds", 1, True)}
    players = {0: {"race": "orcs", "power": "farmer"}, 1: {"race": "naga", "power": "mining", "coins": 3},
               2: {"declined": "kobolds"}}
    return make_state(n=3, regions=regions, players=players)


def test_the_owner_places_a_moving_marker_at_the_end_of_its_turn():
    state, _ = play(heart_turn(), 0, {"type": "end_conquests"})
    assert state.turn.step == "markers" and GAME.actors(state) == [0]
    moves = GAME.legal_moves(state, 0)
    # its own region (stay) or a region without another marker; not T-5 (Dark Portal)
    assert {m["region"] for m in moves} == {"T-1", "T-4"}
    assert rejected(state, 0, {"type": "move_marker", "marker": "heart_of_azeroth", "region": "T-5"}) == "illegal_move"
    state, events = play(state, 0, {"type": "move_marker", "marker": "heart_of_azeroth", "region": "T-4"})
    assert events == [{"type": "marker_moved", "seat": 0, "marker": "heart_of_azeroth", "from": "T-1", "to": "T-4"}]
    assert state.regions[R("T-4")].marker == "heart_of_azeroth" and state.regions[R("T-1")].marker is None
    assert state.turn.step == SCORE


def test_opponents_active_races_next_to_the_heart_pay_its_owner_1_coin():
    state, _ = play(heart_turn(), 0, {"type": "end_conquests"})
    state, _ = play(state, 0, {"type": "move_marker", "marker": "heart_of_azeroth", "region": "T-1"})
    state, events = play(state, SYSTEM, {"type": "score_turn"})
    assert events[0]["payments"] == [{"seat": 1, "coins": 1}]  # declined kobolds do not pay
    assert events[0]["breakdown"]["heart_of_azeroth"] == 1
    assert state.players[1].coins == 2 and state.players[0].coins == 5 + events[0]["gained"]
    # payments are public, totals are not
    assert GAME.redact(events[0], 2) == {"type": "turn_scored", "seat": 0, "payments": [{"seat": 1, "coins": 1}]}


def test_a_seat_without_coins_pays_nothing():
    state = heart_turn()
    state = state.set_player(1, state.players[1]._replace(coins=0)).with_(turn=state.turn._replace(step=SCORE))
    _, events = play(state, SYSTEM, {"type": "score_turn"})
    assert events[0]["payments"] == [] and "heart_of_azeroth" not in events[0]["breakdown"]


def test_markers_of_a_declined_race_do_not_move():
    state = heart_turn().set_region(R("T-2"), mine(2, "kobolds", 1, True, marker="heart_of_azeroth"))
    state = state.set_region(R("T-1"), mine(0, "orcs", 1))
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.turn.step == SCORE
