"""The expert level (issue 34): a short expectimax over the greedy bot's best plays.

SetUp games are short (about 6 turns a seat, 4-5 points a set), and what a set costs is mostly
what it hands the next player: the board tiles it leaves on top, the market it leaves. So the
expert weighs each of the greedy bot's best few plays by playing it out in several
determinizations (its seat's view, the unseen tiles dealt anew), every other seat answering as
the greedy bot would, then itself once more by the greedy bot, and keeps the play whose
outcome is best on average. Every candidate is played out in the same worlds with the same
draws (common random numbers), so the comparison between two plays is not drowned by the luck
of the draw. This beat MCTS over the same plays here (bench/README.md, issue 34).

Deterministic: the worlds and draws come from the rng it is given, the budget is a count of
worlds (BOT_ITERATIONS scales it), never a time.
"""
from __future__ import annotations

import random

from domain.search import iterations_scale

from .bots import evaluate, greedy_policy, prune
from .determinize import determinize
from .evolve import evolve
from .rules import decide
from .state import State

WORLDS = 8       # determinizations per decision at BOT_ITERATIONS=1
CANDIDATES = 8   # the greedy bot's best plays weighed
REPLIES = 1      # after every other seat has answered, the expert's own greedy follow-ups


def choose(state: State, seat: int, rng: random.Random) -> dict:
    """The candidate with the best mean outcome over shared worlds (ties: the greedy's order)."""
    moves = prune(state, seat, None, keep=CANDIDATES)
    if len(moves) == 1:
        return moves[0]
    worlds = max(1, round(WORLDS * iterations_scale()))
    seeds = [rng.getrandbits(64) for _ in range(worlds)]
    totals = [0.0] * len(moves)
    for s in seeds:
        world = determinize(state, seat, random.Random(s))
        for i, move in enumerate(moves):
            totals[i] += outcome(world, seat, move, random.Random(s ^ 0x5E7))
    return moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]


def outcome(world: State, seat: int, move: dict, rng: random.Random) -> float:
    """The seat's value after `move`, every other seat's greedy answer and its own greedy
    follow-ups (or the finish, if reached first)."""
    state = _play(world, seat, move, rng)
    plies = world.n - 1 + REPLIES
    for _ in range(plies):
        if state.over:
            break
        state = _play(state, state.turn, greedy_policy(state, state.turn, rng), rng)
    return value(state, seat)


def value(state: State, seat: int) -> float:
    """A finished game's result (1 a win, shared wins split; a team's win is whole), else the
    smoothed lead (bots.evaluate)."""
    if state.over:
        return (1.0 if state.teams else 1.0 / len(state.winners)) if seat in state.winners else 0.0
    return evaluate(state, seat)


def _play(state: State, seat: int, move: dict, rng: random.Random) -> State:
    for event in decide(state, seat, move, rng):
        state = evolve(state, event)
    return state
