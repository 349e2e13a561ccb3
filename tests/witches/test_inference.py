"""Witches' determinization infers the voids a seat showed (issue 56): a seat that did not follow
a led colour holds none of it this round, and every sampled hand respects that, from the
determinizing seat's view only (tests/contract/test_bots_see.py keeps checking the latter)."""
from __future__ import annotations

import importlib
import random

import pytest

from domain.contract import SYSTEM
from domain.play import fold
from domain.witches import GAME
from domain.witches.cards import COLOUR

pytestmark = pytest.mark.unit
det = importlib.import_module("domain.witches.determinize")


def _states_with_voids(seed: int, n: int = 3):
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(GAME.default_options(), n, random.Random(seed)))
    while (actors := GAME.actors(state)) and state.round <= 1:
        actor = actors[0]
        move = GAME.legal_moves(state, actor)[0] if actor == SYSTEM else GAME.bots["random"](state, actor, rng)
        for event in GAME.decide(state, actor, move, rng):
            state = GAME.evolve(state, event)
        if state.voids and any(state.voids):
            yield state


def test_voids_are_the_colours_not_followed_and_the_real_hands_respect_them():
    seen = 0
    for seed in range(4):
        for state in _states_with_voids(seed):
            for s, colours in enumerate(state.voids):
                assert not any(COLOUR[c] in colours for c in state.hands[s])
                seen += 1
    assert seen > 0


@pytest.mark.parametrize("n", [3, 4, 5])
def test_every_sampled_hand_respects_the_voids_shown(n):
    checked = 0
    for seed in range(3):
        for state in _states_with_voids(seed, n):
            for seat in range(n):
                for k in range(5):
                    world = GAME.determinize(state, seat, random.Random(k))
                    assert world.hands[seat] == state.hands[seat]
                    for s, colours in enumerate(state.voids):
                        assert not any(COLOUR[c] in colours for c in world.hands[s]), (s, colours, world.hands[s])
                        assert len(world.hands[s]) == len(state.hands[s])
                    checked += 1
    assert checked > 50


def test_uniform_sampling_breaks_them(monkeypatch):
    """The check above can fail: without the inference some sampled hand holds a void colour."""
    monkeypatch.setattr(det, "INFER", False)
    broken = False
    for state in _states_with_voids(0):
        for k in range(5):
            world = GAME.determinize(state, 0, random.Random(k))
            broken |= any(COLOUR[c] in colours for s, colours in enumerate(state.voids) for c in world.hands[s])
    assert broken
