"""Scoring at the end of each turn by the system, secret coins, the final reveal."""
import json

from domain.contract import EVERYONE, SPECTATOR, SYSTEM
from domain.smallworld import GAME
from domain.smallworld.scoring import final_result
from domain.smallworld.state import OVER, SCORE, Region

from .helpers import make_state, mine, murloc, play, rejected


def scoring(regions, players=None, **kw):
    players = players or {0: {"race": "naga", "power": "sailing"}}
    return make_state(step=SCORE, regions=regions, players=players, **kw)


def test_only_the_system_acts_when_a_turn_must_be_scored():
    state = scoring({})
    assert GAME.actors(state) == [SYSTEM]
    assert GAME.legal_moves(state, SYSTEM) == [{"type": "score_turn"}]
    assert GAME.legal_moves(state, 0) == []
    assert rejected(state, 0, {"type": "end_conquests"}) == "not_your_turn"


def test_one_coin_per_region_of_the_active_and_the_declined_race():
    state = scoring({"T-1": mine(0, "naga", 2), "T-2": mine(0, "naga", 1),
                     "T-4": Region(0, "orcs", 1, True)},
                    players={0: {"race": "naga", "power": "sailing", "declined": "orcs"}})
    state, events = play(state, SYSTEM, {"type": "score_turn"})
    assert events[0]["breakdown"] == {"regions": 3}
    assert events[0]["gained"] == 3 and events[0]["total"] == 8 and state.players[0].coins == 8
    assert state.seat == 1 and state.turn.step == "pick"


def conquered(attacker, defenders):
    """A scoring state after `attacker` (seat 0) took the given (race, declined) regions."""
    from domain.smallworld.state import Conquest
    records = tuple(Conquest(i, race, 1, 1, declined) for i, (race, declined) in enumerate(defenders))
    return make_state(step=SCORE, players={0: {"race": attacker, "power": "sailing"}}, conquests=records)


def score(state):
    return play(state, SYSTEM, {"type": "score_turn"})[1][0]["breakdown"]


def test_faction_bonus_counts_distinct_opposite_races():
    # Orcs (Horde) beat two regions of Dwarves and one of Worgen (Alliance): 2 distinct races.
    bd = score(conquered("orcs", [("dwarves", False), ("dwarves", False), ("worgen", False)]))
    assert bd["faction"] == 2


def test_faction_bonus_counts_declined_races_and_ignores_neutral_and_murlocs():
    bd = score(conquered("trolls", [("night_elves", True), ("naga", False), ("murlocs", True)]))
    assert bd.get("faction") == 1
    assert "faction" not in score(conquered("trolls", [("blood_elves", False)]))  # same faction


def test_a_neutral_race_gets_no_faction_bonus():
    assert "faction" not in score(conquered("naga", [("dwarves", False), ("orcs", False)]))


def test_coins_are_secret_to_other_seats_until_the_end():
    state = scoring({"T-1": mine(0, "naga", 2)})
    state, events = play(state, SYSTEM, {"type": "score_turn"})
    mine_view = GAME.redact(events[0], 0)
    assert mine_view["total"] == 6 and mine_view["coins_token"] == "coins-s0-6"
    for viewer in (1, SPECTATOR):
        assert GAME.redact(events[0], viewer) == {"type": "turn_scored", "seat": 0, "payments": []}
        seen = GAME.view(state, viewer)
        assert "coins" not in seen["players"][0] and "coins-s0-6" not in json.dumps(seen)
    assert GAME.view(state, 0)["players"][0]["coins"] == 6
    assert GAME.redact(events[0], EVERYONE)["total"] == 6
    assert GAME.secrets(state)["coins-s0-6"] == frozenset({0})


def test_the_last_turn_of_the_last_round_reveals_all_coins_and_names_the_winner():
    state = make_state(step=SCORE, seat=1, rnd=10, rounds=10,
                       regions={"T-1": mine(1, "naga", 3)},
                       players={0: {"coins": 9}, 1: {"race": "naga", "power": "sailing", "coins": 8}})
    state, events = play(state, SYSTEM, {"type": "score_turn"})
    assert [e["type"] for e in events] == ["turn_scored", "game_over"]
    result = GAME.result(state)
    assert result["scores"] == [9, 9] and result["winners"] == [1]  # tie: more tokens on the boards
    assert result["tie_break"] == "tokens_on_board"
    assert state.turn.step == OVER and GAME.actors(state) == []
    assert GAME.view(state, 0)["players"][1]["coins"] == 9 and GAME.secrets(state) == {}
    assert rejected(state, 0, {"type": "pick", "index": 0}) == "game_over"


def test_a_full_tie_is_shared():
    state = make_state(players={0: {"coins": 7}, 1: {"coins": 7}}, regions={"T-1": murloc()})
    assert final_result(state)["winners"] == [0, 1]
