"""The bots: always legal, and `careful` takes clearly fewer fire points than `random`."""
import random

from domain.contract import SYSTEM
from domain.play import fold
from domain.witches import GAME
from domain.witches.bots import careful_bot, random_bot
from domain.witches.cards import PYGMY_QUEEN, RED_CARDS, WATER_WITCH

from .helpers import c, round_end, started, wiz


def test_careful_passes_its_most_dangerous_cards_and_keeps_wizards():
    hand = [PYGMY_QUEEN, WATER_WITCH, c("red", 14), wiz(1), c("blue", 2), c("yellow", 3)] + \
        [c("blue", v) for v in range(3, 8)]
    state = started(4, [hand, [], [], []])
    move = careful_bot(state, 0, random.Random())
    assert move in GAME.legal_moves(state, 0)
    assert set(move["cards"]) == {PYGMY_QUEEN, WATER_WITCH, c("red", 14)}


def test_random_pass_is_a_listed_move():
    state = fold(GAME, GAME.setup(GAME.default_options(), 3, random.Random(1)))
    rng = random.Random(2)
    for seat in range(3):
        assert random_bot(state, seat, rng) in GAME.legal_moves(state, seat)


def test_careful_spell_choice_gives_the_points_away_only_when_that_wins():
    taken = [list(RED_CARDS) + [WATER_WITCH], [], []]
    winning = round_end(3, taken, totals=[10, 55, 30])
    assert careful_bot(winning, 0, random.Random()) == {"type": "choose_spell", "choice": "others"}
    losing = round_end(3, taken, totals=[60, 55, 30])
    assert careful_bot(losing, 0, random.Random()) == {"type": "choose_spell", "choice": "self"}


def average_points(levels, rounds, seed):
    rng = random.Random(seed)
    n = len(levels)
    totals = {level: [] for level in levels}
    options = {**GAME.default_options(), "rounds": rounds}
    state = fold(GAME, GAME.setup(options, n, rng))
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        move = GAME.legal_moves(state, SYSTEM)[0] if actor == SYSTEM else GAME.bots[levels[actor]](state, actor, rng)
        for event in GAME.decide(state, actor, move, rng):
            if event["type"] == "round_scored":
                for seat, points in enumerate(event["points"]):
                    totals[levels[seat]].append(points)
            state = GAME.evolve(state, event)
    return {level: sum(p) / len(p) for level, p in totals.items()}


def test_careful_takes_clearly_fewer_fire_points_than_random():
    averages = average_points(["careful", "random", "random", "random"], rounds=40, seed=5)
    assert averages["careful"] < 0.6 * averages["random"], averages
