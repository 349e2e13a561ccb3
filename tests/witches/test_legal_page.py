"""Witches' legal_page (issue 57): the page of a seat's legal moves and their count without the
whole list. While passing, a seat's moves are every choice of 4 of 20 cards (3 seats: 4,845):
the page's are made lazily in the list's order and the rest counted by a binomial. Checked
against legal_moves' slice and length for every actor of every position of seeded playouts
(3 to 6 seats, two rounds each, both passing phases), at page sizes around the answers' (64,
500) and the list's ends."""
from __future__ import annotations

import random
from itertools import combinations
from math import comb

import pytest

from domain.contract import SYSTEM
from domain.play import fold
from domain.witches import GAME, moves
from domain.witches.state import HAND_SIZE, PASS_COUNT, PASSING

from .helpers import options


def _limits(total: int) -> set[int]:
    return {0, 1, 2, 7, 63, 64, 65, 499, 500, 501, total - 1, total, total + 1, -1, -64, -total, -total - 1}


def _positions(n: int, seed: int):
    """Every state of a seeded two-round game of n seats, random legal moves throughout."""
    rng = random.Random(seed)
    state = fold(GAME, GAME.setup(options(rounds=2), n, rng))
    while not moves.is_over(state):
        yield state
        actors = GAME.actors(state)
        actor = rng.choice(actors)
        move = rng.choice(GAME.legal_moves(state, actor))
        state = fold(GAME, GAME.decide(state, actor, move, rng), state)
    yield state


def _wrong(state, actor) -> list[int]:
    every = GAME.legal_moves(state, actor)
    return sorted(k for k in _limits(len(every)) if GAME.legal_page(state, actor, k) != (every[:k], len(every)))


@pytest.mark.parametrize("n", [3, 4, 5, 6])
def test_the_page_is_the_lists_slice_at_every_position(n):
    passing = positions = 0
    for seed in range(4 if n == 3 else 3):
        for state in _positions(n, seed):
            positions += 1
            passing += state.phase == PASSING
            for actor in (*range(n), SYSTEM):
                assert _wrong(state, actor) == [], (n, seed, state.phase, actor)
    assert passing >= 2 * n and positions > 100  # both rounds' passing, each seat's pass


def test_a_passing_page_makes_only_its_moves_and_counts_the_rest(monkeypatch):
    state = fold(GAME, GAME.setup(options(), 3, random.Random(7)))
    assert state.phase == PASSING
    every = GAME.legal_moves(state, 1)
    assert len(every) == comb(HAND_SIZE[3], PASS_COUNT[3]) == 4845

    def refused(*args):
        raise AssertionError("the whole list was made")

    monkeypatch.setattr(moves, "legal_moves", refused)
    for k in (1, 64, 500, 4844, 4845, 5000):
        assert GAME.legal_page(state, 1, k) == (every[:k], 4845)


def test_a_seat_that_passed_has_no_page():
    state = fold(GAME, GAME.setup(options(), 4, random.Random(3)))
    first = GAME.legal_moves(state, 2)[100]
    state = fold(GAME, GAME.decide(state, 2, first, random.Random(0)), state)
    assert GAME.legal_page(state, 2, 64) == ([], 0)
    assert GAME.legal_page(state, 0, 64) == (GAME.legal_moves(state, 0)[:64], comb(15, 3))


@pytest.mark.parametrize("n", sorted(PASS_COUNT))
def test_the_passes_are_every_choice_of_the_hand_in_its_order(n):
    """moves.passes (each pass count's choices unpacked, for speed) lists what a pass of each
    combination of the hand, in combinations' order, is; and its first `size` of them."""
    k = PASS_COUNT[n]
    for seed in range(3):
        hand = fold(GAME, GAME.setup(options(), n, random.Random(seed))).hands[seed % n]
        assert len(hand) == HAND_SIZE[n]
        every = [{"type": "pass_cards", "cards": list(choice)} for choice in combinations(hand, k)]
        assert moves.passes(hand, k) == every
        for size in (0, 1, 64, len(every) - 1, len(every), len(every) + 1):
            assert moves.passes(hand, k, size) == every[:size]
    assert moves.passes(("a", "b", "c", "d", "e"), 5) == [{"type": "pass_cards", "cards": ["a", "b", "c", "d", "e"]}]
    assert moves.passes(("a", "b"), 1, 1) == [{"type": "pass_cards", "cards": ["a"]}]
