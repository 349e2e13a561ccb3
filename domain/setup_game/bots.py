"""Bots: `random` (any legal move) and `greedy` (the highest-scoring legal set)."""
from __future__ import annotations

import random
from collections.abc import Sequence

from .data import TILE_IDS
from .moves import legal_moves, placements, play_move
from .plays import score
from .state import State, team_of, tops


def random_policy(state: State, seat: int, rng: random.Random) -> dict:
    return rng.choice(legal_moves(state, seat))


def greedy_policy(state: State, seat: int, rng: random.Random) -> dict:
    """Plays the set worth most points to itself; among equals, the one giving opponents the
    fewest bonus points (partners' bonus counts for it in the team game), then at random.
    With no set to make, swaps its whole rack."""
    best, best_value = [], None
    base = tops(state)
    for pairs in placements(state, seat):
        after = list(base)
        for q, t in pairs:
            after[q] = t
        play = score(state, seat, pairs, after)
        value = (play.points, _bonus_value(state, seat, play.bonus))
        if best_value is None or value > best_value:
            best, best_value = [pairs], value
        elif value == best_value:
            best.append(pairs)
    if best:
        return play_move(rng.choice(best))
    rack = sorted(state.racks[seat])[:4]
    if rack:
        return {"type": "swap", "tiles": [TILE_IDS[t] for t in rack]}
    return legal_moves(state, seat)[0]


def _bonus_value(state: State, seat: int, bonus: Sequence[int]) -> int:
    value = 0
    for other, points in enumerate(bonus):
        if state.teams and team_of(other) == team_of(seat):
            value += points
        else:
            value -= points
    return value


BOTS = {"random": random_policy, "greedy": greedy_policy}
