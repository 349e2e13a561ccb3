"""Bots decide from their seat's information only (issue 34).

Every hosted game has a `determinize(state, seat, rng)`; along seeded playouts of every
configuration, for each seat, it must:
- keep what the seat sees: its view, and its legal moves when it is to act, are the same;
- depend on the seat's information alone: a determinization of a determinization (a state the
  seat cannot tell from the real one, its secrets of others drawn anew) gives, for the same rng,
  exactly the determinization of the real state;
and so every bot of every level, handed states the seat cannot tell apart (the real one, or its
hidden information permuted), plays the same move for the same rng (the levels asked in turn
along each playout).
"""
from __future__ import annotations

import random

import pytest

from domain.contract import is_seat
from domain.play import bot_move, fold
from tests.api.test_languages import _domain_games
from tests.contract.test_game_contract import CASES, _options

HOSTED = {g.name for g in _domain_games()}
SEEN = [case for case in CASES if case.values[0].name in HOSTED]
CHECK_EVERY = 7  # playout steps between checked states


def _states(game, n, options, seed):
    rng = random.Random(seed)
    state = fold(game, game.setup(_options(game, options), n, random.Random(seed)))
    step = 0
    while actors := game.actors(state):
        if step % CHECK_EVERY == 0:
            yield state
        actor = rng.choice(actors)
        move = rng.choice(game.legal_moves(state, actor))
        state = fold(game, game.decide(state, actor, move, rng), state)
        step += 1


@pytest.mark.parametrize("game", [g for g in _domain_games()], ids=lambda g: g.name)
def test_every_game_determinizes(game):
    assert game.determinize is not None, f"{game.name}'s bots would see the whole state"


@pytest.mark.parametrize("game,n,options", SEEN)
def test_a_determinization_keeps_what_the_seat_sees_and_nothing_else(game, n, options):
    if game.determinize is None:
        pytest.skip("no determinize yet")
    for k, state in enumerate(_states(game, n, options, seed=k_seed(n))):
        actors = game.actors(state)
        for seat in range(n):
            world = game.determinize(state, seat, random.Random(k))
            assert game.view(world, seat) == game.view(state, seat), f"seat {seat} sees another game"
            if seat in actors:
                assert game.legal_moves(world, seat) == game.legal_moves(state, seat)
            again = game.determinize(world, seat, random.Random(1000 + k))
            assert again == game.determinize(state, seat, random.Random(1000 + k)), \
                f"seat {seat}'s determinization depends on what it cannot see"


@pytest.mark.parametrize("game,n,options", SEEN)
def test_no_bot_plays_differently_for_what_its_seat_cannot_see(game, n, options):
    if game.determinize is None:
        pytest.skip("no determinize yet")
    levels = list(game.bots)
    asked = set()
    for k, state in enumerate(_states(game, n, options, seed=k_seed(n) + 1)):
        for seat in [a for a in game.actors(state) if is_seat(a)]:
            other = game.determinize(state, seat, random.Random(77 + k))  # its hidden part permuted
            # One level per (state, seat), in turn: each level is asked along the whole game,
            # at a third of the states for three levels (the experts' searches are the cost).
            level = levels[(k + seat) % len(levels)]
            asked.add(level)
            assert bot_move(game, state, seat, level, random.Random(k)) == \
                bot_move(game, other, seat, level, random.Random(k)), f"{level} peeked"
    assert asked == set(levels), f"levels never asked: {set(levels) - asked}"


def k_seed(n: int) -> int:
    return 11 * n
