"""The eight races of issue 16 (sources §2), each on a crafted state, with decline and the
markers §11 names for it."""
import random

from domain.contract import SYSTEM
from domain.smallworld import GAME
from domain.smallworld.state import CONQUER, MARKERS, PICK, REINFORCE, SCORE, START, Region

from .helpers import FixedRng, R, cost_of, make_state, mine, murloc, play, play_with, rejected


def score(state):
    state = state.with_(turn=state.turn._replace(step=SCORE))
    return play(state, SYSTEM, {"type": "score_turn"})


def breakdown(state):
    events = score(state)[1]
    return next(e for e in events if e["type"] == "turn_scored")["breakdown"]


# --- Draenei: Holy Light -------------------------------------------------------------------

def draenei_defending(tokens=3, **kw):
    regions = {"T-1": mine(0, "orcs", 1), "T-2": mine(1, "draenei", tokens), "T-4": mine(1, "draenei", 1),
               **kw.pop("regions", {})}
    players = {0: {"race": "orcs", "power": "farmer", "hand": 12}, 1: {"race": "draenei", "power": "farmer"}}
    return make_state(regions=regions, players=players, **kw)


def test_draenei_keep_the_first_token_they_would_lose_in_each_opponent_turn():
    state, _ = play(draenei_defending(), 0, {"type": "conquer", "region": "T-2"})
    assert state.players[1].hand == 3  # none discarded
    assert state.turn.spared == (1,)
    state, _ = play(state, 0, {"type": "conquer", "region": "T-4"})
    assert state.players[1].hand == 3  # the second loss of the turn is discarded as usual


def test_holy_light_saves_a_lone_draenei_token_for_the_redeployment():
    state = draenei_defending(tokens=1)
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert state.players[1].hand == 1 and state.turn.defenders == (1,)


def test_holy_light_does_not_work_in_decline():
    state = draenei_defending(regions={"T-2": mine(1, "draenei", 1, True)})
    state = state.set_player(1, state.players[1]._replace(race=None, power=None, declined="draenei"))
    state = state.set_region(R("T-4"), Region())
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert state.players[1].declined is None and state.players[1].hand == 0  # gone


# --- Ethereals -------------------------------------------------------------------------------

def ethereals(**kw):
    regions = {"T-2": mine(0, "ethereals", 3), **kw.pop("regions", {})}
    return make_state(regions=regions, players={0: {"race": "ethereals", "power": "farmer", "hand": 6},
                                                1: {"race": "orcs", "power": "farmer"}}, **kw)


def test_ethereals_steal_an_adjacent_artifact_into_their_region():
    state = ethereals(regions={"T-4": mine(1, "orcs", 2, marker="frostmourne"), "T-1": mine(0, "ethereals", 1)})
    moves = [m for m in GAME.legal_moves(state, 0) if m["type"] == "steal_artifact"]
    assert moves == [{"type": "steal_artifact", "from": "T-4", "to": "T-2"}]
    state, events = play(state, 0, moves[0])
    assert events[0]["marker"] == "frostmourne"
    assert state.regions[R("T-2")].marker == "frostmourne" and state.regions[R("T-4")].marker is None
    # its power at once: Frostmourne now makes a conquest cheaper; the Ethereals' once-a-turn is spent
    assert cost_of(state, 0, "T-3", "frostmourne") == 1
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "steal_artifact" or m.get("use") == "ethereals"]


def test_ethereals_cannot_steal_a_legendary_place_but_conquer_it_for_2_less():
    state = ethereals(regions={"T-4": mine(1, "orcs", 2, marker="karazhan")})
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "steal_artifact"]
    assert cost_of(state, 0, "T-4") == 4 and cost_of(state, 0, "T-4", "ethereals") == 2
    state, _ = play(state, 0, {"type": "conquer", "region": "T-4", "use": "ethereals"})
    assert state.regions[R("T-4")].race == "ethereals" and "ethereals" in state.turn.used
    assert cost_of(ethereals(regions={"T-7": mine(1, "orcs", 2, marker="karazhan")}), 0, "T-7", "ethereals") is None


def test_ethereals_cannot_steal_from_an_aegis_region_nor_in_decline():
    state = ethereals(regions={"T-4": mine(1, "orcs", 2, marker="aegis_of_aggramar")})
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "steal_artifact"]
    state = ethereals(regions={"T-4": mine(1, "orcs", 2, marker="frostmourne"), "T-2": mine(0, "ethereals", 1, True)})
    state = state.set_player(0, state.players[0]._replace(race=None, power=None, declined="ethereals"))
    assert GAME.legal_moves(state.with_(turn=state.turn._replace(step=PICK)), 0)[0]["type"] != "steal_artifact"


# --- Forsaken --------------------------------------------------------------------------------

def forsaken(**kw):
    regions = {"T-1": mine(0, "forsaken", 2), "T-2": mine(1, "orcs", 3), "T-3": Region(1, "kobolds", 1, True),
               **kw.pop("regions", {})}
    players = {0: {"race": "forsaken", "power": "farmer", "hand": 10, "coins": 5},
               1: {"race": "orcs", "power": "farmer", "declined": "kobolds"}}
    return make_state(regions=regions, players=players, **kw)


def test_forsaken_buy_a_token_per_opponent_token_lost_after_the_last_conquest():
    state, _ = play(forsaken(), 0, {"type": "conquer", "region": "T-2"})  # 1 active token lost
    state, _ = play(state, 0, {"type": "conquer", "region": "T-3"})  # 1 declined token lost
    assert state.turn.forced == 2
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.turn.step == REINFORCE
    assert [m["count"] for m in GAME.legal_moves(state, 0)] == [0, 1, 2]
    state, events = play(state, 0, {"type": "buy_tokens", "count": 2})
    assert events[0] == {"type": "tokens_bought", "seat": 0, "count": 2}
    assert state.players[0].coins == 3
    assert sum(r.tokens for r in state.regions if r.race == "forsaken") + state.players[0].hand == 2 + 10 + 2


def test_forsaken_buy_no_more_than_their_coins_nor_murloc_losses():
    state = forsaken(regions={"T-2": murloc()})
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.turn.step != REINFORCE  # Murlocs are no opponent
    state = forsaken()
    state = state.set_player(0, state.players[0]._replace(coins=1))
    state, _ = play(state, 0, {"type": "conquer", "region": "T-2"})
    state, _ = play(state, 0, {"type": "conquer", "region": "T-3"})
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert [m["count"] for m in GAME.legal_moves(state, 0)] == [0, 1]
    assert rejected(state, 0, {"type": "buy_tokens", "count": 2}) == "illegal_move"


# --- Gnomes ----------------------------------------------------------------------------------

def gnomes(hand=5, **kw):
    regions = {"T-1": mine(0, "gnomes", 1), **kw.pop("regions", {})}
    return make_state(regions=regions, players={0: {"race": "gnomes", "power": "farmer", "hand": hand}}, **kw)


def test_gnomes_airborne_assault_anywhere_as_though_adjacent_after_a_free_die():
    state = gnomes(regions={"U-2": murloc()})
    assert cost_of(state, 0, "U-2") is None  # not adjacent, not an entry
    assert cost_of(state, 0, "U-2", "gnomes") == 3
    state, events = play_with(state, 0, {"type": "conquer", "region": "U-2", "use": "gnomes"},
                              FixedRng(2))
    assert events[0] == {"type": "airborne_rolled", "seat": 0, "region": "U-2", "roll": 2, "cost": 1}
    assert events[1]["tokens"] == 1 and state.regions[R("U-2")].race == "gnomes"
    assert cost_of(state, 0, "T-7", "gnomes") is None  # once per turn


def test_an_entry_region_by_air_pays_no_travel():
    assert cost_of(gnomes(), 0, "U-1") == 3 and cost_of(gnomes(), 0, "U-1", "gnomes") == 2  # decision 7


def test_a_short_airborne_assault_is_called_off_and_spends_the_power():
    state = gnomes(hand=2, regions={"U-2": Region(1, "orcs", 3)})  # cost 5
    state, events = play_with(state, 0, {"type": "conquer", "region": "U-2", "use": "gnomes"}, FixedRng(0))
    assert events[1]["type"] == "conquest_failed" and state.turn.step == CONQUER
    assert state.players[0].hand == 2 and "gnomes" in state.turn.used


def test_the_airborne_final_conquest_rolls_both_dice():
    state = gnomes(hand=1, regions={"U-2": Region(1, "orcs", 3)})  # cost 5, 4 short
    assert {"type": "final_conquest", "region": "U-2", "use": "gnomes"} in GAME.legal_moves(state, 0)
    state, events = play_with(state, 0, {"type": "final_conquest", "region": "U-2", "use": "gnomes"},
                              FixedRng(3, 1))
    assert [e["type"] for e in events[:3]] == ["airborne_rolled", "reinforcement_rolled", "region_conquered"]
    assert state.regions[R("U-2")].race == "gnomes"


# --- Goblins ---------------------------------------------------------------------------------

def goblins_end(**kw):
    regions = {"T-2": mine(0, "goblins", 2), "T-1": mine(1, "orcs", 2), "T-4": mine(1, "orcs", 1),
               "T-3": Region(1, "kobolds", 1, True), **kw.pop("regions", {})}
    players = {0: {"race": "goblins", "power": "farmer"}, 1: {"race": "orcs", "power": "farmer", "declined": "kobolds"}}
    return make_state(regions=regions, players=players, **{"step": MARKERS, **kw})


def test_goblins_place_bombs_next_to_them_on_opponents_active_regions():
    state = goblins_end()
    moves = GAME.legal_moves(state, 0)
    assert {m.get("region") for m in moves} == {"T-1", "T-4", None}  # not the declined T-3
    state, events = play(state, 0, {"type": "place_piece", "piece": "bomb", "region": "T-1"})
    assert state.regions[R("T-1")].bomb == 1
    assert GAME.view(state, 1)["regions"][R("T-1")]["bomb"] is True  # only its back
    assert "T-1" not in [m.get("region") for m in GAME.legal_moves(state, 0)]  # one a region
    state, _ = play(state, 0, {"type": "done_placing", "piece": "bomb"})
    assert state.turn.step == SCORE


def bombs_pending(**kw):
    regions = {"T-2": mine(0, "goblins", 2), "T-1": mine(1, "orcs", 3, bomb=1), "T-4": mine(1, "orcs", 1, bomb=1),
               **kw.pop("regions", {})}
    players = {0: {"race": "goblins", "power": "farmer"}, 1: {"race": "orcs", "power": "farmer"}}
    return make_state(regions=regions, players=players, step=START, **kw)


class Bombs:
    """An rng whose `random()` makes the next bomb live (0.0) or a dud (0.99)."""
    def __init__(self, *live):
        self.live = list(live)

    def random(self):
        return 0.0 if self.live.pop(0) else 0.99


def test_bombs_are_revealed_at_the_goblins_next_turn_a_live_one_empties_the_region():
    state, events = play_with(bombs_pending(), 0, {"type": "ready"}, Bombs(True, False))
    assert events[0] == {"type": "bombs_revealed", "seat": 0,
                         "bombs": [{"region": "T-1", "live": True}, {"region": "T-4", "live": False}]}
    assert state.regions[R("T-1")] == Region()  # emptied, no Goblin moves in
    assert state.players[1].hand == 2 and state.turn.defenders == (1,)  # 1 lost, 2 to redeploy
    assert state.regions[R("T-4")] == mine(1, "orcs", 1)  # the dud did nothing
    assert state.bombs == (5, 5)


def test_a_bomb_whose_region_changed_hands_goes_back_unseen_and_decline_resolves_them():
    state = bombs_pending(regions={"T-4": mine(1, "trolls", 1, bomb=0)})  # aimed at seat 0's race once
    state, events = play_with(state, 0, {"type": "decline"}, Bombs(True))
    assert events[0]["bombs"] == [{"region": "T-1", "live": True}, {"region": "T-4", "live": None}]
    assert state.bombs == (5, 6) and state.regions[R("T-4")].bomb is None
    assert events[1]["type"] == "declined"


def test_a_declined_target_still_suffers_the_bomb():
    state = bombs_pending(regions={"T-1": Region(1, "orcs", 1, True, bomb=1)})
    state = state.set_player(1, state.players[1]._replace(race=None, power=None, declined="orcs"))
    state = state.set_region(R("T-4"), Region())
    state, _ = play_with(state, 0, {"type": "ready"}, Bombs(True))
    assert state.regions[R("T-1")] == Region() and state.players[1].declined is None


def test_no_bomb_goes_into_a_watch_tower_or_aegis_region():
    state = goblins_end(regions={"T-1": mine(1, "orcs", 2, tower=True), "T-4": mine(1, "orcs", 1, marker="aegis_of_aggramar")},
                        step=CONQUER)
    state, _ = play(state, 0, {"type": "end_conquests"})
    assert state.turn.step == SCORE  # no target: nothing to place
    open_ = state.set_region(R("T-4"), mine(1, "orcs", 1))
    open_ = open_.with_(turn=open_.turn._replace(step=CONQUER))
    open_, _ = play(open_, 0, {"type": "end_conquests"})
    assert [m.get("region") for m in GAME.legal_moves(open_, 0)] == ["T-4", None]


# --- Humans ----------------------------------------------------------------------------------

def humans_end(**kw):
    regions = {"T-1": mine(0, "humans", 2), "T-2": mine(1, "orcs", 2), "T-4": mine(2, "dwarves", 1),
               "T-3": murloc(), **kw.pop("regions", {})}
    players = {0: {"race": "humans", "power": "farmer"}, 1: {"race": "orcs", "power": "farmer"},
               2: {"race": "dwarves", "power": "farmer"}}
    return make_state(n=3, regions=regions, players=players, **{"step": MARKERS, **kw})


def test_humans_place_their_two_objectives_in_non_alliance_regions():
    state = humans_end()
    targets = {m["region"] for m in GAME.legal_moves(state, 0) if m["type"] == "place_piece"}
    assert "T-1" not in targets and "T-4" not in targets  # Alliance-held
    assert {"T-2", "T-3", "T-5", "U-1"} <= targets and "T-6" not in targets  # empty and Murlocs too, no lake
    state, _ = play(state, 0, {"type": "place_piece", "piece": "objective", "region": "T-2"})
    assert "T-2" not in [m.get("region") for m in GAME.legal_moves(state, 0)]
    state, _ = play(state, 0, {"type": "place_piece", "piece": "objective", "region": "T-3"})
    assert state.turn.step == SCORE and GAME.view(state, 1)["regions"][R("T-2")]["military_objective"]


def test_the_objectives_are_taken_back_before_being_placed_again():
    state = humans_end(regions={"T-5": Region(objective=True), "U-1": Region(objective=True)})
    state, _ = play(state, 0, {"type": "place_piece", "piece": "objective", "region": "T-2"})
    assert [i for i, r in enumerate(state.regions) if r.objective] == [R("T-2")]


def objective_attacked(attacker, race):
    regions = {"T-1": mine(attacker, race, 1), "T-2": mine(0, "humans", 1), "T-3": murloc()._replace(objective=True)}
    players = {0: {"race": "humans", "power": "farmer"}, attacker: {"race": race, "power": "farmer", "hand": 8}}
    return make_state(n=3, regions=regions, players=players, seat=attacker)


def test_a_non_horde_conqueror_of_an_objective_and_the_humans_gain_2_each():
    state, _ = play(objective_attacked(1, "dwarves"), 1, {"type": "conquer", "region": "T-3"})
    assert not state.regions[R("T-3")].objective and state.players[0].coins == 7
    assert breakdown(state)["objectives"] == 2


def test_a_horde_conqueror_gets_nothing_and_the_objective_stays():
    state, _ = play(objective_attacked(1, "orcs"), 1, {"type": "conquer", "region": "T-3"})
    assert state.regions[R("T-3")].objective and state.players[0].coins == 5
    assert "objectives" not in breakdown(state)


def test_humans_taking_their_own_objective_gain_2_once():
    state = objective_attacked(0, "humans")
    state = state.set_region(R("T-1"), mine(0, "humans", 1)).set_player(0, state.players[0]._replace(hand=8))
    state = state.with_(seat=0)
    state, _ = play(state, 0, {"type": "conquer", "region": "T-3"})
    assert state.players[0].coins == 5 and breakdown(state)["objectives"] == 2


def test_the_objectives_leave_with_the_humans_decline_and_stay_in_an_emptied_region():
    state = humans_end(regions={"T-2": mine(1, "orcs", 2, objective=True), "T-1": mine(0, "humans", 2)}, step=START)
    state, _ = play(state, 0, {"type": "decline"})
    assert not any(r.objective for r in state.regions)
    state = humans_end(regions={"T-5": mine(0, "humans", 1, objective=True)}, step=CONQUER, readied=True)
    state, _ = play(state, 0, {"type": "abandon", "region": "T-5"})
    assert state.regions[R("T-5")].objective


# --- Pandaren --------------------------------------------------------------------------------

def pandaren_end(attacked=()):
    regions = {"T-1": mine(0, "pandaren", 2), "T-2": mine(1, "orcs", 1)}
    players = {0: {"race": "pandaren", "power": "farmer"}, 1: {"race": "orcs", "power": "farmer"}}
    return make_state(n=3, regions=regions, players=players, step=SCORE, attacked=attacked)


def test_pandaren_give_harmony_to_every_opponent_they_did_not_attack():
    state, events = score(pandaren_end())
    assert events[0] == {"type": "harmony_given", "seat": 0, "to": [1, 2]}  # seat 2 has no race yet
    state, events = score(pandaren_end(attacked=(1,)))
    assert events[0]["to"] == [2]


def harmony_holder(**kw):
    regions = {"T-1": mine(1, "orcs", 1), "T-2": mine(0, "pandaren", 2), **kw.pop("regions", {})}
    players = {0: {"race": "pandaren", "power": "farmer"},
               1: {"race": "orcs", "power": "farmer", "hand": 8, "harmony": True, **kw.pop("p1", {})}}
    return make_state(regions=regions, players=players, **{"seat": 1, **kw})


def test_a_harmony_holder_pays_2_once_before_attacking_the_pandaren():
    state, events = play(harmony_holder(), 1, {"type": "conquer", "region": "T-2"})
    assert events[0]["tolls"] == [{"seat": 0, "coins": 2, "for": "harmony"}]
    assert (state.players[1].coins, state.players[0].coins, state.players[1].harmony) == (3, 7, False)


def test_a_holder_that_cannot_pay_cannot_attack_the_pandaren():
    state = harmony_holder(p1={"coins": 1})
    assert cost_of(state, 1, "T-2") is None
    assert cost_of(state, 1, "T-3") is not None  # others still


def test_harmony_is_taken_back_at_the_pandaren_turn_and_with_their_decline():
    state = harmony_holder().with_(turn=harmony_holder().turn._replace(step=SCORE))
    state, _ = play(state, SYSTEM, {"type": "score_turn"})  # seat 1's turn ends; seat 0 (Pandaren) starts
    assert not state.players[1].harmony
    state = harmony_holder(seat=0, step=START)
    state, _ = play(state, 0, {"type": "decline"})
    assert not state.players[1].harmony


def test_declined_pandaren_need_no_harmony_payment():
    state = harmony_holder(regions={"T-2": Region(0, "pandaren", 1, True)})
    state = state.set_player(0, state.players[0]._replace(race=None, power=None, declined="pandaren"))
    _, events = play(state, 1, {"type": "conquer", "region": "T-2"})
    assert "tolls" not in events[0]


# --- Tauren ----------------------------------------------------------------------------------

def tauren(hand=11, **kw):
    regions = {"T-1": mine(0, "tauren", 2), **kw.pop("regions", {})}
    return make_state(regions=regions, players={0: {"race": "tauren", "power": "farmer", "hand": hand}}, **kw)


def test_tauren_conquer_with_2_tokens_at_least():
    state = tauren()
    assert cost_of(state, 0, "T-2") == 2
    state = tauren(regions={"T-1": mine(0, "tauren", 2)}).with_()
    state = state.set_player(0, state.players[0]._replace(power="blacksmith"))
    assert cost_of(state, 0, "T-2") == 2  # 2 - 1 = 1, but never alone
    state, events = play(state, 0, {"type": "conquer", "region": "T-2"})
    assert state.regions[R("T-2")].tokens == 2


def test_a_lone_tauren_token_cannot_make_a_final_conquest():
    state = tauren(hand=1, regions={"T-2": Region(1, "orcs", 1)})
    assert not [m for m in GAME.legal_moves(state, 0) if m["type"] == "final_conquest"]


def test_tauren_ready_and_decline_leave_2_tokens_a_region():
    state = tauren(hand=0, regions={"T-1": mine(0, "tauren", 5), "T-2": mine(0, "tauren", 3)}, step=START)
    after, _ = play(state, 0, {"type": "ready"})
    assert [after.regions[R(r)].tokens for r in ("T-1", "T-2")] == [2, 2] and after.players[0].hand == 4
    after, _ = play(state, 0, {"type": "decline"})
    assert after.regions[R("T-1")] == Region(0, "tauren", 2, True)


def test_a_conquered_tauren_region_loses_just_1_and_a_declined_one_loses_both():
    regions = {"T-1": mine(1, "orcs", 1), "T-2": mine(0, "tauren", 3), "T-3": Region(0, "dwarves", 2, True)}
    state = make_state(regions=regions, seat=1, players={0: {"race": "tauren", "power": "farmer", "declined": "dwarves"},
                                                          1: {"race": "orcs", "power": "farmer", "hand": 12}})
    state, _ = play(state, 1, {"type": "conquer", "region": "T-2"})
    assert state.players[0].hand == 2
    assert cost_of(state, 1, "T-3") == 5  # 2 + mountain + 2 declined tokens
    state, _ = play(state, 1, {"type": "conquer", "region": "T-3"})
    assert state.players[0].declined is None


def test_random_games_with_every_race_end():
    for seed in range(3):
        rng = random.Random(seed)
        state = GAME.evolve(None, GAME.setup({}, 5, random.Random(seed))[0])
        while GAME.actors(state):
            actor = GAME.actors(state)[0]
            moves = GAME.legal_moves(state, actor)
            for e in GAME.decide(state, actor, rng.choice(moves), rng):
                state = GAME.evolve(state, e)
        assert GAME.result(state)["reason"] == "last_round_scored"
