"""The expert level (issue 34): a short expectimax over the greedy bot's best plays.

SetUp games are short (about 6 turns a seat, 4-5 points a set), and what a set costs is mostly
what it hands the next players: the tiles it leaves on top of the board, the market it leaves.
So the expert weighs each of the greedy bot's best few plays by playing it out in several
determinizations (its seat's view, the unseen tiles dealt anew): the other seats answer as the
greedy bot would, then it follows up greedily itself, REPLIES rounds in all, and it keeps the
play whose outcome is best on average. Every candidate is played out in the same worlds with
the same draws (common random numbers), so two plays are compared on the same luck. This beat
MCTS over the same plays here (bench/README.md, issue 34).

Deterministic: the worlds and draws come from the rng it is given, and the budget is counted
(worlds, and plays scored: the greedy answers' cost), never timed; BOT_ITERATIONS scales both.
"""
from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial

from domain.search import iterations_scale

from .bots import evaluate, greedy_among, prune
from .determinize import determinize
from .evolve import evolve
from .moves import placements
from .rules import decide
from .state import State

WORLDS = 8          # determinizations per decision at BOT_ITERATIONS=1
MIN_WORLDS = 3      # played even past the work cap, so a costly turn still averages some luck
WORK_CAP = 100_000  # plays the greedy answers may score per decision (about 0.5 s of CPU here)
CANDIDATES = 8      # the greedy bot's best plays weighed
REPLIES = 2         # rounds after the play: every other seat answers, then the expert again


Dealer = Callable[[State, int, random.Random], Callable[[random.Random], State]]


def choose(state: State, seat: int, rng: random.Random, dealer: Dealer | None = None) -> dict:
    """The candidate with the best mean outcome over shared worlds (ties: the greedy's order).
    Worlds stop early once the answers have scored WORK_CAP plays (turns with thousands of
    legal sets), so a decision's cost stays bounded. The worlds are determinize's unless a
    `dealer` is given (state, seat, rng -> a world from an rng; bench/variant_match's `infer`)."""
    moves = prune(state, seat, None, keep=CANDIDATES)
    if len(moves) == 1:
        return moves[0]
    deal = dealer(state, seat, rng) if dealer is not None else partial(determinize, state, seat)
    scale = iterations_scale()
    worlds, cap = max(1, round(WORLDS * scale)), WORK_CAP * scale
    totals, work = [0.0] * len(moves), [0]
    for w in range(worlds):
        seed = rng.getrandbits(64)
        world = deal(random.Random(seed))
        for i, move in enumerate(moves):
            totals[i] += outcome(world, seat, move, random.Random(seed + 1), work)
        if work[0] > cap and w + 1 >= MIN_WORLDS:
            break
    return moves[max(range(len(moves)), key=lambda i: (totals[i], -i))]


def outcome(world: State, seat: int, move: dict, rng: random.Random, work: list) -> float:
    """The seat's value after `move` and REPLIES rounds of greedy answers (every other seat,
    then itself), or at the finish if reached first; `work` counts the plays scored."""
    state = _play(world, seat, move, rng)
    for _ in range(REPLIES * world.n - 1):
        if state.over:
            break
        plays = placements(state, state.turn)
        work[0] += len(plays)
        state = _play(state, state.turn, greedy_among(state, state.turn, plays, rng), rng)
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
