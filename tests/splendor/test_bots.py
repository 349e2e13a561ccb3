"""Bots play legal moves; greedy beats random (the full 200-game figure: bench/bots_splendor.py)."""
import random

from domain.contract import SYSTEM
from domain.play import fold
from domain.splendor import GAME


def _play(levels, seed, n=2):
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed)))
    while GAME.actors(state):
        actor = GAME.actors(state)[0]
        moves = GAME.legal_moves(state, actor)
        move = moves[0] if actor == SYSTEM else GAME.bots[levels[actor]](state, actor, rng)
        assert move in moves
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
    return GAME.result(state)


def test_greedy_beats_random_in_most_two_seat_games():
    wins = 0
    for seed in range(30):
        seat = seed % 2
        result = _play({seat: "greedy", 1 - seat: "random"}, seed)
        wins += seat in result["winners"]
    assert wins >= 26


def test_greedy_plays_itself_to_a_finish_with_four_seats():
    result = _play({s: "greedy" for s in range(4)}, seed=4, n=4)
    assert max(result["scores"]) >= 15
