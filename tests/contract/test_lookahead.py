"""bench/lookahead.py's one-move lookahead (issue 34: the bar every game's search level is
measured against) keeps working: one short seeded game of each against `random`, handed the
seat's determinization as the bench hands it; every move it plays is one of the real state's
legal moves, the game ends, and in Splendor and Small World it out-scores `random` (in Witches,
one round, it takes fewer fire points than the random seats' mean). A few seconds in all."""
from __future__ import annotations

import json
import random

import pytest

from bench import lookahead
from domain.contract import SYSTEM
from domain.play import fold
from domain.smallworld import GAME as SMALLWORLD
from domain.splendor import GAME as SPLENDOR
from domain.witches import GAME as WITCHES


def _play(game, options, n, seat, seed):
    rng = random.Random(seed)
    state = fold(game, game.setup(options, n, random.Random(seed)))
    looked = 0
    while actors := game.actors(state):
        actor = actors[0]
        if actor == SYSTEM:
            move = game.legal_moves(state, actor)[0]
        elif actor == seat:
            move = lookahead.move(game, state, actor, lookahead.LEVEL, rng)
            keys = {json.dumps(m, sort_keys=True) for m in game.legal_moves(state, actor)}
            assert json.dumps(move, sort_keys=True) in keys, move
            looked += 1
        else:
            move = game.bots["random"](state, actor, rng)
        state = fold(game, game.decide(state, actor, move, rng), state)
    assert looked > 0
    return game.result(state)


@pytest.mark.parametrize("seat", [0, 1])
def test_splendor_lookahead_beats_random(seat):
    result = _play(SPLENDOR, SPLENDOR.default_options(), 2, seat, seed=3)
    assert result["scores"][seat] > result["scores"][1 - seat]


def test_smallworld_lookahead_beats_random():
    result = _play(SMALLWORLD, {}, 2, 1, seed=5)
    assert result["scores"][1] > result["scores"][0]


def test_witches_lookahead_plays_a_round():
    result = _play(WITCHES, {**WITCHES.default_options(), "rounds": 1}, 3, 2, seed=7)
    scores = result["scores"]
    assert scores[2] <= (scores[0] + scores[1]) / 2
