"""Whether a card can still be completed (the player who is out), and the bots that use it."""
import random

from domain.fairy_tile import GAME
from domain.fairy_tile.bots import random_policy, storyteller_policy
from domain.fairy_tile.conditions import parse
from domain.fairy_tile.feasibility import can_complete, plan, reachable

from .helpers import card, kingdom, make, row

K = kingdom({**row("pcpfm"), **row("ffm", r=1)})


def pos(princess, knight, dragon):
    return {"princess": princess, "knight": knight, "dragon": dragon}


def test_the_knight_can_be_walled_off_from_a_hex():
    line = kingdom(row("pcp"))
    assert reachable(line, "knight", (0, 0)) == {(0, 0), (2, 0)}
    assert not can_complete(line, pos((0, 0), (0, 0), (0, 0)), parse("knight arrive castle"))
    assert can_complete(line, pos((0, 0), (0, 0), (0, 0)), parse("princess arrive castle"))


def test_the_dragon_only_reaches_line_ends():
    k = kingdom({**row("ppcpp"), (2, 1): "p"})
    assert (2, 0) not in reachable(k, "dragon", (0, 0))  # he flies over the castle, never stops on it
    assert not can_complete(k, pos((0, 0), (0, 0), (0, 0)), parse("dragon arrive castle"))
    assert can_complete(k, pos((0, 0), (0, 0), (0, 0)), parse("dragon pass castle"))


def test_missing_land_makes_a_card_impossible():
    tree = parse("dragon arrive big river")
    assert not can_complete(K, pos((0, 0), (3, 0), (4, 0)), tree)
    river = kingdom({(q, 0): ("p", [0, 3]) for q in range(5)})
    assert can_complete(river, pos((0, 0), (3, 0), (4, 0)), tree)


def test_a_last_turn_may_combine_two_moves():
    # Passing the castle and arriving on the forest takes two steps in one turn: possible when
    # the castle lies next to the forest, impossible when it does not.
    tree = parse("princess pass castle and princess arrive forest")
    assert can_complete(kingdom(row("pcf")), pos((0, 0), (0, 0), (0, 0)), tree)
    assert not can_complete(kingdom(row("cpf")), pos((1, 0), (0, 0), (0, 0)), tree)
    assert can_complete(K, pos((0, 0), (0, 0), (0, 0)), parse("princess meet knight on forest"))


def test_plan_names_where_the_figures_must_stand():
    total, targets = plan(K, pos((4, 0), (0, 0), (0, 0)), parse("princess arrive castle"))
    assert total == 2 and targets == {"princess": (2, 0)}  # two steps west, then arrive
    assert plan(K, pos((4, 0), (3, 0), (4, 0)), parse("dragon arrive big river")) is None


def test_storyteller_completes_its_card_when_one_move_does():
    state = make(K, (0, 0), (3, 0), (4, 0), hands=[card("princess arrive castle")] * 2)
    assert storyteller_policy(state, 0, random.Random(1)) == {"type": "move", "figure": "princess", "to": [1, 0]}


def test_storyteller_uses_its_token_for_two_moves_in_a_row():
    state = make(K, (2, 0), (1, 1), (4, 0), hands=[card("princess meet knight on forest")] * 2, magic={0})
    move = storyteller_policy(state, 0, random.Random(1))
    assert move in GAME.legal_moves(state, 0)
    events = GAME.decide(state, 0, move, random.Random(1))
    for e in events:
        state = GAME.evolve(state, e)
    second = storyteller_policy(state, 0, random.Random(1))
    told = [e["type"] for e in GAME.decide(state, 0, second, random.Random(1))]
    assert "card_told" in told


def test_storyteller_beats_random_in_most_two_seat_games():
    wins = 0
    for g in range(6):
        rng = random.Random(500 + g)
        smart = g % 2
        policies = {smart: storyteller_policy, 1 - smart: random_policy}
        state = None
        for e in GAME.setup({"round_limit": 100}, 2, rng):
            state = GAME.evolve(state, e)
        while GAME.actors(state):
            seat = GAME.actors(state)[0]
            for e in GAME.decide(state, seat, policies[seat](state, seat, rng), rng):
                state = GAME.evolve(state, e)
        wins += GAME.result(state)["winners"] == [smart]
    assert wins >= 4


def test_two_storytellers_do_not_tug_a_figure_to_and_fro_for_ever():
    finished = 0
    for g in range(3):
        rng = random.Random(g)
        state = None
        for e in GAME.setup({"round_limit": 100}, 2, rng):
            state = GAME.evolve(state, e)
        while GAME.actors(state):
            seat = GAME.actors(state)[0]
            for e in GAME.decide(state, seat, storyteller_policy(state, seat, rng), rng):
                state = GAME.evolve(state, e)
        finished += GAME.result(state)["reason"] == "book_finished"
    assert finished >= 2
