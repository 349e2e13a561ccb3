"""Rules audit of Small World of Warcraft: one test per discrepancy found between the engine
and the rules (sources §2-§6, [R] App. II-III), each on a small crafted state."""
from domain.smallworld import GAME
from domain.smallworld.state import Region

from .helpers import R, make_state, mine, play

# --- Tauren (§2 #14): "Under no circumstances should a Tauren token be left alone ... If a
# Race token would be left alone for any reason, the player controlling the Tauren must
# redeploy it to a Region they already control." ---------------------------------------------

def tauren_next_to_intimidating(**regions):
    regions = {"T-1": mine(1, "orcs", 1), **regions}
    return make_state(regions=regions, seat=1, players={0: {"race": "tauren", "power": "farmer"},
                                                         1: {"race": "orcs", "power": "intimidating", "hand": 5}})


def test_audit_intimidating_a_two_token_tauren_region_sends_the_lone_token_back_to_hand():
    state = tauren_next_to_intimidating(**{"T-2": mine(0, "tauren", 2), "T-4": mine(0, "tauren", 3)})
    move = {"type": "intimidate", "region": "T-2", "to": "T-4"}
    assert move in GAME.legal_moves(state, 1)
    state, _ = play(state, 1, move)
    assert state.regions[R("T-2")] == Region()  # the region is left: no Tauren stands alone
    assert state.regions[R("T-4")].tokens == 4
    assert state.players[0].hand == 1 and state.turn.defenders == (0,)  # redeployed at the end of the turn


def test_audit_intimidating_a_lone_tauren_pair_with_nowhere_to_go_discards_one_and_hands_back_the_other():
    state = tauren_next_to_intimidating(**{"T-2": mine(0, "tauren", 2)})
    state, _ = play(state, 1, {"type": "intimidate", "region": "T-2"})
    assert state.regions[R("T-2")] == Region()
    assert state.players[0].hand == 1  # enters next turn as a first conquest
    assert state.turn.forced == 1


def declined_tauren_next_to_intimidating(**regions):
    regions = {"T-1": mine(1, "orcs", 1), **regions}
    return make_state(regions=regions, seat=1, players={0: {"race": "orcs", "declined": "tauren", "power": "farmer"},
                                                         1: {"race": "orcs", "power": "intimidating", "hand": 5}})


def test_audit_intimidating_a_declined_tauren_pair_leaves_no_lone_token():
    state = declined_tauren_next_to_intimidating(**{"T-2": mine(0, "tauren", 2, declined=True),
                                                    "T-4": mine(0, "tauren", 2, declined=True)})
    move = {"type": "intimidate", "region": "T-2", "to": "T-4"}
    assert move in GAME.legal_moves(state, 1)
    state, events = play(state, 1, move)
    assert events[0]["lone_to"] == "T-4"
    assert state.regions[R("T-2")] == Region()  # the lone token went with the one moved out
    assert state.regions[R("T-4")] == mine(0, "tauren", 4, declined=True)
    assert state.players[0].hand == 0 and state.turn.forced == 0


def test_audit_intimidating_a_declined_tauren_pair_with_nowhere_to_go_discards_both():
    state = declined_tauren_next_to_intimidating(**{"T-2": mine(0, "tauren", 2, declined=True)})
    state, events = play(state, 1, {"type": "intimidate", "region": "T-2"})
    assert events[0]["lone_to"] is None
    assert state.regions[R("T-2")] == Region() and state.turn.forced == 2
    assert state.players[0].declined is None  # a declined race with no region left goes back


def test_audit_an_intimidated_event_of_older_rules_replays_as_it_was_played():
    state = declined_tauren_next_to_intimidating(**{"T-2": mine(0, "tauren", 2, declined=True),
                                                    "T-4": mine(0, "tauren", 2, declined=True)})
    _, (event, *_) = play(state, 1, {"type": "intimidate", "region": "T-2", "to": "T-4"})
    old = {k: v for k, v in event.items() if k != "lone_to"}  # as swow-3 recorded it
    assert GAME.evolve(state, old).regions[R("T-2")].tokens == 1


def test_audit_the_spirit_healer_never_takes_tokens_from_a_hand():
    regions = {"T-1": mine(0, "orcs", 3, marker="spirit_healer"), "T-2": mine(0, "orcs", 1)}
    state = make_state(players={0: {"race": "orcs", "power": "sailing", "hand": 8}}, regions=regions)
    after, events = play(state, 0, {"type": "end_conquests"})  # 12 orcs in play: the box holds 11
    assert events[0]["extra_tokens"] == 0 and after.players[0].hand == 8 + 2


# --- Draenei Holy Light (§2 #2): "the first Race token they should discard ... stays with the
# player"; Championing (§3 #5): a captured Champion means "No defending Race token is
# discarded", so the Holy Light is not spent on it. --------------------------------------------

def test_audit_a_captured_champion_does_not_spend_the_holy_light():
    regions = {"T-1": mine(0, "orcs", 1), "T-2": mine(1, "draenei", 2, champion=True), "T-4": mine(1, "draenei", 2)}
    state = make_state(regions=regions, players={0: {"race": "orcs", "power": "farmer", "hand": 12},
                                                  1: {"race": "draenei", "power": "championing"}})
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert state.players[1].hand == 2 and state.turn.spared == ()
    state, _ = play(state, 0, {"type": "conquer", "region": "T-4"})
    assert state.players[1].hand == 4  # the first token the Draenei should discard is kept


# --- The display (sources §6.2, [R]: "If the Race banners or Special Power badges run out,
# shuffle the discards to make a new stack"; §6.8: the declining race's badge is discarded) --

def declining_beside_a_short_display(power_pile):
    display = [(race, power, 0) for race, power in
               (("dwarves", "mining"), ("naga", "sailing"), ("trolls", "explorer"), ("kobolds", "fishing"),
                ("gnomes", "enraged"))]
    return make_state(regions={"T-1": mine(0, "orcs", 2)}, step="start", display=display,
                      race_pile=("humans",), power_pile=power_pile,
                      players={0: {"race": "orcs", "power": "ranger"}})


def test_audit_a_discarded_badge_is_drawn_only_once_the_badge_stack_is_empty():
    for seed in range(12):
        state, events = play(declining_beside_a_short_display(("farmer",)), 0, {"type": "decline"}, seed=seed)
        refill = next(e for e in events if e["type"] == "display_refilled")
        assert refill["combos"] == [{"race": "humans", "power": "farmer"}]  # never the discarded ranger
    state, events = play(declining_beside_a_short_display(()), 0, {"type": "decline"})
    assert next(e for e in events if e["type"] == "display_refilled")["combos"] == [{"race": "humans", "power": "ranger"}]


# --- Pandaren Harmony (§2 #13, [R]: a holder "must pay 2 Victory Coins to the Pandaren before
# attacking them (attempting to conquer their regions or forcing the removal of a Race token
# from their territory by any means)") and Portal Mage (§3 #17): a portal that swaps the
# Pandaren's tokens out of their region is such an attack. ------------------------------------

def test_audit_a_harmony_holder_pays_the_pandaren_before_a_portal_swaps_their_tokens_away():
    from .helpers import build_map
    magic = build_map({"U-2": {"magic"}})
    regions = {"T-4": mine(1, "pandaren", 2), "U-2": mine(0, "orcs", 1)}
    state = make_state(map_=magic, regions=regions, players={0: {"race": "orcs", "power": "portal_mage", "harmony": True},
                                                             1: {"race": "pandaren", "power": "farmer"}})
    state, events = play(state, 0, {"type": "portal", "a": "T-4", "b": "U-2"})
    assert events[0]["tolls"] == [{"seat": 1, "coins": 2, "for": "harmony"}]
    assert (state.players[0].coins, state.players[1].coins, state.players[0].harmony) == (3, 7, False)
    poor = make_state(map_=magic, regions=regions, players={0: {"race": "orcs", "power": "portal_mage", "harmony": True,
                                                                 "coins": 1},
                                                            1: {"race": "pandaren", "power": "farmer"}})
    assert not [m for m in GAME.legal_moves(poor, 0) if m["type"] == "portal"]


def test_audit_a_pandaren_portal_that_swaps_an_opponents_tokens_attacks_them_no_harmony():
    from .helpers import build_map
    magic = build_map({"U-2": {"magic"}})
    regions = {"T-4": mine(1, "orcs", 2), "U-2": mine(0, "pandaren", 1)}
    state = make_state(map_=magic, regions=regions, players={0: {"race": "pandaren", "power": "portal_mage"},
                                                             1: {"race": "orcs", "power": "farmer"}})
    state, _ = play(state, 0, {"type": "portal", "a": "T-4", "b": "U-2"})
    assert state.turn.attacked == (1,)


# --- Championing (§3 #5): the Champion is redeployed "like a regular Race token"; a region
# emptied under it (abandoned, or its last token intimidated away) does not take it out of
# the game: it goes back to its owner's hand and is redeployed at the end of the turn. -------

def test_audit_an_abandoned_champion_goes_back_to_hand_and_is_redeployed():
    regions = {"T-1": mine(0, "orcs", 1, champion=True), "T-2": mine(0, "orcs", 1)}
    state = make_state(regions=regions, step="start", players={0: {"race": "orcs", "power": "championing"}})
    state, _ = play(state, 0, {"type": "ready"})
    state, _ = play(state, 0, {"type": "abandon", "region": "T-1"})
    assert state.regions[R("T-1")] == Region() and state.players[0].champion
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.regions[R("T-2")].champion and not state.players[0].champion


def test_audit_a_champion_left_alone_by_an_intimidation_goes_back_to_its_owner():
    regions = {"T-1": mine(1, "orcs", 1), "T-2": mine(0, "trolls", 1, champion=True), "U-1": mine(0, "trolls", 1)}
    state = make_state(regions=regions, seat=1, players={0: {"race": "trolls", "power": "championing"},
                                                         1: {"race": "orcs", "power": "intimidating", "hand": 5}})
    state, _ = play(state, 1, {"type": "intimidate", "region": "T-2", "to": "U-1"})
    assert state.regions[R("T-2")] == Region()
    assert state.players[0].champion and state.turn.defenders == (0,)


# --- Goblins (§2 #7, [R]: "an explosion is treated as a successful conquest") and Championing
# (§3 #5: "If another player conquers the Region with the Champion, it is taken prisoner ...
# The owner of the Champion must immediately pay their opponent a 1 Victory Coin ransom"). ----

def test_audit_a_live_bomb_on_the_champion_takes_it_prisoner_for_a_ransom():
    from .helpers import play_with
    from .test_races_second_half import Bombs
    regions = {"T-2": mine(0, "goblins", 2), "T-1": mine(1, "orcs", 2, bomb=1, champion=True), "T-4": mine(1, "orcs", 1)}
    state = make_state(regions=regions, step="start", players={0: {"race": "goblins", "power": "farmer"},
                                                               1: {"race": "orcs", "power": "championing"}})
    state, events = play_with(state, 0, {"type": "ready"}, Bombs(True))
    assert events[0]["bombs"] == [{"region": "T-1", "live": True, "ransom": 1}]
    assert (state.players[0].coins, state.players[1].coins) == (6, 4)
    assert state.players[1].champion and state.players[1].hand == 2  # no token lost for the Champion
