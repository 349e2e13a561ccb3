"""The expert's search-only successor `searchplay.play` (issue 56: cheaper search) is decide +
evolve: for every legal move (and every seat to act, the system's scoring included) of the
positions of random and greedy games of 2-4 seats (returns, noble choices, automatic nobles,
blind reserves, empty decks, passes, the last round), it gives the very state the events give,
and so the same legal moves after it."""
import random

import pytest

from domain.play import fold
from domain.splendor import GAME
from domain.splendor.bots import RULES, greedy_policy
from domain.splendor.searchplay import play

pytestmark = pytest.mark.unit


def _positions(seed: int, n: int):
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options() | {"strict_take_three": seed % 4 == 3}, n,
                                  random.Random(seed)))
    wild = seed % 2  # half the games random (odd hands, blind reserves), half greedy
    while actors := GAME.actors(state):
        actor = actors[0]
        yield state, actor
        moves = GAME.legal_moves(state, actor)
        move = rng.choice(moves) if wild or not isinstance(actor, int) else greedy_policy(state, actor, rng)
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)


def test_search_play_gives_the_state_decide_and_evolve_give():
    checked, kinds = 0, set()
    for seed in range(12):
        for state, actor in _positions(seed, 2 + seed % 3):
            for move in GAME.legal_moves(state, actor):
                expected = fold(GAME, GAME.decide(state, actor, move, random.Random(0)), state)
                got = play(state, actor, move, random.Random(0))
                assert got == expected, (seed, state, move)
                assert GAME.actors(got) == GAME.actors(expected)
                for who in GAME.actors(got):
                    assert GAME.legal_moves(got, who) == GAME.legal_moves(expected, who)
                kinds.add((move["type"], expected.phase))
                checked += 1
    assert checked > 15000
    # every kind of move was met, and each phase it can lead to
    assert {k for k, _ in kinds} >= {"take_gems", "take_two", "reserve", "reserve_blind", "buy", "return_tokens",
                                     "choose_noble", "score_game", "pass"}
    assert ("buy", "choose_noble") in kinds and ("take_gems", "return_tokens") in kinds


def test_the_search_plays_by_it():
    assert RULES.play is play
