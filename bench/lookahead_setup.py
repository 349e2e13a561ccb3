"""A bench-only SetUp opponent (issue 34): one-move lookahead.

`setup_lookahead(state, seat, rng)` plays each of the greedy bot's best LOOKAHEAD_KEEP sets on
a copy of the state it is handed (its seat's determinization, as every bot gets), and keeps the
one whose resulting position is best by a simple evaluation: its own score minus the best other
seat's (the bonus points a set hands the others count against it), a finish reached winning
outright. With no set to make it swaps its whole rack, as the greedy bot does. It is the
yardstick the expert should clearly beat: what the expert adds is seeing the others' answers.
"""
from __future__ import annotations

import random

from domain.setup_game.bots import prune
from domain.setup_game.evolve import evolve
from domain.setup_game.rules import decide
from domain.setup_game.state import State

LOOKAHEAD_KEEP = 20  # the greedy bot's best plays it simulates


def setup_lookahead(state: State, seat: int, rng: random.Random) -> dict:
    moves = prune(state, seat, None, keep=LOOKAHEAD_KEEP)
    if len(moves) == 1:
        return moves[0]
    valued = [(_after(state, seat, move), move) for move in moves]
    best = max(v for v, _ in valued)
    return rng.choice([move for v, move in valued if v == best])  # ties at random, as greedy


def _after(state: State, seat: int, move: dict) -> float:
    """Own score minus the best other's once `move` is played (the draws do not change the
    scores, so a fixed rng keeps `rng`'s sequence the caller's)."""
    draws = random.Random(0)
    for event in decide(state, seat, move, draws):
        state = evolve(state, event)
    if state.over:
        return float("inf") if seat in state.winners else float("-inf")
    return state.scores[seat] - max(p for s, p in enumerate(state.scores) if s != seat)
