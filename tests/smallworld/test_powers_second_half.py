"""The seven special powers of issue 16 (sources §3), each on a crafted state, with decline
and the markers §11 names for it (forts, watch towers, beasts, the champion)."""
from domain.contract import SYSTEM
from domain.smallworld import GAME
from domain.smallworld.state import CONQUER, SCORE, START, Region

from .helpers import R, build_map, cost_of, make_state, mine, murloc, play, rejected


def score(state):
    state = state.with_(turn=state.turn._replace(step=SCORE))
    return play(state, SYSTEM, {"type": "score_turn"})


def holding(power, regions, race="orcs", hand=0, **kw):
    players = {0: {"race": race, "power": power, "hand": hand}, **kw.pop("players", {})}
    return make_state(regions={**{rid: mine(0, race, t) for rid, t in regions.items()}, **kw.pop("extra", {})},
                      players=players, **kw)


# --- Beast Master ----------------------------------------------------------------------------

def test_beast_master_takes_a_beast_per_hill_at_the_start_of_its_turn():
    state = holding("beast_master", {"T-4": 1, "U-2": 2, "T-1": 1}, step=START)
    state, _ = play(state, 0, {"type": "ready"})
    p = state.players[0]
    assert (p.hand, p.beasts) == (1 + 2, 2)  # 1 token lifted from U-2, 2 beasts


def test_beasts_conquer_and_defend_like_tokens_and_are_lost_first():
    state = holding("beast_master", {"T-1": 1}, hand=4)
    state = state.set_player(0, state.players[0]._replace(beasts=2))
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})  # 2 tokens: the beasts go first
    assert state.regions[R("T-2")].beasts == 2 and state.players[0].beasts == 0
    attacker = state.set_player(1, state.players[1]._replace(race="trolls", power="farmer", hand=9))
    attacker = attacker.set_region(R("T-3"), mine(1, "trolls", 1)).with_(seat=1)
    assert cost_of(attacker, 1, "T-2") == 3  # 2 + 2 tokens (beasts count) - 1 Trolls
    after, _ = play(attacker, 1, {"type": "conquer", "region": "T-2"})
    assert (after.players[0].hand, after.players[0].beasts) == (2 + 1, 1)  # a beast was the loss


def test_old_beasts_go_at_the_next_start_and_with_decline():
    state = holding("beast_master", {"T-1": 3, "T-2": 1}, step=START)
    state = state.set_region(R("T-1"), mine(0, "orcs", 3, beasts=2)).set_region(R("T-2"), mine(0, "orcs", 1, beasts=1))
    after, _ = play(state, 0, {"type": "ready"})  # no hill: no new beast; T-2 held by a beast alone is emptied
    assert after.players[0].beasts == 0 and after.regions[R("T-2")] == Region()
    assert after.regions[R("T-1")].tokens == 1 and after.players[0].hand == 0
    declined, _ = play(state, 0, {"type": "decline"})
    assert declined.regions[R("T-1")] == Region(0, "orcs", 1, True) and declined.regions[R("T-2")] == Region()


# --- Championing ----------------------------------------------------------------------------

def test_the_champion_conquers_an_adjacent_region_for_1_token_whatever_defends_it():
    state = holding("championing", {"T-1": 1}, hand=3, extra={"T-3": Region(1, "dwarves", 4, fort=True)},
                    players={1: {"race": "dwarves", "power": "farmer"}})
    assert cost_of(state, 0, "T-3") == 8 and cost_of(state, 0, "T-3", "championing") == 1
    assert cost_of(state, 0, "T-7", "championing") is None  # adjacent only
    state, events = play(state, 0, {"type": "conquer", "region": "T-3", "use": "championing"})
    r = state.regions[R("T-3")]
    assert (r.race, r.tokens, r.champion, r.fort) == ("orcs", 1, True, False)
    assert cost_of(state, 0, "T-2", "championing") is None  # once a turn


def test_a_captured_champion_costs_its_owner_a_ransom_and_no_token():
    regions = {"T-1": mine(1, "trolls", 1), "T-2": mine(0, "orcs", 2, champion=True), "T-4": mine(0, "orcs", 1),
               "U-1": mine(0, "orcs", 1)}
    state = make_state(regions=regions, seat=1, players={0: {"race": "orcs", "power": "championing"},
                                                          1: {"race": "trolls", "power": "farmer", "hand": 9}})
    assert cost_of(state, 1, "T-2") == 2 + 2 + 1 - 1  # the champion defends as a token
    state, events = play(state, 1, {"type": "conquer", "region": "T-2"})
    assert events[0]["ransom"] == 1
    assert state.players[0].hand == 2 and state.players[0].coins == 4 and state.players[1].coins == 6
    assert not any(r.champion for r in state.regions) and state.players[0].champion  # back in its owner's hand
    state, _ = play(state, 1, {"type": "end_conquests"})  # seat 0 redeploys its tokens and the Champion
    state, _ = play(state, 1, {"type": "place", "region": "T-2", "count": state.players[1].hand})
    assert state.turn.defenders == (0,) and {"type": "place_champion", "region": "T-4"} in GAME.legal_moves(state, 0)
    assert rejected(state, 0, {"type": "place_champion", "region": "T-1"}) == "illegal_move"
    state, _ = play(state, 0, {"type": "place_champion", "region": "T-4"})
    assert state.regions[R("T-4")].champion and not state.players[0].champion
    state, _ = play(state, 0, {"type": "place", "region": "T-4", "count": 2})
    assert state.turn.defenders == () and state.regions[R("T-4")].tokens == 3


def test_a_ransomed_champion_goes_to_the_only_region_by_itself():
    regions = {"T-1": mine(1, "trolls", 1), "T-2": mine(0, "orcs", 1, champion=True), "U-1": mine(0, "orcs", 1)}
    state = make_state(regions=regions, seat=1, players={0: {"race": "orcs", "power": "championing"},
                                                          1: {"race": "trolls", "power": "farmer", "hand": 9}})
    state, _ = play(state, 1, {"type": "conquer", "region": "T-2"})
    state, _ = play(state, 1, {"type": "end_conquests"})
    state, _ = play(state, 1, {"type": "place", "region": "T-2", "count": state.players[1].hand})
    assert state.regions[R("U-1")].champion and state.regions[R("U-1")].tokens == 2


def test_the_champion_leaves_with_the_decline():
    state = holding("championing", {"T-1": 2}, step=START)
    state = state.set_region(R("T-1"), mine(0, "orcs", 2, champion=True))
    state, _ = play(state, 0, {"type": "decline"})
    assert not state.regions[R("T-1")].champion


# --- Defensive ----------------------------------------------------------------------------------

def test_defensive_raises_a_watch_tower_on_fields_where_it_holds_the_most_neighbours():
    state = holding("defensive", {"T-1": 1, "T-2": 1, "T-3": 1, "T-7": 1})
    state, events = score(state)
    assert events[0] == {"type": "defences_built", "seat": 0, "piece": "tower", "added": ["T-1"], "removed": []}
    assert state.regions[R("T-1")].tower and not state.regions[R("T-7")].tower  # T-7's one neighbour is a lake


def test_a_watch_tower_is_immune_to_conquest_and_powers():
    regions = {"T-2": mine(1, "orcs", 1), "T-1": mine(0, "dwarves", 1, tower=True)}
    state = make_state(regions=regions, seat=1, players={0: {"race": "dwarves", "power": "defensive"},
                                                          1: {"race": "orcs", "power": "intimidating", "hand": 9}})
    assert cost_of(state, 1, "T-1") is None
    assert not [m for m in GAME.legal_moves(state, 1) if m.get("region") == "T-1"]


def test_towers_come_down_where_the_majority_is_lost_and_with_the_decline():
    state = holding("defensive", {"T-1": 1}, extra={"T-1": mine(0, "orcs", 1, tower=True),
                                                      "T-2": mine(1, "trolls", 1), "T-3": mine(1, "trolls", 1)})
    state, events = score(state)
    assert events[0]["removed"] == ["T-1"] and not state.regions[R("T-1")].tower
    state = holding("defensive", {"T-1": 1}, extra={"T-1": mine(0, "orcs", 1, tower=True)}, step=START)
    state, _ = play(state, 0, {"type": "decline"})
    assert not state.regions[R("T-1")].tower


# --- Garrisoned ---------------------------------------------------------------------------------

def test_garrisoned_forts_every_region_and_they_stay_in_decline():
    state = holding("garrisoned", {"T-1": 1, "T-2": 2})
    state, events = score(state)
    assert events[0]["piece"] == "fort" and sorted(events[0]["added"]) == ["T-1", "T-2"]
    assert cost_of(state.set_player(1, state.players[1]._replace(race="trolls", power="farmer", hand=9))
                   .set_region(R("T-3"), mine(1, "trolls", 1)), 1, "T-2") == 2 + 2 + 1 - 1
    state = state.with_(turn=state.turn._replace(step=START), seat=0)
    state, _ = play(state, 0, {"type": "decline"})
    assert state.regions[R("T-1")].fort and state.regions[R("T-2")].fort


def test_forts_are_limited_to_10_and_go_when_the_region_is_emptied():
    extra = {rid: Region(1, "trolls", 1, fort=True) for rid in ("T-3", "T-4", "T-5", "T-7", "U-1", "U-2")}
    state = holding("garrisoned", {"T-1": 1, "T-2": 1}, extra=extra)
    import domain.smallworld.catalog as catalog
    old = catalog.SUPPLIES["forts"]
    catalog.SUPPLIES["forts"] = 7
    try:
        state2, events = score(state)
    finally:
        catalog.SUPPLIES["forts"] = old
    assert events[0]["added"] == ["T-1"]  # one left in the box
    state = holding("garrisoned", {"T-1": 2}, extra={"T-1": mine(0, "orcs", 2, fort=True)}, step=CONQUER, readied=True)
    state, _ = play(state, 0, {"type": "abandon", "region": "T-1"})
    assert not state.regions[R("T-1")].fort


# --- Intimidating -------------------------------------------------------------------------------

def intimidating(**extra):
    regions = {"T-1": mine(0, "orcs", 1), **extra}
    players = {0: {"race": "orcs", "power": "intimidating", "hand": 6},
               1: {"race": "trolls", "power": "farmer", "declined": "kobolds"}}
    return make_state(regions=regions, players=players)


def test_intimidating_moves_an_adjacent_token_into_another_region_of_its_race():
    state = intimidating(**{"T-2": mine(1, "trolls", 3), "U-1": mine(1, "trolls", 1)})
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "intimidate"]
    assert moves == [{"type": "intimidate", "region": "T-2", "to": "U-1"}]
    state, _ = play(state, 0, moves[0])
    assert state.regions[R("T-2")].tokens == 2 and state.regions[R("U-1")].tokens == 2
    assert cost_of(state, 0, "T-2") == 4


def test_intimidating_discards_a_token_with_nowhere_to_go_and_murlocs_always():
    state = intimidating(**{"T-2": mine(1, "trolls", 1), "T-3": murloc()})
    state, _ = play(state, 0, {"type": "intimidate", "region": "T-2"})
    assert state.regions[R("T-2")] == Region()  # emptied: the trolls lost it
    state, _ = play(state, 0, {"type": "intimidate", "region": "T-3"})
    assert state.regions[R("T-3")] == Region()


def test_a_wall_or_fort_goes_first_for_one_use_and_three_uses_a_turn():
    state = intimidating(**{"T-2": mine(1, "trolls", 2, wall=True, fort=True), "T-4": Region(1, "kobolds", 1, True),
                            "U-1": Region(1, "kobolds", 1, True)})
    for removed in ("wisp_wall", "fort"):
        state, events = play(state, 0, {"type": "intimidate", "region": "T-2"})
        assert events[0]["removed"] == removed
    state, _ = play(state, 0, {"type": "intimidate", "region": "T-2"})
    assert state.regions[R("T-2")].tokens == 1  # the declined race's other region is not the same race
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "intimidate"]


def test_intimidating_stacks_declined_tokens_and_stops_with_the_conquests():
    state = intimidating(**{"T-2": Region(1, "kobolds", 1, True), "U-1": Region(1, "kobolds", 1, True)})
    state, _ = play(state, 0, {"type": "intimidate", "region": "T-2", "to": "U-1"})
    assert state.regions[R("U-1")].tokens == 2 and state.regions[R("T-2")] == Region()
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert rejected(state, 0, {"type": "intimidate", "region": "T-3"}) in ("wrong_step", "not_your_turn")


def test_intimidation_spares_a_lights_hope_holder_and_counts_for_holy_light():
    state = intimidating(**{"T-2": mine(1, "trolls", 1), "T-7": mine(1, "trolls", 1, marker="lights_hope_chapel")})
    state = state.set_region(R("T-7"), mine(1, "trolls", 1, marker="lights_hope_chapel"))
    state, _ = play(state, 0, {"type": "intimidate", "region": "T-2", "to": "T-7"})
    assert state.regions[R("T-7")].tokens == 2
    lone = intimidating(**{"T-2": mine(1, "draenei", 1)})
    lone = lone.set_player(1, lone.players[1]._replace(race="draenei"))
    lone, _ = play(lone, 0, {"type": "intimidate", "region": "T-2"})
    assert lone.players[1].hand == 1 and lone.turn.defenders == (1,)


# --- MarshDweller ------------------------------------------------------------------------------

def marsh(declined=False):
    regions = {"T-3": mine(1, "trolls", 1), "T-5": Region(0, "orcs", 1, declined)}
    p0 = {"race": None if declined else "orcs", "power": None if declined else "marshdweller",
          "declined": "orcs" if declined else None, "declined_power": "marshdweller" if declined else None}
    return make_state(regions=regions, seat=1, players={0: p0, 1: {"race": "trolls", "power": "farmer", "hand": 9}})


def test_marshdweller_swamps_cost_opponents_1_coin_even_in_decline():
    for declined in (False, True):
        state, events = play(marsh(declined), 1, {"type": "conquer", "region": "T-5"})
        assert events[0]["tolls"] == [{"seat": 0, "coins": 1, "for": "marshdweller"}]
        assert (state.players[1].coins, state.players[0].coins) == (4, 6)


def test_the_marshdweller_badge_stays_with_the_declining_race():
    state = make_state(regions={"T-5": mine(0, "orcs", 2)}, step=START,
                       players={0: {"race": "orcs", "power": "marshdweller"}})
    state, _ = play(state, 0, {"type": "decline"})
    assert state.players[0].declined_power == "marshdweller" and "marshdweller" not in state.power_discards
    assert "marshdweller" not in [p for _, p, _ in state.display]


# --- Portal Mage -------------------------------------------------------------------------------

MAGIC = build_map({"U-2": {"magic"}})


def test_portal_mage_swaps_two_magic_regions_but_not_mountains_and_places():
    regions = {"T-2": mine(0, "orcs", 1), "T-4": mine(1, "trolls", 3, fort=True, marker="karazhan"),
               "U-2": mine(0, "orcs", 1, marker="frostmourne")}
    state = make_state(map_=MAGIC, regions=regions, players={0: {"race": "orcs", "power": "portal_mage", "hand": 3},
                                                             1: {"race": "trolls", "power": "farmer"}})
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "portal"]
    assert moves == [{"type": "portal", "a": "T-4", "b": "U-2"}]
    state, _ = play(state, 0, moves[0])
    a, b = state.regions[R("T-4")], state.regions[R("U-2")]
    assert (a.race, a.tokens, a.fort, a.marker) == ("orcs", 1, False, "karazhan")  # the place stays
    assert (b.race, b.tokens, b.fort, b.marker) == ("trolls", 3, True, "frostmourne")  # no artifact moves past a place
    assert state.turn.used.count("portal_mage") == 1


def test_twice_a_turn_and_never_into_an_aegis_or_tower():
    regions = {"T-4": mine(1, "trolls", 3), "U-2": mine(0, "orcs", 1)}
    state = make_state(map_=MAGIC, regions=regions, players={0: {"race": "orcs", "power": "portal_mage"},
                                                             1: {"race": "trolls", "power": "farmer"}})
    state, _ = play(state, 0, {"type": "portal", "a": "T-4", "b": "U-2"})
    state, _ = play(state, 0, {"type": "portal", "a": "T-4", "b": "U-2"})
    assert rejected(state, 0, {"type": "portal", "a": "T-4", "b": "U-2"}) == "illegal_move"
    guarded = state.set_region(R("T-4"), mine(1, "trolls", 3, marker="aegis_of_aggramar")).with_(turn=state.turn._replace(used=()))
    assert not [m for m in GAME.legal_moves(guarded, 0) if m["type"] == "portal"]


def test_portal_mage_ends_with_the_decline():
    state = make_state(map_=MAGIC, step=START, regions={"T-4": mine(0, "orcs", 1)},
                       players={0: {"race": "orcs", "power": "portal_mage"}})
    state, _ = play(state, 0, {"type": "decline"})
    assert state.players[0].power is None and "portal_mage" in state.power_discards


def test_a_watch_tower_shields_from_portals_airborne_assaults_and_the_champion():
    regions = {"T-4": mine(1, "trolls", 1, tower=True), "U-2": mine(0, "gnomes", 1), "T-2": mine(0, "gnomes", 1)}
    state = make_state(map_=MAGIC, regions=regions, players={0: {"race": "gnomes", "power": "portal_mage", "hand": 5},
                                                             1: {"race": "trolls", "power": "defensive"}})
    assert not [m for m in GAME.legal_moves(state, 0) if m.get("region") == "T-4" or m.get("a") == "T-4"]
    state = state.set_player(0, state.players[0]._replace(power="championing"))
    assert cost_of(state, 0, "T-4", "championing") is None and cost_of(state, 0, "T-4", "gnomes") is None
